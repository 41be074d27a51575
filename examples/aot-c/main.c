/* A BERT encoder layer (tests/corpus/bert_encoder) compiled ahead of time by
 * `smelt aot` and called from C through the ABI of docs/aot.md.
 *
 *   ./build/bert [RUNS] [CASE_DIR]
 *
 * Argument i comes from CASE_DIR/in<i>.npy when that file exists and holds the
 * right number of bytes; otherwise it is filled with deterministic values (the
 * padding mask, the last argument, with ones). The program runs the layer once to
 * warm up, then RUNS times (default 1000), and prints the first outputs, the
 * median, fastest and mean time per run (comparable with `smelt bench`) and, when CASE_DIR/out0.npy exists, the largest difference from XLA's
 * output. Needs nothing but the C library: build with the Makefile beside it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bert_encoder.h"

/* 64-byte-aligned zeroed storage (at least 64 bytes). */
static void *alloc64(size_t bytes) {
    size_t rounded = (bytes + 63) / 64 * 64;
    if (rounded == 0) rounded = 64;
    void *p = aligned_alloc(64, rounded);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(p, 0, rounded);
    return p;
}

/* Reads the data of a little-endian C-order .npy file into `dst` if it holds
 * exactly `bytes` bytes of data; returns 0 on success. Accepts format v1-v3. */
static int load_npy(const char *path, void *dst, size_t bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char head[12];
    int ok = fread(head, 1, 12, f) == 12 && memcmp(head, "\x93NUMPY", 6) == 0;
    long offset = 0;
    if (ok && head[6] == 1) offset = 10 + (head[8] | head[9] << 8);
    else if (ok && (head[6] == 2 || head[6] == 3))
        offset = 12 + (long)(head[8] | head[9] << 8 | head[10] << 16 | (unsigned long)head[11] << 24);
    else ok = 0;
    if (ok) ok = fseek(f, 0, SEEK_END) == 0 && ftell(f) - offset == (long)bytes;
    if (ok) ok = fseek(f, offset, SEEK_SET) == 0 && fread(dst, 1, bytes, f) == bytes;
    fclose(f);
    return ok ? 0 : -1;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 1000;
    const char *case_dir = argc > 2 ? argv[2] : "../../tests/corpus/bert_encoder";
    if (runs < 1) runs = 1;

    const void *args[bert_encoder_NUM_ARGS];
    void *results[bert_encoder_NUM_RESULTS];
    int from_case = 1;
    for (int i = 0; i < bert_encoder_NUM_ARGS; i++) {
        size_t bytes = bert_encoder_arg_bytes[i];
        void *buf = alloc64(bytes);
        char path[4096];
        snprintf(path, sizeof path, "%s/in%d.npy", case_dir, i);
        if (load_npy(path, buf, bytes) != 0) {
            from_case = 0;
            if (i == bert_encoder_NUM_ARGS - 1) { /* the s32 padding mask: every token real */
                for (size_t k = 0; k < bytes / 4; k++) ((int *)buf)[k] = 1;
            } else { /* f32 weights and activations: small deterministic values */
                for (size_t k = 0; k < bytes / 4; k++) ((float *)buf)[k] = (float)((long)((k * 37 + i * 11) % 101) - 50) / 500.0f;
            }
        }
        args[i] = buf;
    }
    for (int j = 0; j < bert_encoder_NUM_RESULTS; j++) results[j] = alloc64(bert_encoder_result_bytes[j]);
    void *temp = bert_encoder_temp_bytes ? alloc64(bert_encoder_temp_bytes) : NULL;

    if (bert_encoder_run(args, results, temp) != 0) {
        fprintf(stderr, "bert_encoder_run failed\n");
        return 1;
    }
    double *times = malloc(sizeof(double) * runs), total = 0;
    if (!times) return 1;
    for (int r = 0; r < runs; r++) {
        double start = now_ms();
        bert_encoder_run(args, results, temp);
        times[r] = now_ms() - start;
        total += times[r];
    }
    qsort(times, runs, sizeof(double), by_value);

    const float *out = results[0];
    size_t n = bert_encoder_result_bytes[0] / sizeof(float);
    printf("inputs: %s\n", from_case ? case_dir : "deterministic (some in*.npy missing)");
    printf("out0[0..8]:");
    for (size_t k = 0; k < 8 && k < n; k++) printf(" %.6f", out[k]);
    printf("\n");
    printf("%d runs: median %.4f ms, min %.4f ms, mean %.4f ms per run (temp %zu bytes)\n", runs, times[runs / 2],
           times[0], total / runs, (size_t)bert_encoder_temp_bytes);

    float *want = alloc64(bert_encoder_result_bytes[0]);
    char path[4096];
    snprintf(path, sizeof path, "%s/out0.npy", case_dir);
    if (from_case && load_npy(path, want, bert_encoder_result_bytes[0]) == 0) {
        double worst = 0;
        for (size_t k = 0; k < n; k++) worst = fmax(worst, fabs((double)out[k] - want[k]));
        printf("max |out0 - XLA| = %.3g\n", worst);
    }
    return 0;
}
