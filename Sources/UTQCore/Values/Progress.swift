import Synchronization

/// How far a load has got, for a progress bar the shell may draw. Loaders add the bytes they
/// have read; the shell reads the counter from another thread. The engine never draws.
public final class LoadProgress: Sendable {
    private let done = Atomic<Int>(0)
    private let total = Atomic<Int>(0)
    private let active = Atomic<Bool>(false)
    private let label = Mutex<String>("")

    public init() {}

    public func begin(_ what: String, bytes: Int) {
        label.withLock { $0 = what }
        total.store(bytes, ordering: .relaxed)
        done.store(0, ordering: .relaxed)
        active.store(true, ordering: .releasing)
    }

    public func advance(_ bytes: Int) { done.add(bytes, ordering: .relaxed) }

    /// Corrects how many bytes there are in all, once a loader knows better than the file's
    /// size (a folder of files, a zip whose files unpack larger).
    public func setTotal(_ bytes: Int) { total.store(bytes, ordering: .relaxed) }

    public func end() { active.store(false, ordering: .releasing) }

    /// (what, bytes read, bytes in all) while a load runs, else nil.
    public var snapshot: (String, Int, Int)? {
        guard active.load(ordering: .acquiring) else { return nil }
        return (label.withLock { $0 }, done.load(ordering: .relaxed), total.load(ordering: .relaxed))
    }
}
