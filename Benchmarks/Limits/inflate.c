/* What gzip's inflate costs with each inflater Debian ships (issue 16's
 * 8 x .gz figure). A measuring peer for `make bench-limits`, not part of
 * the product.
 *
 *   inflate zlib|libdeflate FILE.gz...
 *
 * zlib:       inflate() with the gzip wrapper (CRC-32 and length checked), into
 *             a 1 MiB buffer, as smashtag's GzipSource inflates.
 * libdeflate: libdeflate_gzip_decompress() of each whole file into a buffer of
 *             its stated length (CRC-32 and length checked).
 * (ISA-L is measured through its own command, `igzip -dc`.)
 *
 * Prints the bytes inflated (the answer's size, the same for every
 * inflater) and the CPU time of the inflating alone: files are read, and
 * libdeflate's output buffer is allocated and touched, before the clock starts. */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) return NULL;
    long size = ftell(f);
    rewind(f);
    unsigned char *b = malloc(size > 0 ? (size_t)size : 1);
    *n = b ? fread(b, 1, (size_t)size, f) : 0;
    fclose(f);
    return b && *n == (size_t)size ? b : NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: inflate zlib|libdeflate FILE.gz...\n"); return 2; }
    int useLibdeflate = strcmp(argv[1], "libdeflate") == 0;
    static unsigned char out[1 << 20];
    int files = argc - 2;
    unsigned char **in = calloc((size_t)files, sizeof *in);
    size_t *sizes = calloc((size_t)files, sizeof *sizes), largest = 1;
    for (int k = 0; k < files; k++) {
        in[k] = slurp(argv[k + 2], &sizes[k]);
        if (!in[k] || sizes[k] < 18) { fprintf(stderr, "cannot read %s\n", argv[k + 2]); return 1; }
        const unsigned char *t = in[k] + sizes[k] - 4;
        size_t stated = t[0] | t[1] << 8 | t[2] << 16 | (size_t)t[3] << 24;
        if (stated > largest) largest = stated;
    }
    unsigned char *whole = useLibdeflate ? malloc(largest) : NULL;
    if (useLibdeflate && !whole) return 1;
    if (whole) memset(whole, 0, largest);
    unsigned long long total = 0;
    clock_t start = clock();
    for (int k = 0; k < files; k++) {
        if (useLibdeflate) {
            size_t got;
            struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
            if (!d || libdeflate_gzip_decompress(d, in[k], sizes[k], whole, largest, &got) != LIBDEFLATE_SUCCESS) {
                fprintf(stderr, "libdeflate failed on %s\n", argv[k + 2]);
                return 1;
            }
            total += got;
            libdeflate_free_decompressor(d);
        } else {
            z_stream z;
            memset(&z, 0, sizeof z);
            if (inflateInit2(&z, 15 + 16) != Z_OK) return 1;
            z.next_in = in[k];
            z.avail_in = (uInt)sizes[k];
            int r;
            do {
                z.next_out = out;
                z.avail_out = sizeof out;
                r = inflate(&z, Z_NO_FLUSH);
                total += sizeof out - z.avail_out;
            } while (r == Z_OK);
            if (r != Z_STREAM_END) { fprintf(stderr, "zlib failed on %s\n", argv[k + 2]); return 1; }
            inflateEnd(&z);
        }
    }
    double cpu = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("%s: %llu bytes inflated\ncpu %.3f\n", argv[1], total, cpu);
    return 0;
}
