import Foundation

/// What a plan runs against: the session's tables and kept results, and the flag Ctrl-C sets.
public struct ExecutionContext: Sendable {
    public var catalog: Catalog
    public var results: [Int: Table]
    public var cancel: CancellationFlag?
    /// The session's memory limit (`set memory-limit`); nil: what the system has free.
    public var memoryLimit: Int?
    /// Where warnings raised while running go (a text that is no time becomes null).
    public var notes: RunNotes?
    /// Rows probes kept of their inputs, by the probe's key, for the steps that asked.
    public var probed: [String: Table] = [:]
    /// Where each step ran, as it ran, when someone asks (the tests compare it with explain).
    public var trace: PlacementTrace?
    /// Told true before a scan reads columns of a file (a large Parquet file's, when first
    /// needed) and false after, as around a load: the shell tunes its allocator for reading.
    public var loadPhase: (@Sendable (Bool) -> Void)?

    public init(catalog: Catalog, results: [Int: Table] = [:], cancel: CancellationFlag? = nil, memoryLimit: Int? = nil, notes: RunNotes? = nil) {
        self.catalog = catalog; self.results = results; self.cancel = cancel; self.memoryLimit = memoryLimit; self.notes = notes
    }
}

/// Where each step of the plans a command ran did run, a line a step in the order of
/// `PlacedPlan.placementText`: what the executor did, to compare with what placement said.
public final class PlacementTrace: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    func ran(_ line: String) { lock.withLock { lines.append(line) } }

    public var text: String { lock.withLock { lines.map { $0 + "\n" }.joined() } }
}
