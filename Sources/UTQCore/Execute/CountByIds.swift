import CIntrinsics
import Foundation

/// `count by` one whole-number column of many values — rides by rider, stop times by trip,
/// positions by vehicle — counted straight into a table indexed by the value. The general
/// path numbers the groups as they first appear (one pass on one core, each row a look-up in
/// a table past the cache), counts by that number (another such pass) and sorts the groups
/// by their key; here each core counts its share of the rows into a table of its own, the
/// tables are added, and the values present, read off in order, are already the groups in
/// key order. The answer is exactly the general path's: keys ascending, nulls last.
struct CountByIds {
    let key: Column
    let name: String
    let low: Int64
    let range: Int

    /// Applies to one whole-number key whose values span at most twice the rows (ids, not
    /// measurements); a smaller span is CountByCodes'.
    init?(keys: [NamedExpr], table: Table) {
        guard keys.count == 1, case .column(let i, _) = keys[0].expr else { return nil }
        let c = table.columns[i]
        guard case .int(let a) = c.storage, !a.isEmpty else { return nil }
        // Cells under nulls hold a value too; counting them in the span only widens it.
        let (lo, hi) = CountByIds.bounds(a)
        guard hi &- lo >= 0, hi &- lo < Int64(max(1 << 16, 2 * a.count)) else { return nil }
        key = c
        name = keys[0].name
        low = lo
        range = Int(hi - lo) + 1
    }

    /// The least and greatest of `values`, each core over its share.
    static func bounds(_ values: [Int64]) -> (Int64, Int64) {
        let n = values.count
        let parts = Workers.parts(rows: n)
        var lows = [Int64](repeating: .max, count: parts), highs = [Int64](repeating: .min, count: parts)
        values.withUnsafeBufferPointer { v in
            lows.withUnsafeMutableBufferPointer { lo in highs.withUnsafeMutableBufferPointer { hi in
                Parallel.each(parts) { p in
                    // In locals: written to the arrays each row, the loop waited on its own stores.
                    var l = Int64.max, h = Int64.min
                    for x in v[n * p / parts..<n * (p + 1) / parts] { l = Swift.min(l, x); h = Swift.max(h, x) }
                    lo[p] = l
                    hi[p] = h
                }
            } }
        }
        return (lows.min()!, highs.max()!)
    }

    /// The key column and one count column per name in `counts`.
    func run(counts names: [String], cancel: CancellationFlag?) throws -> [Column] {
        guard case .int(let values) = key.storage else { return [] }
        let n = values.count
        let validity = key.validity
        let parts = Workers.parts(rows: n)
        // One table a part; pages the kernel hands over zeroed, touched only where a value is.
        let range = self.range, low = self.low
        let tables = (0..<parts).map { _ in UnsafeMutablePointer<UInt32>(OpaquePointer(calloc(range, 4)!)) }
        defer { tables.forEach { free($0) } }
        var nullsOf = [Int](repeating: 0, count: parts)
        values.withUnsafeBufferPointer { v in
            nullsOf.withUnsafeMutableBufferPointer { nulls in
                Parallel.each(parts) { p in
                    let t = tables[p]
                    var at = n * p / parts
                    let end = n * (p + 1) / parts
                    // A million rows at a time, looking at the flag in between.
                    while at < end {
                        if cancel?.isCancelled == true { return }
                        let stop = Swift.min(end, at + 1 << 20)
                        // Past the cache (millions of ids) each count is a miss: the line of the
                        // row 64 ahead is asked for first. A null's slot holds a value within
                        // the bounds too, so every row's line is an address in the table.
                        let ahead = 64
                        if let validity {
                            for r in at..<stop {
                                if r + ahead < stop { utq_prefetch_write(t + Int(v[r + ahead] &- low)) }
                                if validity[r] { t[Int(v[r] &- low)] &+= 1 } else { nulls[p] += 1 }
                            }
                        } else {
                            for r in at..<stop {
                                if r + ahead < stop { utq_prefetch_write(t + Int(v[r + ahead] &- low)) }
                                t[Int(v[r] &- low)] &+= 1
                            }
                        }
                        at = stop
                    }
                }
            }
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        // The parts' tables added into the first, by stretches on the cores; then the values
        // present, in order.
        let stretches = Swift.max(1, Swift.min(parts, range >> 16))
        var present = [Int](repeating: 0, count: stretches)
        present.withUnsafeMutableBufferPointer { present in
            Parallel.each(stretches) { s in
                let lo = range * s / stretches, hi = range * (s + 1) / stretches
                let total = tables[0]
                var found = 0
                for i in lo..<hi {
                    var c = total[i]
                    for p in 1..<Swift.max(1, parts) { c &+= tables[p][i] }
                    total[i] = c
                    if c != 0 { found += 1 }
                }
                present[s] = found
            }
        }
        let nulls = nullsOf.reduce(0, +)
        let groups = present.reduce(0, +) + (nulls > 0 ? 1 : 0)
        var keys = [Int64](repeating: 0, count: groups)
        var counts = [Int64](repeating: 0, count: groups)
        var startOf = [Int](repeating: 0, count: stretches)
        for s in 1..<Swift.max(1, stretches) { startOf[s] = startOf[s - 1] + present[s - 1] }
        keys.withUnsafeMutableBufferPointer { k in
            counts.withUnsafeMutableBufferPointer { c in
                Parallel.each(stretches) { s in
                    let lo = range * s / stretches, hi = range * (s + 1) / stretches
                    let total = tables[0]
                    var out = startOf[s]
                    for i in lo..<hi where total[i] != 0 {
                        k[out] = low &+ Int64(i)
                        c[out] = Int64(total[i])
                        out += 1
                    }
                }
            }
        }
        var keyColumn = key
        keyColumn.name = name
        keyColumn.storage = .int(keys)
        keyColumn.validity = nil
        if nulls > 0 {
            counts[groups - 1] = Int64(nulls)
            keyColumn.validity = Bitmap(count: groups, value: true)
            keyColumn.validity![groups - 1] = false
        }
        return [keyColumn] + names.map { Column(name: $0, storage: .int(counts)) }
    }
}
