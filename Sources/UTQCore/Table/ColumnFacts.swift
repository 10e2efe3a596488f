import Synchronization

/// Facts about a column's values that take a pass over them to find, found the first time a
/// question needs them and kept while the column's values stay the same: copies of a column
/// share its facts, and a column given new values starts with none (`Column.storage`'s
/// didSet). The least and greatest of a whole-number column decide how ids are counted,
/// numbered and joined (CountByIds, DenseIntGroups, DistinctCodes, JoinLookup); each of those
/// read the whole column for them, every time: 800 MB for 100M ids, a fifth of a `count by`.
public final class ColumnFacts: Sendable {
    private let intBounds = Mutex<(Int64, Int64)?>(nil)

    public init() {}

    /// The least and greatest of `values`, the column's own (every cell, nulls' too): found
    /// once, on the cores (CountByIds.bounds).
    func bounds(of values: [Int64]) -> (Int64, Int64) {
        intBounds.withLock { known in
            if let known { return known }
            let found = CountByIds.bounds(values)
            known = found
            return found
        }
    }

    /// The bounds if a question before found them; nil when not yet.
    var knownBounds: (Int64, Int64)? { intBounds.withLock { $0 } }
}

extension Column {
    /// The least and greatest of a whole-number column's cells (a null's cell holds a value
    /// too, so nulls can only widen them; max, min when empty): nil for other types. Found once
    /// per column's values (ColumnFacts).
    var intBounds: (Int64, Int64)? {
        switch storage {
        case .int(let a), .timestamp(let a), .duration(let a): return facts.bounds(of: a)
        default: return nil
        }
    }
}
