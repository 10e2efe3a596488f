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
    /// Whether each core counts in a byte an id (see `count(_:_:from:to:low:into:wraps:cancel:)`):
    /// when a table of whole counts would be past a core's cache; tests set it on fewer ids.
    var narrow: Bool

    /// Applies to one whole-number key whose values span at most twice the rows (ids, not
    /// measurements); a smaller span is CountByCodes'.
    init?(keys: [NamedExpr], table: Table) {
        guard keys.count == 1, case .column(let i, _) = keys[0].expr else { return nil }
        let c = table.columns[i]
        guard case .int(let a) = c.storage, !a.isEmpty, let bounds = c.intBounds else { return nil }
        let (lo, hi) = bounds
        // Cells under nulls hold a value too; counting them in the span only widens it.
        guard hi &- lo >= 0, hi &- lo < Int64(max(1 << 16, 2 * a.count)) else { return nil }
        key = c
        name = keys[0].name
        low = lo
        range = Int(hi - lo) + 1
        narrow = range > Self.narrowAbove && range <= Int(UInt32.max)
    }

    /// Ids spanning more than this (a table of 8 MB of whole counts) are counted in bytes.
    static let narrowAbove = 1 << 21

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

    /// Rows `from..<to` counted into `t` at each id less `low`; returns the nulls. A counter
    /// that wraps to zero puts its id in `wraps`: with a byte an id, each entry is 256 rows
    /// more of that id (an id of many rows wraps once in 256 of them). Ten million ids take
    /// 10 MB a core in bytes where whole counts took 40: on two cores the tables stay in the
    /// shared cache, and each count is a read of it instead of one of memory (at 100M rows
    /// 0.9 ns a row against 1.5 in a C loop; counting by partitions of the ids, so each
    /// partition's slice of whole counts stayed in a core's cache, took 1.8 in utq).
    static func count<C: FixedWidthInteger & UnsignedInteger>(_ v: UnsafeBufferPointer<Int64>, _ validity: Bitmap?, from: Int, to: Int,
                                                              low: Int64, into t: UnsafeMutablePointer<C>, wraps: inout [UInt32],
                                                              cancel: CancellationFlag?) -> Int {
        var nulls = 0
        var at = from
        // A million rows at a time, looking at the flag in between.
        while at < to {
            if cancel?.isCancelled == true { return nulls }
            let stop = Swift.min(to, at + 1 << 20)
            // Past a core's cache each count waits on its line: the line of a row some rows
            // ahead is asked for first. A null's slot holds a value within the bounds too, so
            // every row's line is an address in the table.
            let ahead = Prefetch.rows
            if let validity {
                for r in at..<stop {
                    if r + ahead < stop { utq_prefetch_write(t + Int(v[r + ahead] &- low)) }
                    if !validity[r] { nulls += 1; continue }
                    let k = Int(v[r] &- low)
                    let c = t[k] &+ 1
                    t[k] = c
                    if c == 0 { wraps.append(UInt32(truncatingIfNeeded: k)) }
                }
            } else {
                for r in at..<stop {
                    if r + ahead < stop { utq_prefetch_write(t + Int(v[r + ahead] &- low)) }
                    let k = Int(v[r] &- low)
                    let c = t[k] &+ 1
                    t[k] = c
                    if c == 0 { wraps.append(UInt32(truncatingIfNeeded: k)) }
                }
            }
            at = stop
        }
        return nulls
    }

    /// The key column and one count column per name in `counts`.
    func run(counts names: [String], cancel: CancellationFlag?) throws -> [Column] {
        if narrow { return try run(counts: names, in: UInt8.self, cancel: cancel) }
        return try run(counts: names, in: UInt32.self, cancel: cancel)
    }

    private func run<C: FixedWidthInteger & UnsignedInteger>(counts names: [String], in _: C.Type, cancel: CancellationFlag?) throws -> [Column] {
        guard case .int(let values) = key.storage else { return [] }
        let n = values.count
        let validity = key.validity
        let parts = Workers.parts(rows: n)
        // One table a part; pages the kernel hands over zeroed, touched only where a value is.
        let range = self.range, low = self.low
        // On 2 MB pages when large: at ten million ids the counts are read at random, and on
        // 4 KB pages each read past the first 8 MB also missed the table of pages.
        let tables = (0..<parts).map { _ in
            let t = UnsafeMutablePointer<C>(OpaquePointer(calloc(range, MemoryLayout<C>.stride)!))
            HugePages.advise(UnsafeMutableRawPointer(t), bytes: range * MemoryLayout<C>.stride)
            return t
        }
        defer { tables.forEach { free($0) } }
        var nullsOf = [Int](repeating: 0, count: parts)
        var wrapsOf = [[UInt32]](repeating: [], count: parts)
        values.withUnsafeBufferPointer { v in
            nullsOf.withUnsafeMutableBufferPointer { nulls in
                wrapsOf.withUnsafeMutableBufferPointer { wraps in
                    Parallel.each(parts) { p in
                        nulls[p] = Self.count(v, validity, from: n * p / parts, to: n * (p + 1) / parts, low: low, into: tables[p],
                                              wraps: &wraps[p], cancel: cancel)
                    }
                }
            }
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        // Each id's count: its parts' counters added, and 2^bits for each time one wrapped (the
        // wraps in id order, walked alongside).
        let wraps = wrapsOf.joined().sorted()
        let wrapped = 1 << C.bitWidth
        /// The first wrap at or after id `i`.
        func firstWrap(_ i: Int) -> Int {
            var lo = 0, hi = wraps.count
            while lo < hi { let m = (lo + hi) / 2; if Int(wraps[m]) < i { lo = m + 1 } else { hi = m } }
            return lo
        }
        @inline(__always) func total(_ i: Int, _ w: inout Int) -> Int {
            var c = 0
            for t in tables { c &+= Int(t[i]) }
            while w < wraps.count && Int(wraps[w]) == i { c &+= wrapped; w += 1 }
            return c
        }
        // The values present, counted by stretches on the cores, then written in order.
        let stretches = Swift.max(1, Swift.min(parts, range >> 16))
        var present = [Int](repeating: 0, count: stretches)
        present.withUnsafeMutableBufferPointer { present in
            Parallel.each(stretches) { s in
                let lo = range * s / stretches, hi = range * (s + 1) / stretches
                var found = 0, w = firstWrap(lo)
                for i in lo..<hi where total(i, &w) != 0 { found += 1 }
                present[s] = found
            }
        }
        let nulls = nullsOf.reduce(0, +)
        let groups = present.reduce(0, +) + (nulls > 0 ? 1 : 0)
        // Written whole below: filled with zeros first, millions of groups were a pass more.
        var keys = [Int64](unsafeUninitializedCapacity: groups) { _, made in made = groups }
        var counts = [Int64](unsafeUninitializedCapacity: groups) { _, made in made = groups }
        var startOf = [Int](repeating: 0, count: stretches)
        for s in 1..<Swift.max(1, stretches) { startOf[s] = startOf[s - 1] + present[s - 1] }
        keys.withUnsafeMutableBufferPointer { k in
            counts.withUnsafeMutableBufferPointer { c in
                Parallel.each(stretches) { s in
                    let lo = range * s / stretches, hi = range * (s + 1) / stretches
                    var out = startOf[s], w = firstWrap(lo)
                    for i in lo..<hi {
                        let count = total(i, &w)
                        if count == 0 { continue }
                        k[out] = low &+ Int64(i)
                        c[out] = Int64(count)
                        out += 1
                    }
                }
            }
        }
        if nulls > 0 {
            counts[groups - 1] = Int64(nulls)
            keys[groups - 1] = 0
        }
        var keyColumn = key
        keyColumn.name = name
        keyColumn.storage = .int(keys)
        keyColumn.validity = nil
        if nulls > 0 {
            keyColumn.validity = Bitmap(count: groups, value: true)
            keyColumn.validity![groups - 1] = false
        }
        return [keyColumn] + names.map { Column(name: $0, storage: .int(counts)) }
    }
}
