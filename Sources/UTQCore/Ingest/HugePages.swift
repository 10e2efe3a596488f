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
///
/// Not on a virtual machine whose memory balloon reports the memory its guest frees to the
/// host (Linux's free page reporting): the host then drops it, and reports go by free 2 MB
/// blocks, the very blocks a huge page is made of. Each huge page is then faulted in from the
/// host 4 KB at a time as it is cleared, and a load that follows another process (a peer in a
/// benchmark, the last question's script) ran 30-90% slower than on 4 KB pages, which come
/// from memory that was never whole enough to report: the 10M-entry Bike question after the
/// DuckDB CLI 590-687 ms against 485-502 (bench/README "Huge pages and a balloon").
enum HugePages {
    static let size = 2 << 20

    /// Whether huge pages are asked for on this machine, decided once.
    static let wanted: Bool = !hostTakesFreedMemory()

    /// Whether freed memory goes back to a host: a bound virtio balloon device and the kernel's
    /// free page reporting, as sysfs under `root` shows them.
    static func hostTakesFreedMemory(root: String = "/sys") -> Bool {
        #if os(Linux)
        guard access(root + "/module/page_reporting/parameters/page_reporting_order", F_OK) == 0,
              let dir = opendir(root + "/bus/virtio/drivers/virtio_balloon") else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // A device bound to the driver is a link named after it (virtio0).
            if name.hasPrefix("virtio") { return true }
        }
        return false
        #else
        return false
        #endif
    }

    /// Asks for huge pages over the whole 2 MB pages inside the buffer, before it is written.
    /// Below 32 MB it does nothing: a huge page is filled whole once touched, so a column
    /// that ends in one holds up to 2 MB it does not use — on a million rows that was a tenth
    /// of the peak memory, and small buffers are not where the time goes.
    static func advise(_ base: UnsafeMutableRawPointer?, bytes: Int) {
        #if os(Linux)
        guard wanted, let base, bytes >= 16 * size else { return }
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
