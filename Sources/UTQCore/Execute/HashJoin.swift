/// Matches rows of two tables on equal keys: builds a hash table on the right side and
/// probes it with each left row. Rows with a null key never match. The matches come out as
/// two lists of row numbers, and each column is gathered once from them.
enum HashJoin {
    /// Loops over rows look at the cancellation flag every 65,536 rows.
    static func run(_ left: Table, _ right: Table, kind: JoinKind, leftKeys: [BoundExpr], rightKeys: [BoundExpr],
                    ranges: [RangeCondition] = [], rightColumns: [Int], schema: Schema, needed: [Bool]? = nil,
                    cancel: CancellationFlag? = nil, memoryLimit: Int? = nil, notes: RunNotes? = nil) throws -> Table {
        let lk = try leftKeys.map { try Evaluator(table: left, notes: notes, cancel: cancel).column($0) }
        let rk = try rightKeys.map { try Evaluator(table: right, notes: notes, cancel: cancel).column($0) }
        // `left` nil: every left row once, in order (a lookup where each finds its row).
        let pairs: (left: [Int32]?, right: [Int32])
        // Set: the right rows matched are of the right table put in this order.
        var rightOrder: [Int32]? = nil
        // Set: every left row's right row is its key less `low` (rows of the right so ordered).
        var byKeys: (values: [Int64], low: Int64)? = nil
        if ranges.isEmpty, var keys = try JoinKeys(left: lk, right: rk, leftCount: left.rowCount, rightCount: right.rowCount, cancel: cancel) {
            rightOrder = keys.rightOrder
            if let found = keys.leftKeys {
                byKeys = found
                try checkSize(left.rowCount, width: left.columns.count + rightColumns.count, memoryLimit: memoryLimit)
                pairs = (nil, [])
            } else if let lookup = try lookupRows(&keys, leftCount: left.rowCount, kind: kind, width: left.columns.count + rightColumns.count,
                                           memoryLimit: memoryLimit) {
                pairs = lookup
            } else {
                pairs = try matchedRows(keys, leftCount: left.rowCount, kind: kind, width: left.columns.count + rightColumns.count,
                                        cancel: cancel, memoryLimit: memoryLimit)
            }
        } else {
            pairs = try matchedRows(left, right, lk, rk, ranges: ranges, kind: kind, width: left.columns.count + rightColumns.count,
                                    cancel: cancel, memoryLimit: memoryLimit, notes: notes)
        }
        let rightRows = pairs.right
        let rows = byKeys == nil ? rightRows.count : left.rowCount
        // Each left row once, in order (a lookup of one row per key): the left columns as they are.
        let sameLeft = pairs.left.map { $0.count == left.rowCount && $0.elementsEqual(0..<Int32(left.rowCount)) } ?? true
        let leftRows = sameLeft ? [] : pairs.left!
        // Each column gathered on a core of its own: at millions of rows a gather is reads at
        // random, one miss a row, and the columns do not wait for each other.
        // A column nothing above reads (`needed`, by output position) stays empty in its place.
        let first = sameLeft ? left.columns.count : 0
        func isNeeded(_ k: Int) -> Bool { needed.map { $0.indices.contains(first + k) ? $0[first + k] : true } ?? true }
        let leftSources = sameLeft ? 0 : left.columns.count
        // Right columns read at random many times over, copied in half the bytes where their
        // values allow (NarrowCopy), in the order the rows name.
        var narrow = [NarrowCopy?](repeating: nil, count: leftSources + rightColumns.count)
        let sources: [(Column, Bool)] = (sameLeft ? [] : left.columns.map { ($0, true) }) + rightColumns.enumerated().map { k, j in
            let column = right.columns[j]
            if isNeeded(leftSources + k), let copy = NarrowCopy.make(column, order: rightOrder, reads: rows, parts: Workers.available) {
                narrow[leftSources + k] = copy
                return (column, false)
            }
            // Put in the order the rows name, when they name rows of the right table so ordered.
            guard let rightOrder, isNeeded(leftSources + k) else { return (column, false) }
            return (column.gather(rightOrder, parts: Workers.available), false)
        }
        let narrowSources = narrow
        let wanted = sources.indices.filter(isNeeded)
        var gathered = [Column?](repeating: nil, count: sources.count)
        for k in sources.indices where !isNeeded(k) { gathered[k] = .nulls(sources[k].0.name, count: rows) }
        // Cores left over when there are fewer columns than cores share a column's rows.
        let shares = max(1, Workers.available / max(1, wanted.count))
        func gather(_ k: Int, parts: Int) -> Column {
            let (column, isLeft) = sources[k]
            if isLeft { return column.gather(leftRows, parts: parts) }
            if let copy = narrowSources[k] {
                guard let byKeys else { return copy.gather(column, rows: rightRows, parts: parts) }
                return copy.gather(column, keys: byKeys.values, low: byKeys.low, parts: parts)
            }
            guard let byKeys else { return column.gather(rightRows, parts: parts) }
            return column.gather(keys: byKeys.values, low: byKeys.low, parts: parts)
        }
        gathered.withUnsafeMutableBufferPointer { out in
            Parallel.each(rows >= 1 << 18 ? wanted.count : 1) { w in
                if rows >= 1 << 18 {
                    out[wanted[w]] = gather(wanted[w], parts: shares)
                } else {
                    for j in wanted { out[j] = gather(j, parts: 1) }
                }
            }
        }
        var columns = sameLeft ? left.columns : []
        for (k, c) in gathered.enumerated() {
            var col = c!
            if !sources[k].1 { col.name = schema.fields[columns.count].name }
            columns.append(col)
        }
        var out = Table(name: left.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: left.rowNoun)
        out.rowCount = rows
        return out
    }

    /// A lookup (each key at most once on the right, as a table of stops, riders or trips by
    /// their id): each left row's right row in one pass, no lists grown row by row. The left
    /// rows are nil when they are all of them, in order (each has its match, or the join keeps
    /// them all). The keys' left ids become the right rows in place (a lookup on whole numbers
    /// gives the rows themselves): at millions of rows a second array of them was fresh memory
    /// for the kernel to clear. nil when a key repeats on the right.
    static func lookupRows(_ keys: inout JoinKeys, leftCount n: Int, kind: JoinKind, width: Int, memoryLimit: Int?) throws -> (left: [Int32]?, right: [Int32])? {
        var misses = 0
        if keys.leftIsRightRows {
            misses = keys.misses
        } else {
            let ids = keys.offsets.count - 1
            guard keys.rows.count == ids else { return nil }
            keys.left.withUnsafeMutableBufferPointer { l in keys.rows.withUnsafeBufferPointer { rows in
                // With each id once, id k's row is rows[k].
                for i in 0..<n {
                    let id = l[i]
                    if id >= 0 { l[i] = rows[Int(id)] } else { misses += 1 }
                }
            } }
        }
        let right = keys.left
        keys.left = []
        if misses == 0 || kind == .left {
            try checkSize(n, width: width, memoryLimit: memoryLimit)
            return (nil, right)
        }
        try checkSize(n - misses, width: width, memoryLimit: memoryLimit)
        var leftRows = [Int32](), rightRows = [Int32]()
        leftRows.reserveCapacity(n - misses)
        rightRows.reserveCapacity(n - misses)
        for i in 0..<n where right[i] >= 0 { leftRows.append(Int32(i)); rightRows.append(right[i]) }
        return (leftRows, rightRows)
    }

    /// The pairs of rows that match, through key ids: each left row's matches are one slice.
    static func matchedRows(_ keys: JoinKeys, leftCount: Int, kind: JoinKind, width: Int, cancel: CancellationFlag?,
                            memoryLimit: Int?) throws -> (left: [Int32], right: [Int32]) {
        var total = 0
        keys.left.withUnsafeBufferPointer { ids in keys.offsets.withUnsafeBufferPointer { off in
            for id in ids {
                let n = id >= 0 ? Int(off[Int(id) + 1] - off[Int(id)]) : 0
                total += n == 0 && kind == .left ? 1 : n
            }
        } }
        try checkSize(total, width: width, memoryLimit: memoryLimit)
        var leftRows = [Int32](), rightRows = [Int32]()
        leftRows.reserveCapacity(total)
        rightRows.reserveCapacity(total)
        for i in 0..<leftCount {
            if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            let id = keys.left[i]
            let from = id >= 0 ? Int(keys.offsets[Int(id)]) : 0, to = id >= 0 ? Int(keys.offsets[Int(id) + 1]) : 0
            if from == to {
                if kind == .left { leftRows.append(Int32(i)); rightRows.append(-1) }
                continue
            }
            for k in from..<to { leftRows.append(Int32(i)); rightRows.append(keys.rows[k]) }
            if to - from > 0xFFFF, cancel?.isCancelled == true { throw CancellationError() }
        }
        return (leftRows, rightRows)
    }

    /// The pairs of rows that match, with keys as values: for range joins and keys whose
    /// types differ (a whole number matches the same decimal).
    static func matchedRows(_ left: Table, _ right: Table, _ lk: [Column], _ rk: [Column], ranges: [RangeCondition],
                            kind: JoinKind, width: Int, cancel: CancellationFlag?, memoryLimit: Int?,
                            notes: RunNotes?) throws -> (left: [Int32], right: [Int32]) {
        func check(_ i: Int) throws { if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() } }
        func key(_ cols: [Column], _ i: Int) -> [Value]? {
            var out: [Value] = []
            out.reserveCapacity(cols.count)
            for c in cols {
                let v = c.value(at: i)
                if v.isNull { return nil }
                out.append(normalize(v))
            }
            return out
        }
        var index: [[Value]: [Int32]] = [:]
        for j in 0..<right.rowCount {
            try check(j)
            if let k = key(rk, j) { index[k, default: []].append(Int32(j)) }
        }
        // A range join: each key's rows of the right sorted by the first range's value, so a
        // left row finds the rows its value reaches by binary search, not by trying them all.
        let ranged = try RangeMatcher(ranges, left: left, right: right, index: index, notes: notes)
        func matches(_ i: Int) -> [Int32] {
            guard let k = key(lk, i), let rows = index[k] else { return [] }
            return ranged.map { $0.matches(i, key: k) } ?? rows
        }
        // How many rows the join makes, counted before any is made: keys that repeat on both
        // sides multiply, and a join of a hundred thousand rows by a hundred thousand on one
        // key would make ten billion.
        var matchesOf = [Int32](repeating: 0, count: left.rowCount)
        var total = 0
        for i in 0..<left.rowCount {
            try check(i)
            var n = matches(i).count
            if n == 0 && kind == .left { n = 1 }
            matchesOf[i] = Int32(clamping: n)
            total += n
        }
        try checkSize(total, width: width, memoryLimit: memoryLimit)
        var leftRows = [Int32](), rightRows = [Int32]()
        leftRows.reserveCapacity(total)
        rightRows.reserveCapacity(total)
        for i in 0..<left.rowCount where matchesOf[i] > 0 {
            let found = matches(i)
            if !found.isEmpty {
                for j in found {
                    // Checked by rows made, so a key with many matches is stopped in time too.
                    try check(leftRows.count)
                    leftRows.append(Int32(i)); rightRows.append(j)
                }
            } else if kind == .left {
                leftRows.append(Int32(i)); rightRows.append(-1)
            }
        }
        return (leftRows, rightRows)
    }

    /// A join that would make more rows than memory holds (keys repeating on both sides
    /// multiply) is refused before any row is made.
    static func checkSize(_ total: Int, width: Int, memoryLimit: Int?) throws {
        let bytes = total.multipliedReportingOverflow(by: 8 * (2 + width))
        if let limit = MemoryBudget.limit(setting: memoryLimit), bytes.overflow || bytes.partialValue > limit {
            throw Diagnostic("this join would make \(NumberText.grouped(total)) rows, about \(MemoryBudget.describe(bytes.overflow ? .max : bytes.partialValue)) "
                             + "of memory, and \(MemoryBudget.describe(limit)) is free",
                             hint: "the keys repeat on both sides; join on more keys, or summarise one side first (count by KEY)")
        }
        guard total < Int(Int32.max) else {
            throw Diagnostic("this join would make \(NumberText.grouped(total)) rows; utq holds at most \(NumberText.grouped(Int(Int32.max))) in a table",
                             hint: "join on more keys, or summarise one side first (count by KEY)")
        }
    }

    /// Finds, for a left row, the right rows of its key whose ranges hold.
    struct RangeMatcher {
        let ranges: [RangeCondition]
        let leftValues: [Column]
        let rightValues: [Column]
        /// Per key: the right rows with the first range's value, sorted by it (nulls left out).
        let sorted: [[Value]: [(value: Value, row: Int32)]]

        init?(_ ranges: [RangeCondition], left: Table, right: Table, index: [[Value]: [Int32]], notes: RunNotes?) throws {
            guard !ranges.isEmpty else { return nil }
            self.ranges = ranges
            leftValues = try ranges.map { try Evaluator(table: left, notes: notes).column($0.left) }
            rightValues = try ranges.map { try Evaluator(table: right, notes: notes).column($0.right) }
            var sorted: [[Value]: [(Value, Int32)]] = [:]
            let first = rightValues[0]
            for (k, rows) in index {
                var pairs = rows.filter { first.isValid(Int($0)) }.map { (first.value(at: Int($0)), $0) }
                pairs.sort { Comparison.compareValues($0.0, $1.0) < 0 }
                sorted[k] = pairs
            }
            self.sorted = sorted
        }

        func matches(_ i: Int, key: [Value]) -> [Int32] {
            guard let pairs = sorted[key], leftValues[0].isValid(i) else { return [] }
            let x = leftValues[0].value(at: i)
            // The first position whose value is not below x (or, strictly, above it).
            func bound(_ strict: Bool) -> Int {
                var lo = 0, hi = pairs.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    let c = Comparison.compareValues(pairs[mid].value, x)
                    if c < 0 || (strict && c == 0) { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            let candidates: ArraySlice<(value: Value, row: Int32)>
            switch ranges[0].op {
            case .greaterEqual: candidates = pairs[..<bound(true)]   // x >= r: the right values up to x
            case .greater: candidates = pairs[..<bound(false)]       // x > r
            case .lessEqual: candidates = pairs[bound(false)...]     // x <= r: from x on
            default: candidates = pairs[bound(true)...]              // x < r
            }
            var out: [Int32] = []
            for (_, j) in candidates {
                var ok = true
                for c in 1..<max(1, ranges.count) where c < ranges.count {
                    let a = leftValues[c], b = rightValues[c]
                    guard a.isValid(i), b.isValid(Int(j)),
                          Comparison.holds(ranges[c].op, Comparison.compareValues(a.value(at: i), b.value(at: Int(j)))) else { ok = false; break }
                }
                if ok { out.append(j) }
            }
            return out.sorted()
        }
    }

    /// 3 and 3.0 are the same key, and NaN is one key, as utq's = and its groups have it (a
    /// Value holding NaN is not equal to itself, so NaN becomes a key no number has; keys of
    /// a join or a pivot are never text against numbers).
    static func normalize(_ v: Value) -> Value {
        if case .double(let d) = v {
            if d.isNaN { return .string("\u{0}NaN") }
            if d == d.rounded(), abs(d) < 9e15 { return .int(Int64(d)) }
        }
        return v
    }
}

/// Adds the missing buckets of a time key, so a chart of counts shows its gaps as zeros.
enum Fill {
    static let maximumRows = 2_000_000

    static func run(_ t: Table, key: Int, step: FillStep, otherKeys: [Int], zeroColumns: Set<Int>,
                    cancel: CancellationFlag? = nil) throws -> Table {
        func check(_ i: Int) throws { if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() } }
        guard t.rowCount > 0 else { return t }
        let keyColumn = t.columns[key]
        let raw: [Int64]
        switch keyColumn.storage {
        case .int(let a), .timestamp(let a), .duration(let a): raw = a
        default: throw Diagnostic("fill needs a time or whole-number key, but \(keyColumn.name) is \(keyColumn.type.displayName)")
        }
        var lo = Int64.max, hi = Int64.min
        for i in 0..<t.rowCount where keyColumn.isValid(i) { lo = min(lo, raw[i]); hi = max(hi, raw[i]) }
        guard lo <= hi else { return t }
        // The key values from first to last.
        var values: [Int64] = []
        let zone = t.zone
        var v = lo
        while v <= hi {
            try check(values.count)
            values.append(v)
            if values.count > maximumRows { throw Diagnostic("fill would make more than \(maximumRows) rows; give a larger span") }
            switch step {
            case .integer: v += 1
            case .micros(let s):
                if keyColumn.type == .timestamp && s % CivilTime.microsPerDay == 0 {
                    v = zone.instant(wallMicros: zone.wallMicros(v) + s)  // whole days in wall time, across DST
                } else {
                    v += s
                }
            case .months(let m):
                let wall = LocalDateTime(wallMicros: zone.wallMicros(v))
                var y = wall.year, mo = wall.month + m
                while mo > 12 { mo -= 12; y += 1 }
                v = zone.instant(wallMicros: CivilTime.daysFromCivil(year: y, month: mo, day: 1) * CivilTime.microsPerDay)
            }
        }
        // Combinations of the other keys, each with its first row.
        var combos: [[Value]: Int32] = [:]
        var comboOrder: [Int32] = []
        var existing: [[Value]: Int32] = [:]
        for i in 0..<t.rowCount {
            try check(i)
            let combo = otherKeys.map { t.columns[$0].value(at: i) }
            if combos[combo] == nil { combos[combo] = Int32(i); comboOrder.append(Int32(i)) }
            if keyColumn.isValid(i) { existing[combo + [.int(raw[i])]] = Int32(i) }
        }
        var sourceRows: [Int32] = [], comboRows: [Int32] = [], keyValues: [Int64] = []
        for c in comboOrder {
            try check(sourceRows.count)
            let combo = otherKeys.map { t.columns[$0].value(at: Int(c)) }
            for v in values {
                sourceRows.append(existing[combo + [.int(v)]] ?? -1)
                comboRows.append(c)
                keyValues.append(v)
            }
        }
        // Rows whose key is null stay as they were.
        for i in 0..<t.rowCount where !keyColumn.isValid(i) {
            sourceRows.append(Int32(i)); comboRows.append(Int32(i)); keyValues.append(0)
        }
        var columns: [Column] = []
        for (c, col) in t.columns.enumerated() {
            if c == key {
                var validity = Bitmap(count: keyValues.count, value: true)
                for (i, s) in sourceRows.enumerated() where s >= 0 && !keyColumn.isValid(Int(s)) { validity[i] = false }
                let storage: Column.Storage
                switch keyColumn.storage {
                case .timestamp: storage = .timestamp(keyValues)
                case .duration: storage = .duration(keyValues)
                default: storage = .int(keyValues)
                }
                columns.append(Column(name: col.name, storage: storage, validity: validity, unit: col.unit))
            } else if otherKeys.contains(c) {
                columns.append(col.gather(comboRows))
            } else {
                var g = col.gather(sourceRows)
                if zeroColumns.contains(c) { g = zeroNulls(g) }
                columns.append(g)
            }
        }
        var out = t
        out.columns = columns
        out.rowCount = keyValues.count
        let sortKeys = (otherKeys + [key]).sorted()
        let order = try Sorting.order(sortKeys.map { columns[$0] }, descending: Array(repeating: false, count: sortKeys.count), count: out.rowCount, cancel: cancel)
        return out.gather(order)
    }

    static func zeroNulls(_ c: Column) -> Column {
        guard c.validity != nil else { return c }
        var out = c
        out.validity = nil
        switch c.storage {
        case .int(var a): for i in 0..<a.count where !c.isValid(i) { a[i] = 0 }; out.storage = .int(a)
        case .double(var a): for i in 0..<a.count where !c.isValid(i) { a[i] = 0 }; out.storage = .double(a)
        case .duration(var a): for i in 0..<a.count where !c.isValid(i) { a[i] = 0 }; out.storage = .duration(a)
        default: return c
        }
        return out
    }
}
