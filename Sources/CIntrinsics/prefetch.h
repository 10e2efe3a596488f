// Asking for a cache line ahead of its use. Loops that read or write at random over tables
// past the cache (a join's key table, a summary's groups by the million) wait on memory
// one row at a time; asked for some rows ahead, the lines arrive while the rows before
// them are worked on. Swift has no way to say this itself.
#ifndef UTQ_PREFETCH_H
#define UTQ_PREFETCH_H

static inline void utq_prefetch_read(const void *p) { __builtin_prefetch(p, 0, 0); }
static inline void utq_prefetch_write(const void *p) { __builtin_prefetch(p, 1, 0); }

#endif
