import UTQCore
import Foundation

/// How glibc's allocator serves the two kinds of work utq does.
///
/// A load builds columns while it reads and frees its buffers as it goes: large blocks
/// on their own mappings go back to the system at once, so the peak stays near the size
/// of the finished tables. Queries after the load allocate and free columns of the same
/// sizes again and again: served from the heap, the pages are reused instead of being
/// mapped and zeroed by the kernel each time, which on a million rows is most of the
/// time a window or a sort takes.
enum MemoryTuning {
    private static let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
    private static let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
    private static let mmapMax: Int32 = -4        // M_MMAP_MAX

    static func forLoading() {
        // Give back what queries kept, then keep large blocks on their own mappings.
        _ = glibcMallocTrim(0)
        _ = glibcMallopt(mmapMax, 65536)
        _ = glibcMallopt(mmapThreshold, 128 * 1024)
        _ = glibcMallopt(trimThreshold, 128 * 1024)
    }

    /// glibc will not serve blocks above 32 MB from the heap by the threshold alone (a
    /// column of ten million numbers is 80 MB), so queries take no mappings at all: a freed
    /// column's pages are reused by the next, and up to `kept` bytes of them are kept.
    static func forQueries() {
        _ = glibcMallopt(mmapThreshold, 32 * 1024 * 1024)
        _ = glibcMallopt(mmapMax, 0)
        _ = glibcMallopt(trimThreshold, kept)
    }

    /// An eighth of the machine's memory, from 512 MB to 2 GB (glibc takes an Int32). At a
    /// hundred million rows a question's columns are 400-800 MB each: with 512 MB kept, each
    /// was mapped and zeroed again by the kernel, and on a virtual machine that was most of
    /// a join's or a median's time (bench/README, "Many keys, 1M to 100M rows").
    static let kept: Int32 = {
        let eighth = ProcessInfo.processInfo.physicalMemory / 8
        return Int32(clamping: max(UInt64(512 << 20), min(eighth, UInt64(Int32.max))))
    }()

    /// Switches between the two around every load the session runs.
    static func follow(_ session: Session) {
        forQueries()
        session.loadPhase = { loading in loading ? forLoading() : forQueries() }
    }
}

/// glibc's mallopt and malloc_trim (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt")
func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: Int) -> Int32
