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
    /// Whether each core counts its rows by partitions of the ids (see `countPartitioned`):
    /// when a core's table is past the cache; tests set it to try the way on fewer ids.
    var partitioned: Bool

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
        partitioned = range > Self.partitionAbove && range <= Int(UInt32.max)
    }

    /// Ids spanning more than this (a table of 8 MB) are counted by partitions.
    static let partitionAbove = 1 << 21

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

    /// Rows `from..<to` counted into `t`, ids past the cache: each count into a table of tens
    /// of megabytes is a miss, and a core waits on memory at every row. Instead the ids (less
    /// `low`) are placed by their top bits into 16 to 256 partitions, each an area of `room`
    /// ids, and when one area is full every partition is counted, one after the other, each
    /// partition's slice of the table staying in the core's cache while its ids are counted
    /// (`CacheSize.partitionBits`: slices of half that cache, as few partitions as that
    /// allows). The rows are read once: counting each partition's ids first, to place them
    /// in runs without gaps, read every row twice, a tenth of the count at a hundred million
    /// rows. Ids piled into one partition only count more often. Returns the nulls.
    static func countPartitioned(_ v: UnsafeBufferPointer<Int64>, _ validity: Bitmap?, from: Int, to: Int, low: Int64, range: Int,
                                 into t: UnsafeMutablePointer<UInt32>, cancel: CancellationFlag?,
                                 partitionBits: Int, room givenRoom: Int? = nil) -> Int {
        let bits = Int64.bitWidth - Int64(range - 1).leadingZeroBitCount
        let shift = UInt32(Swift.max(0, bits - partitionBits))
        let partitions = 1 << partitionBits
        guard to > from else { return 0 }
        // Areas an eighth over an even share of 8M rows, so that ids spread evenly fill most
        // of every area before the first is full.
        let room = givenRoom ?? Swift.max(64, Swift.min(to - from, 1 << 23) / partitions * 9 / 8)
        let placed = UnsafeMutablePointer<UInt32>.allocate(capacity: room * partitions)
        defer { placed.deallocate() }
        // Where each partition's next id goes, and where its area ends.
        let fill = UnsafeMutablePointer<Int>.allocate(capacity: partitions)
        defer { fill.deallocate() }
        for q in 0..<partitions { fill[q] = q * room }
        func countAll() {
            for q in 0..<partitions {
                for j in q * room..<fill[q] { t[Int(placed[j])] &+= 1 }
                fill[q] = q * room
            }
        }
        var nulls = 0
        var at = from
        while at < to {
            if cancel?.isCancelled == true { return nulls }
            let stop = Swift.min(to, at + 1 << 20)
            for r in at..<stop {
                if let validity, !validity[r] { nulls += 1; continue }
                let offset = UInt32(truncatingIfNeeded: v[r] &- low)
                let q = Int(offset >> shift)
                let f = fill[q]
                placed[f] = offset
                fill[q] = f + 1
                if f + 1 == (q + 1) * room { countAll() }
            }
            at = stop
        }
        countAll()
        return nulls
    }

    /// The key column and one count column per name in `counts`.
    func run(counts names: [String], cancel: CancellationFlag?) throws -> [Column] {
        guard case .int(let values) = key.storage else { return [] }
        let n = values.count
        let validity = key.validity
        let parts = Workers.parts(rows: n)
        // One table a part; pages the kernel hands over zeroed, touched only where a value is.
        let range = self.range, low = self.low
        // On 2 MB pages when large: at ten million ids the counts are read at random, and on
        // 4 KB pages each read past the first 8 MB also missed the table of pages.
        let tables = (0..<parts).map { _ in
            let t = UnsafeMutablePointer<UInt32>(OpaquePointer(calloc(range, 4)!))
            HugePages.advise(UnsafeMutableRawPointer(t), bytes: range * 4)
            return t
        }
        defer { tables.forEach { free($0) } }
        var nullsOf = [Int](repeating: 0, count: parts)
        values.withUnsafeBufferPointer { v in
            nullsOf.withUnsafeMutableBufferPointer { nulls in
                Parallel.each(parts) { p in
                    let t = tables[p]
                    var at = n * p / parts
                    let end = n * (p + 1) / parts
                    if partitioned {
                        nulls[p] = Self.countPartitioned(v, validity, from: at, to: end, low: low, range: range, into: t, cancel: cancel,
                                                         partitionBits: CacheSize.partitionBits(tableBytes: range * 4))
                        return
                    }
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
        // Written whole below: filled with zeros first, millions of groups were a pass more.
        var keys = [Int64](unsafeUninitializedCapacity: groups) { _, made in made = groups }
        var counts = [Int64](unsafeUninitializedCapacity: groups) { _, made in made = groups }
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
