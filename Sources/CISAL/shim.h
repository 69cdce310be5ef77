// ISA-L's inflate (igzip), for gzip streams: about twice zlib's speed, with
// each member's CRC-32 and length checked (ISAL_GZIP_NO_HDR_VER). Wrapped by
// Stages/Read/GzipSource.swift, which checks every return code in one place.
#include <isa-l/igzip_lib.h>
