#if canImport(Glibc)
import Glibc
#endif

/// The cache a core has to itself, for work that splits a table past the caches into slices
/// that each stay in one while it is worked on. How many slices pays depends on it: a slice
/// must fit, and every slice more is one more stream of writes when the rows are placed (on a
/// core with 2 MB of its own, placing rows into 128 runs took twice as long as into 64).
enum CacheSize {
    /// The second-level cache of a core in bytes; 512 KB when the system does not say.
    static let perCore: Int = {
        #if os(Linux)
        let bytes = sysconf(Int32(_SC_LEVEL2_CACHE_SIZE))
        if bytes >= 1 << 17 && bytes <= 1 << 27 { return bytes }
        #endif
        return 512 << 10
    }()

    /// Bits of a partition number (at least 4, at most 8) for a table of `bytes` cut into
    /// slices of at most half a core's cache.
    static func partitionBits(tableBytes bytes: Int) -> Int {
        let half = max(1, perCore / 2)
        let slices = max(1, (bytes + half - 1) / half)
        let bits = Int.bitWidth - (slices - 1).leadingZeroBitCount
        return min(8, max(4, bits))
    }
}
