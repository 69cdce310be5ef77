// libxml2's text writer, for the GEXF output of `smashtag pairs` (SPEC §12.5),
// wrapped in Swift by Stages/Report/GEXFWriter.swift, which checks every
// return code in one place; and its HTML parser, for Mastodon's `content`
// (Stages/Parse/MastodonContent.swift).
#include <libxml/xmlversion.h>

// Debian builds libxml2 with ICU, and <libxml/encoding.h> then includes ICU's
// <unicode/ucnv.h>, whose enums clash with the ICU copy inside Foundation.
// Without the macro the header leaves ICU out; all it changes is two pointer
// fields at the end of xmlCharEncodingHandler, a struct smashtag never
// allocates or reads (the writer is used through its pointer alone).
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlwriter.h>
// The HTML parser, for the `content` of Mastodon statuses (SPEC §16).
#include <libxml/HTMLparser.h>
