// zlib, for gzip streams: inflate checks each member's CRC-32 and length,
// which libarchive's gzip filter does not. Wrapped by Stages/Read/GzipSource.swift.
#include <zlib.h>
