// Does a join's gather grow linearly if the right side is read by partitions?
//
//     cc -O2 -march=native -o /tmp/gather bench/gather.c -lpthread
//     /tmp/gather 10000000 64; /tmp/gather 100000000 64
//
// `a | join b on k | sum b.v` over N rows of `a` (keys one of N/10 ids) gathers b.v at each
// row's key: one read at random a row, from 8 MB of values at 10M rows and from 80 MB at
// 100M. Three ways, each on two threads, three times:
//   direct       out[i] = v[k[i]], the value 128 rows ahead asked for first (as utq does);
//   narrow       the same from the values as whole hundredths in 32 bits, out[i] = c[k[i]] / 100
//                (as utq reads a large right side of decimals, ScaledDoubles): 40 MB at 100M;
//   partitioned  the rows' keys placed by their top bits into P partitions (a count, then a
//                pass placing them), each partition's values read while its slice of v
//                (80 MB / P) stays in the core's cache, then the values put back in row order
//                by reading each row's partition again and taking that partition's next value.
// Prints ns a row for both; the answers are compared.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define THREADS 2
#define MAXP 4096

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void *big(size_t n) {
    size_t page = 1 << 21, size = (n + page - 1) & ~(page - 1);
    void *p = aligned_alloc(page, size);
    madvise(p, size, MADV_HUGEPAGE);
    memset(p, 0, size);
    return p;
}

static long N, M;
static int P, SHIFT;
static int64_t *k;      // each row's key, 0 ..< M
static double *v;       // the right side's values, by key
static int32_t *v32;    // the same as whole hundredths
static double *out;     // each row's value
static uint32_t *pos;   // the rows' keys, placed by partition
static double *vals;    // their values, in the same places
static long hist[THREADS][MAXP], start[THREADS][MAXP], pstart[MAXP + 1];

typedef struct { long from, to; int t; int p0, p1; } Range;

static void *direct(void *a) {
    Range *r = a;
    for (long i = r->from; i < r->to; i++) {
        if (i + 128 < r->to) __builtin_prefetch(v + k[i + 128], 0, 2);
        out[i] = v[k[i]];
    }
    return 0;
}
static void *narrow(void *a) {
    Range *r = a;
    for (long i = r->from; i < r->to; i++) {
        if (i + 128 < r->to) __builtin_prefetch(v32 + k[i + 128], 0, 2);
        out[i] = v32[k[i]] / 100.0;
    }
    return 0;
}
static void *count(void *a) {
    Range *r = a;
    long *h = hist[r->t];
    memset(h, 0, sizeof(long) * P);
    for (long i = r->from; i < r->to; i++) h[k[i] >> SHIFT]++;
    return 0;
}
static void *place(void *a) {
    Range *r = a;
    long c[MAXP];
    memcpy(c, start[r->t], sizeof(long) * P);
    for (long i = r->from; i < r->to; i++) pos[c[k[i] >> SHIFT]++] = (uint32_t)k[i];
    return 0;
}
static void *gather(void *a) {
    Range *r = a;
    for (int p = r->p0; p < r->p1; p++)
        for (long j = pstart[p]; j < pstart[p + 1]; j++) vals[j] = v[pos[j]];
    return 0;
}
static void *putBack(void *a) {
    Range *r = a;
    long c[MAXP];
    memcpy(c, start[r->t], sizeof(long) * P);
    for (long i = r->from; i < r->to; i++) out[i] = vals[c[k[i] >> SHIFT]++];
    return 0;
}
static void run(void *(*f)(void *), Range *r) {
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], 0, f, &r[t]);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], 0);
}
static double checksum(void) { double s = 0; for (long i = 0; i < N; i += 97) s += out[i]; return s; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: gather ROWS PARTITIONS\n"); return 2; }
    N = atol(argv[1]); M = N / 10; P = atoi(argv[2]);
    if (P < 1 || P > MAXP) { fprintf(stderr, "partitions: 1 to %d\n", MAXP); return 2; }
    k = big(N * 8); v = big(M * 8); v32 = big(M * 4); out = big(N * 8); pos = big(N * 4); vals = big(N * 8);
    uint64_t x = 88172645463325252ull;
    for (long i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; k[i] = (int64_t)(x % (uint64_t)M); }
    for (long i = 0; i < M; i++) { v[i] = i * 0.5; v32[i] = (int32_t)(i * 50); }
    int bits = 0, pbits = 0;
    while ((1L << bits) < M) bits++;
    while ((1 << pbits) < P) pbits++;
    SHIFT = bits > pbits ? bits - pbits : 0;
    Range rows[THREADS], parts[THREADS];
    for (int t = 0; t < THREADS; t++) {
        rows[t] = (Range){ N * t / THREADS, N * (t + 1) / THREADS, t, 0, 0 };
        parts[t] = (Range){ 0, 0, t, P * t / THREADS, P * (t + 1) / THREADS };
    }
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        run(direct, rows);
        double t1 = now(), s1 = checksum();
        memset(out, 0, N * 8);
        double n0 = now();
        run(narrow, rows);
        double n1 = now(), s0 = checksum();
        memset(out, 0, N * 8);
        double t2 = now();
        run(count, rows);
        long at = 0;
        for (int p = 0; p < P; p++) {
            pstart[p] = at;
            for (int t = 0; t < THREADS; t++) { start[t][p] = at; at += hist[t][p]; }
        }
        pstart[P] = at;
        double t3 = now();
        run(place, rows);
        double t4 = now();
        run(gather, parts);
        double t5 = now();
        run(putBack, rows);
        double t6 = now(), s2 = checksum();
        printf("rows %ld, %d partitions: direct %.1f ms (%.2f ns a row); narrow %.2f ns a row; partitioned %.1f ms (%.2f ns a row: "
               "count %.0f, place %.0f, gather %.0f, put back %.0f ms)%s\n",
               N, P, (t1 - t0) * 1e3, (t1 - t0) * 1e9 / N, (n1 - n0) * 1e9 / N, (t6 - t2) * 1e3, (t6 - t2) * 1e9 / N,
               (t3 - t2) * 1e3, (t4 - t3) * 1e3, (t5 - t4) * 1e3, (t6 - t5) * 1e3, s1 == s2 && s1 == s0 ? "" : "  ANSWERS DIFFER");
    }
    return 0;
}
