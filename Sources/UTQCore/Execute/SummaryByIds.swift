import CIntrinsics
import Foundation

/// `sum`, `avg` and `count` by one whole-number column of many ids — fares by rider, delays by
/// trip, speeds by vehicle — where the groups' state is past the cache. The general path
/// numbers each row's group by the rank of its id (a group number a row: 400 MB at 100M rows),
/// scatters every row's group and value by ranges of groups (1.2 GB more), then sums each
/// range: memory the kernel hands over fresh and clears. Here each column summed is read 16M
/// rows at a time: the cores place the rows' ids and values by ranges of ids into one
/// buffer used again for every block (marking the ids present as they go), then each core sums
/// its ranges straight into a table indexed by the id, a range's states within its cache. The
/// groups are the ids present, read off in order.
///
/// Rows keep their order within a range and blocks go in order, so every id's values are added
/// in row order with the same compensated sums as the general path: the answers are the same
/// to the last bit, groups in key order, nulls last.
struct SummaryByIds {
    private let ids: CountByIds
    private let aggregates: [BoundAggregate]
    private let table: Table

    /// A value's state: a mean's (`MeanState`, 32 bytes), whose all zero bits is the empty state.
    typealias State = MeanState

    /// Ids a range, as a power of two: at least 16,384 (states of 32 bytes, 512 KB, within a
    /// core's cache), and no more than about 256 ranges, which the cores place rows into faster
    /// than into more (at 10M ids, 153 ranges of 65,536 ids took 1.0 s for 100M rows where 611
    /// of 16,384 took 1.25-1.45; at 1M ids, 62 ranges of 16,384 took 93 ms for 10M rows where
    /// 16 of 65,536 took 120-160).
    static func shift(range: Int) -> Int { Swift.max(14, Int.bitWidth - (range - 1).leadingZeroBitCount - 8) }
    /// Rows a block: the buffer of placed ids and values is 192 MB, whatever the table's size.
    static let blockRows = 1 << 24

    /// Applies to `count`, `sum` and `avg` of number columns (at least one that is not a
    /// plain count) by one whole-number key of at least 65,536 ids over 262,144 rows or more.
    init?(keys: [NamedExpr], aggregates: [BoundAggregate], table: Table) {
        // A state counts its rows in 32 bits.
        guard table.rowCount >= 1 << 18, table.rowCount < Int(UInt32.max), let ids = CountByIds(keys: keys, table: table), ids.range >= 1 << 16 else { return nil }
        var summed = false
        for a in aggregates {
            guard !a.distinct else { return nil }
            guard let argument = a.argument else {
                guard a.function == .count else { return nil }
                continue
            }
            guard case .column(let j, _) = argument, j < table.columns.count, case .double = table.columns[j].storage else { return nil }
            switch a.function {
            case .count: break
            case .sum, .avg: guard a.type == .double else { return nil }
            default: return nil
            }
            summed = true
        }
        guard summed else { return nil }
        self.ids = ids
        self.aggregates = aggregates
        self.table = table
    }

    /// Each column's states in a table indexed by the id, and the ids present.
    private final class Tables {
        var states: [Int: UnsafeMutablePointer<State>] = [:]
        /// What was allocated for each table of states (the table starts on a cache line in it).
        var allocations: [UnsafeMutableRawPointer] = []
        /// The state of the rows without an id, by column.
        var nullStates: [Int: State] = [:]
        /// One bit an id, a table for each worker (no two workers write a word).
        var present: [[UInt64]] = []
        deinit { allocations.forEach { free($0) } }
    }

    /// The key column, then one column per aggregate.
    /// `blockRows` is for tests, to try several blocks on a small table.
    func run(cancel: CancellationFlag?, blockRows: Int = SummaryByIds.blockRows) throws -> [Column] {
        let tables = Tables()
        for a in aggregates {
            guard case .column(let j, _)? = a.argument, tables.states[j] == nil else { continue }
            try summarise(column: j, into: tables, blockRows: blockRows, cancel: cancel)
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        let keyColumn = groups(tables.present)
        guard case .int(let keys) = keyColumn.storage else { return [] }
        let nullGroup = keyColumn.validity != nil
        let rowCounts = aggregates.contains { $0.argument == nil } ? try ids.run(counts: ["count"], cancel: cancel)[1] : nil
        let low = ids.low
        var columns = [keyColumn]
        for a in aggregates {
            guard case .column(let j, _)? = a.argument, let table = tables.states[j] else {
                if var counts = rowCounts { counts.name = a.name; columns.append(counts) }
                continue
            }
            let nullState = tables.nullStates[j] ?? State()
            // Each group's state, read off in key order: the ids' from the table, then the nulls'.
            func each<T>(_ value: (State) -> T) -> [T] {
                [T](unsafeUninitializedCapacity: keys.count) { out, count in
                    let present = nullGroup ? keys.count - 1 : keys.count
                    for g in 0..<present { (out.baseAddress! + g).initialize(to: value(table[Int(keys[g] &- low)])) }
                    if nullGroup { (out.baseAddress! + present).initialize(to: value(nullState)) }
                    count = keys.count
                }
            }
            let has = Accumulate.Seen(flags: each { $0.count > 0 }).bitmap
            switch a.function {
            case .count:
                columns.append(Column(name: a.name, storage: .int(each { Int64($0.count) })))
            case .sum:
                columns.append(Column(name: a.name, storage: .double(each(\.sum.value)), validity: has))
            default:
                columns.append(try Accumulate.typed(each(\.mean), a.type, has, a))
            }
        }
        return columns
    }

    /// The ids present in order, then a null when a row has none: the groups, as the key column.
    private func groups(_ present: [[UInt64]]) -> Column {
        let words = present.first?.count ?? 0
        var keys: [Int64] = []
        keys.reserveCapacity(ids.range / 2)
        for k in 0..<words {
            var m: UInt64 = 0
            for p in present { m |= p[k] }
            while m != 0 {
                keys.append(ids.low &+ Int64(k << 6 | m.trailingZeroBitCount))
                m &= m &- 1
            }
        }
        var column = ids.key
        column.name = ids.name
        column.validity = nil
        if ids.key.nullCount > 0 {
            keys.append(0)
            column.validity = Bitmap(count: keys.count, value: true)
            column.validity![keys.count - 1] = false
        }
        column.storage = .int(keys)
        return column
    }

    /// Column `j`'s states into a table indexed by the id, by blocks of rows; the rows without
    /// an id added in order into a state of their own. The first column read also marks the
    /// ids present.
    private func summarise(column j: Int, into tables: Tables, blockRows: Int, cancel: CancellationFlag?) throws {
        guard case .int(let idValues) = ids.key.storage, case .double(let values) = table.columns[j].storage else { return }
        let range = ids.range, low = ids.low
        // Zeroed by the kernel as touched: the empty state of every id. From the first cache
        // line in what calloc gives (16 bytes past a page when large), so no state spans two.
        let raw = calloc(range + 2, MemoryLayout<State>.stride)!
        tables.allocations.append(raw)
        let table = UnsafeMutablePointer<State>(OpaquePointer(raw + (64 - Int(bitPattern: raw) & 63) & 63))
        tables.states[j] = table
        HugePages.advise(UnsafeMutableRawPointer(table), bytes: range * MemoryLayout<State>.stride)
        let idValid = ids.key.validity, valueValid = self.table.columns[j].validity
        let n = idValues.count
        let block = Swift.min(n, blockRows)
        let placedIds = UnsafeMutablePointer<UInt32>.allocate(capacity: block)
        let placedValues = UnsafeMutablePointer<Double>.allocate(capacity: block)
        defer { placedIds.deallocate(); placedValues.deallocate() }
        HugePages.advise(UnsafeMutableRawPointer(placedIds), bytes: block * MemoryLayout<UInt32>.stride)
        HugePages.advise(UnsafeMutableRawPointer(placedValues), bytes: block * MemoryLayout<Double>.stride)
        let shift = UInt64(Self.shift(range: range))
        let ranges = (range - 1) >> shift + 1
        let workers = Swift.max(1, Swift.min(Workers.available, block >> 17))
        let marking = tables.present.isEmpty
        if marking { tables.present = (0..<workers).map { _ in [UInt64](repeating: 0, count: (range + 63) >> 6) } }
        var present = tables.present
        tables.present = []
        defer { tables.present = present }
        var counts = [Int](repeating: 0, count: workers * ranges)
        var starts = [Int](repeating: 0, count: ranges + 1)
        try idValues.withUnsafeBufferPointer { id in
            try values.withUnsafeBufferPointer { v in
                var at = 0
                while at < n {
                    if cancel?.isCancelled == true { throw CancellationError() }
                    let end = Swift.min(n, at + block), first = at
                    // The ids of each worker's rows by range, then where each worker writes in
                    // each range: worker w's rows after those of the workers before it.
                    counts.withUnsafeMutableBufferPointer { c in
                        present.withUnsafeMutableBufferPointer { marks in
                            Parallel.each(workers) { w in
                                let base = w * ranges
                                for r in 0..<ranges { c[base + r] = 0 }
                                marks[w].withUnsafeMutableBufferPointer { mark in
                                    for i in (first + (end - first) * w / workers)..<(first + (end - first) * (w + 1) / workers)
                                    where idValid?[i] ?? true {
                                        let offset = UInt64(bitPattern: id[i] &- low)
                                        if marking { mark[Int(offset >> 6)] |= 1 << (offset & 63) }
                                        if valueValid?[i] ?? true { c[base + Int(offset >> shift)] &+= 1 }
                                    }
                                }
                            }
                        }
                        var total = 0
                        for r in 0..<ranges {
                            starts[r] = total
                            for w in 0..<workers { let k = c[w * ranges + r]; c[w * ranges + r] = total; total += k }
                        }
                        starts[ranges] = total
                        Parallel.each(workers) { w in
                            let base = w * ranges
                            for i in (first + (end - first) * w / workers)..<(first + (end - first) * (w + 1) / workers)
                            where (idValid?[i] ?? true) && (valueValid?[i] ?? true) {
                                let offset = UInt64(bitPattern: id[i] &- low)
                                let slot = base + Int(offset >> shift)
                                let to = c[slot]
                                placedIds[to] = UInt32(truncatingIfNeeded: offset)
                                placedValues[to] = v[i]
                                c[slot] = to &+ 1
                            }
                        }
                    }
                    // Each worker sums whole ranges, about an equal share of the placed rows.
                    let placed = starts[ranges]
                    var bounds = [0]
                    for w in 1..<workers {
                        var r = bounds[w - 1]
                        while r < ranges && starts[r] < placed * w / workers { r += 1 }
                        bounds.append(r)
                    }
                    bounds.append(ranges)
                    starts.withUnsafeBufferPointer { s in
                        Parallel.each(workers) { w in
                            // A block brings each id's state in from memory about once (ten rows an
                            // id over ten blocks): the state of the row 16 ahead is asked for first.
                            let from = s[bounds[w]], to = s[bounds[w + 1]], ahead = 16
                            for j in from..<to {
                                if j + ahead < to { utq_prefetch_write(table + Int(placedIds[j + ahead])) }
                                table[Int(placedIds[j])].add(placedValues[j])
                            }
                        }
                    }
                    at = end
                }
            }
        }
        if let idValid, ids.key.nullCount > 0 {
            var state = State()
            for i in 0..<n where !idValid[i] && (valueValid?[i] ?? true) { state.add(values[i]) }
            tables.nullStates[j] = state
        }
    }
}
