// Where cells end, 64 bytes at a time. A CSV reader that looks for the end of each cell
// byte by byte (or word by word) takes a branch it mispredicts on every cell of a different
// length; one bit per byte of 64 marks every delimiter and line break of the block at once,
// and the cells' ends are then the set bits, taken in order. Swift's SIMD types compare 16
// bytes in one instruction but cannot gather the result into bits (x86's movemask).
#ifndef UTQ_MARKS_H
#define UTQ_MARKS_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bit k set when p[k] is `delimiter`, \n or \r, for k in 0..<64.
static inline uint64_t utq_cell_ends64(const uint8_t *p, uint8_t delimiter) {
    const __m128i d = _mm_set1_epi8((char)delimiter);
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    uint64_t out = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, lf)), _mm_cmpeq_epi8(v, cr));
        out |= (uint64_t)(uint32_t)_mm_movemask_epi8(m) << (16 * k);
    }
    return out;
}

#else

static inline uint64_t utq_cell_ends64(const uint8_t *p, uint8_t delimiter) {
    uint64_t out = 0;
    for (int k = 0; k < 64; k++) {
        uint8_t c = p[k];
        out |= (uint64_t)(c == delimiter || c == '\n' || c == '\r') << k;
    }
    return out;
}

#endif
#endif
