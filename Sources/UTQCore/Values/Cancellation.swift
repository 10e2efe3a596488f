import Synchronization

/// Set from a signal handler or another thread to stop a running load or query.
/// Long loops look at it every few thousand rows.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
    public func cancel() { flag.store(true, ordering: .relaxed) }
    public func reset() { flag.store(false, ordering: .relaxed) }
}
