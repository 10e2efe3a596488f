// How many times a byte occurs in memory, 16 bytes a compare: the line breaks of each chunk
// of a compressed file are counted before the chunk is parsed (its rows' room), on the way
// between the decoder and the parser. A word-at-a-time count in Swift ran at 3-4 GB/s in a
// load and was 4% of a .csv.gz load; this runs at the speed memory gives the bytes (32-byte
// compares measured no faster).
#ifndef UTQ_BYTES_H
#define UTQ_BYTES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// Occurrences of `c` in p[0..<n].
static inline size_t utq_count_byte(const uint8_t *p, size_t n, uint8_t c) {
    const __m128i pattern = _mm_set1_epi8((char)c);
    const __m128i zero = _mm_setzero_si128();
    size_t count = 0, i = 0;
    while (i + 16 <= n) {
        // Up to 255 compares add into each byte lane (a match is -1) before the lanes are summed.
        size_t blocks = (n - i) / 16;
        if (blocks > 255) blocks = 255;
        __m128i lanes = zero;
        for (size_t b = 0; b < blocks; b++, i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, pattern));
        }
        __m128i sums = _mm_sad_epu8(lanes, zero);
        count += (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
    for (; i < n; i++) count += p[i] == c;
    return count;
}

#else

static inline size_t utq_count_byte(const uint8_t *p, size_t n, uint8_t c) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += p[i] == c;
    return count;
}

#endif
#endif
