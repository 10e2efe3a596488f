import Foundation

/// Group numbers for one whole-number key of many values (riders, trips, vehicles by id)
/// whose values lie within a span of at most twice the rows. The general numbering takes the
/// groups as they first appear: one pass on one core, each row a look-up in a table of the
/// whole span (40 MB for ten million ids), past the cache. Here a group is the rank of its
/// value among those present (ValueRanks), found on every core at once. The groups come out
/// in key order, nulls last, which is the order a summary shows, so no sort follows.
struct DenseIntGroups {
    let groupOf: [Int32]
    /// The key's values, one a group in the groups' order (nulls last).
    let keys: Column
    var groups: Int { keys.count }

    /// Worth it for many values over many rows; nil when the key is not such a column.
    init?(_ key: Column, rows n: Int, cancel: CancellationFlag?) throws {
        guard case .int(let values) = key.storage, n == values.count, n >= 1 << 18 else { return nil }
        let parts = Workers.parts(rows: n)
        let validity = key.validity
        // The span, over every cell (a null's cell holds a value too: it only widens it).
        guard let bounds = key.intBounds else { return nil }
        let (low, high) = bounds
        guard high &- low >= 0, high &- low < Int64(2 * n), high - low >= 1 << 16 else { return nil }
        let ranks = values.withUnsafeBufferPointer {
            ValueRanks($0, validity: validity, low: low, span: Int(high - low) + 1, parts: parts)
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        let present = ranks.present
        // A row without a value is in the group after the values present.
        let groupOf = values.withUnsafeBufferPointer {
            ranks.ranks(of: $0, validity: validity, missing: Int32(present), parts: parts)
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        var keyValues = ranks.values()
        let hasNull = key.nullCount > 0
        if hasNull { keyValues.append(0) }
        var keys = key
        keys.storage = .int(keyValues)
        keys.validity = nil
        if hasNull {
            keys.validity = Bitmap(count: keyValues.count, value: true)
            keys.validity![present] = false
        }
        self.groupOf = groupOf
        self.keys = keys
    }
}
