// libpsl, for the registrable domain of a link's host (SPEC §13 `domain`),
// under the system's Public Suffix List (Debian's `publicsuffix`).
// Wrapped by Stages/Extract/RegistrableDomain.swift.
#include <libpsl.h>
