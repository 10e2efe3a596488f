#if canImport(Glibc)
import Glibc
#endif

/// Large column buffers on 2 MB pages.
///
/// A load writes every column into memory the process has never touched, and on a virtual
/// machine each first touch of a 4 KB page is a fault the kernel (and often the host below
/// it) must serve: on a million rides that was a quarter of a load's time. Linux gives a
/// 2 MB page to a region that asks for one (`transparent_hugepage` set to `madvise`, its
/// usual setting), which makes one fault of 512.
enum HugePages {
    static let size = 2 << 20

    /// Asks for huge pages over the whole 2 MB pages inside the buffer, before it is written.
    /// Below 32 MB it does nothing: a huge page is filled whole once touched, so a column
    /// that ends in one holds up to 2 MB it does not use — on a million rows that was a tenth
    /// of the peak memory, and small buffers are not where the time goes.
    static func advise(_ base: UnsafeMutableRawPointer?, bytes: Int) {
        #if os(Linux)
        guard let base, bytes >= 16 * size else { return }
        let first = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + bytes) & ~(size - 1)
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, end - first, MADV_HUGEPAGE)
        #endif
    }

    /// Gives the whole pages inside a buffer back to the system (they read as zeros if touched
    /// again): the room a column was given and did not fill. Below 1 MB it does nothing.
    static func release(_ base: UnsafeMutableRawPointer?, bytes: Int) {
        #if os(Linux)
        let page = 4096
        guard let base, bytes >= 1 << 20 else { return }
        let first = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + bytes) & ~(page - 1)
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, end - first, MADV_DONTNEED)
        #endif
    }

    /// An empty array with room for `capacity` elements, on huge pages when it is large.
    static func array<T>(capacity: Int, of: T.Type = T.self) -> [T] {
        guard capacity > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: capacity) { buffer, count in
            advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: buffer.count * MemoryLayout<T>.stride)
            count = 0
        }
    }
}
