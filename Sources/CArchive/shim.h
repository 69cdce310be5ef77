// The libarchive API smashtag uses: reading only, every filter and the
// container formats of tweet dumps. Wrapped in Swift by Stages/Read/Archive.swift.
#include <archive.h>
#include <archive_entry.h>
