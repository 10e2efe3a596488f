import CIntrinsics
import Foundation

/// `sum`, `avg` and `count` by one whole-number column of many ids — fares by rider, delays by
/// trip, speeds by vehicle, seconds by driver — where the groups' state is past the cache. The
/// general path numbers each row's group by the rank of its id (a group number a row: 400 MB
/// at 100M rows), scatters every row's group and value by ranges of groups (1.2 GB more), then
/// sums each range: memory the kernel hands over fresh and clears. Here each column summed is read 16M
/// rows at a time: the cores place the rows' ids and values by ranges of ids into one
/// buffer used again for every block (marking the ids present as they go), then each core sums
/// its ranges straight into a table indexed by the id, a range's states within its cache. The
/// groups are the ids present, read off in order.
///
/// Rows keep their order within a range and blocks go in order, so every id's numbers are
/// added in row order with the same compensated sums as the general path; whole numbers,
/// times and durations add exactly in 128 bits, as there. The answers are the same to the last
/// bit, groups in key order, nulls last.
struct SummaryByIds {
    private let ids: CountByIds
    private let aggregates: [BoundAggregate]
    private let table: Table

    /// A number's state: a mean's (`MeanState`, 32 bytes), whose all zero bits is the empty state.
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
            guard case .column(let j, _) = argument, j < table.columns.count else { return nil }
            switch (table.columns[j].storage, a.function) {
            case (.double, .count), (.int, .count), (.duration, .count), (.timestamp, .count): break
            case (.double, .sum), (.double, .avg): guard a.type == .double else { return nil }
            // Whole sums keep their kind; a time has a mean but no sum.
            case (.int, .sum): guard a.type == .int else { return nil }
            case (.duration, .sum): guard a.type == .duration else { return nil }
            case (.int, .avg): guard a.type == .double else { return nil }
            case (.duration, .avg): guard a.type == .duration else { return nil }
            case (.timestamp, .avg): guard a.type == .timestamp else { return nil }
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
        /// `MeanState`s for a number column, `WholeSumState`s for whole numbers.
        var states: [Int: UnsafeMutableRawPointer] = [:]
        /// What was allocated for each table of states (the table starts on a cache line in it).
        var allocations: [UnsafeMutableRawPointer] = []
        /// The state of the rows without an id, by column.
        var nullStates: [Int: any IdState] = [:]
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
            switch table.columns[j].storage.wholeNumbers {
            case .double(let values):
                try summarise(column: j, values, as: MeanState.self, into: tables, blockRows: blockRows, cancel: cancel)
            case .int(let values):
                try summarise(column: j, values, as: WholeSumState.self, into: tables, blockRows: blockRows, cancel: cancel)
            default: continue
            }
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        let keyColumn = groups(tables.present)
        guard case .int(let keys) = keyColumn.storage else { return [] }
        let nullGroup = keyColumn.validity != nil
        let rowCounts = aggregates.contains { $0.argument == nil } ? try ids.run(counts: ["count"], cancel: cancel)[1] : nil
        let low = ids.low
        var columns = [keyColumn]
        for a in aggregates {
            guard case .column(let j, _)? = a.argument, let states = tables.states[j] else {
                if var counts = rowCounts { counts.name = a.name; columns.append(counts) }
                continue
            }
            // Each group's state, read off in key order: the ids' from the table, then the nulls'.
            func each<S: IdState, T>(_: S.Type, _ value: (S) -> T) -> [T] {
                let table = states.assumingMemoryBound(to: S.self)
                let nullState = tables.nullStates[j] as? S ?? S()
                return [T](unsafeUninitializedCapacity: keys.count) { out, count in
                    let present = nullGroup ? keys.count - 1 : keys.count
                    for g in 0..<present { (out.baseAddress! + g).initialize(to: value(table[Int(keys[g] &- low)])) }
                    if nullGroup { (out.baseAddress! + present).initialize(to: value(nullState)) }
                    count = keys.count
                }
            }
            if case .double = table.columns[j].storage {
                let has = Accumulate.Seen(flags: each(MeanState.self) { $0.count > 0 }).bitmap
                switch a.function {
                case .count: columns.append(Column(name: a.name, storage: .int(each(MeanState.self) { Int64($0.count) })))
                case .sum: columns.append(Column(name: a.name, storage: .double(each(MeanState.self, \.sum.value)), validity: has))
                default: columns.append(try Accumulate.typed(each(MeanState.self, \.mean), a.type, has, a))
                }
                continue
            }
            let has = Accumulate.Seen(flags: each(WholeSumState.self) { $0.count > 0 }).bitmap
            switch a.function {
            case .count:
                columns.append(Column(name: a.name, storage: .int(each(WholeSumState.self) { Int64($0.count) })))
            case .sum:
                // Sums past 64 bits are found, not wrapped, as on the general path.
                var fits = true
                let sums = each(WholeSumState.self) { s -> Int64 in
                    guard let x = Int64(exactly: s.sum) else { fits = false; return 0 }
                    return x
                }
                guard fits else { throw Accumulate.outOfRange(a, a.type == .duration ? .duration : .wholeNumber) }
                columns.append(Column(name: a.name, storage: a.type == .duration ? .duration(sums) : .int(sums), validity: has))
            default:
                let means = each(WholeSumState.self) { $0.count > 0 ? Accumulate.divide($0.sum, $0.count) : 0 }
                columns.append(try Accumulate.typed(means, a.type, has, a))
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
    @_specialize(where S == MeanState)
    @_specialize(where S == WholeSumState)
    private func summarise<S: IdState>(column j: Int, _ values: [S.Value], as: S.Type, into tables: Tables, blockRows: Int,
                                        cancel: CancellationFlag?) throws {
        guard case .int(let idValues) = ids.key.storage else { return }
        let range = ids.range, low = ids.low
        // Zeroed by the kernel as touched: the empty state of every id. From the first cache
        // line in what calloc gives (16 bytes past a page when large), so no state spans two.
        let raw = calloc(range + 2, MemoryLayout<S>.stride)!
        tables.allocations.append(raw)
        let table = UnsafeMutablePointer<S>(OpaquePointer(raw + (64 - Int(bitPattern: raw) & 63) & 63))
        tables.states[j] = UnsafeMutableRawPointer(table)
        HugePages.advise(UnsafeMutableRawPointer(table), bytes: range * MemoryLayout<S>.stride)
        let idValid = ids.key.validity, valueValid = self.table.columns[j].validity
        let n = idValues.count
        let block = Swift.min(n, blockRows)
        let placedIds = UnsafeMutablePointer<UInt32>.allocate(capacity: block)
        let placedValues = UnsafeMutablePointer<S.Value>.allocate(capacity: block)
        defer { placedIds.deallocate(); placedValues.deallocate() }
        HugePages.advise(UnsafeMutableRawPointer(placedIds), bytes: block * MemoryLayout<UInt32>.stride)
        HugePages.advise(UnsafeMutableRawPointer(placedValues), bytes: block * MemoryLayout<S.Value>.stride)
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
            var state = S()
            for i in 0..<n where !idValid[i] && (valueValid?[i] ?? true) { state.add(values[i]) }
            tables.nullStates[j] = state
        }
    }
}

/// What SummaryByIds keeps for an id as its rows go by; all zero bits is the empty state, so a
/// table of them can be calloc'd.
protocol IdState {
    associatedtype Value
    init()
    mutating func add(_ value: Value)
    var count: Int { get }
}

extension MeanState: IdState {}

/// Whole numbers, times or durations added exactly: their sum in 128 bits and how many, 32
/// bytes as a mean's state is. A group counts at most 2^32 rows.
struct WholeSumState: IdState {
    var sum: Int128 = 0
    private var rows: UInt32 = 0

    var count: Int { Int(rows) }

    @inline(__always)
    mutating func add(_ value: Int64) {
        // 2^32 values of 64 bits cannot leave 128.
        sum &+= Int128(value)
        rows &+= 1
    }
}
