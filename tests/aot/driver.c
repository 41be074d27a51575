/* A generic C driver for objects that `smelt aot` writes (docs/aot.md).
 *
 * Build it against one object, naming the entry with SMELT_NAME and including the
 * generated header:
 *
 *   cc -O2 -DSMELT_NAME=NAME -include DIR/NAME.h driver.c DIR/NAME.o -lm -o prog
 *   prog OUTDIR in0.npy in1.npy ...
 *
 * Argument i is the data of the i-th .npy file (format versions 1-3, little-endian
 * or byte-sized elements, C order); its size must equal NAME_arg_bytes[i]. The
 * driver allocates the results and a 64-byte-aligned temp, calls NAME_run once and
 * writes result j's raw bytes to OUTDIR/out<j>.bin. It exits 0 on success and
 * prints why on stderr otherwise. Only the C standard library is used.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SMELT_NAME
#error "compile with -DSMELT_NAME=<name> -include <dir>/<name>.h"
#endif

#define SMELT_CAT_(a, b) a##b
#define SMELT_CAT(a, b) SMELT_CAT_(a, b)
#define SMELT_SYM(suffix) SMELT_CAT(SMELT_NAME, suffix)
#define SMELT_STR_(a) #a
#define SMELT_STR(a) SMELT_STR_(a)

#define NUM_ARGS SMELT_SYM(_NUM_ARGS)
#define NUM_RESULTS SMELT_SYM(_NUM_RESULTS)
#define ARG_BYTES SMELT_SYM(_arg_bytes)
#define RESULT_BYTES SMELT_SYM(_result_bytes)
#define TEMP_BYTES SMELT_SYM(_temp_bytes)
#define RUN SMELT_SYM(_run)

static void die(const char *what, const char *detail) {
    fprintf(stderr, "driver(%s): %s%s%s\n", SMELT_STR(SMELT_NAME), what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* 64-byte-aligned storage of at least `bytes` (and at least 64) bytes. */
static void *alloc64(size_t bytes) {
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (!p) die("out of memory", NULL);
    memset(p, 0, rounded ? rounded : 64);
    return p;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) die("out of memory", NULL);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) die("out of memory", NULL);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) die("cannot read", path);
    fclose(f);
    *len = n;
    return buf;
}

/* The text after `'key':` in an npy header dict, or NULL. */
static const char *npy_field(const char *header, const char *key) {
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *at = strstr(header, quoted);
    if (!at) return NULL;
    at += strlen(quoted);
    while (*at == ' ') at++;
    if (*at != ':') return NULL;
    at++;
    while (*at == ' ') at++;
    return at;
}

/* Loads an .npy file into 64-byte-aligned storage; checks its data is `want` bytes. */
static void *load_npy(const char *path, size_t want) {
    size_t len;
    unsigned char *file = read_file(path, &len);
    if (len < 10 || memcmp(file, "\x93NUMPY", 6) != 0) die("not an .npy file", path);
    size_t header_len, start;
    if (file[6] == 1) {
        header_len = (size_t)file[8] | (size_t)file[9] << 8;
        start = 10;
    } else if (file[6] == 2 || file[6] == 3) {
        if (len < 12) die("truncated .npy header", path);
        header_len = (size_t)file[8] | (size_t)file[9] << 8 | (size_t)file[10] << 16 | (size_t)file[11] << 24;
        start = 12;
    } else {
        die("unsupported .npy format version", path);
    }
    if (header_len > len - start) die("truncated .npy header", path);
    char *header = malloc(header_len + 1);
    if (!header) die("out of memory", NULL);
    memcpy(header, file + start, header_len);
    header[header_len] = 0;

    const char *descr = npy_field(header, "descr");
    if (!descr || descr[0] != '\'') die("no descr in .npy header", path);
    char order = descr[1];
    long itemsize = strtol(descr + 3, NULL, 10);
    if (itemsize <= 0) die("unsupported descr", path);
    if (order == '>' && itemsize > 1) die("big-endian .npy data", path);
    const char *fortran = npy_field(header, "fortran_order");
    if (fortran && strncmp(fortran, "True", 4) == 0) die("Fortran-order .npy data", path);
    const char *shape = npy_field(header, "shape");
    if (!shape || *shape != '(') die("no shape in .npy header", path);
    size_t count = 1;
    for (const char *s = shape + 1; *s && *s != ')';) {
        char *end;
        long long d = strtoll(s, &end, 10);
        if (end == s) {
            s++;
            continue;
        }
        if (d < 0) die("negative dimension", path);
        count *= (size_t)d;
        s = end;
    }
    size_t data_bytes = count * (size_t)itemsize;
    size_t offset = start + header_len;
    if (len - offset != data_bytes) die("data size disagrees with the .npy header", path);
    if (data_bytes != want) {
        char detail[512];
        snprintf(detail, sizeof detail, "%s holds %zu bytes, the entry takes %zu", path, data_bytes, want);
        die("argument size mismatch", detail);
    }
    void *data = alloc64(data_bytes);
    memcpy(data, file + offset, data_bytes);
    free(header);
    free(file);
    return data;
}

int main(int argc, char **argv) {
    size_t num_args = NUM_ARGS, num_results = NUM_RESULTS;
    if (argc < 2 || (size_t)(argc - 2) != num_args) {
        char detail[64];
        snprintf(detail, sizeof detail, "expected OUTDIR and %zu .npy files", num_args);
        die("usage", detail);
    }
    const void **args = malloc(sizeof(void *) * (num_args ? num_args : 1));
    void **results = malloc(sizeof(void *) * (num_results ? num_results : 1));
    if (!args || !results) die("out of memory", NULL);
    for (size_t i = 0; i < num_args; i++) args[i] = load_npy(argv[2 + i], ARG_BYTES[i]);
    for (size_t j = 0; j < num_results; j++) results[j] = alloc64(RESULT_BYTES[j]);
    void *temp = TEMP_BYTES ? alloc64(TEMP_BYTES) : NULL;

    int rc = RUN((const void *const *)args, (void *const *)results, temp);
    if (rc != 0) {
        char detail[32];
        snprintf(detail, sizeof detail, "%d", rc);
        die("run returned nonzero", detail);
    }

    for (size_t j = 0; j < num_results; j++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/out%zu.bin", argv[1], j);
        FILE *f = fopen(path, "wb");
        if (!f) die("cannot create", path);
        if (RESULT_BYTES[j] && fwrite(results[j], 1, RESULT_BYTES[j], f) != RESULT_BYTES[j]) die("cannot write", path);
        if (fclose(f) != 0) die("cannot write", path);
    }
    return 0;
}
