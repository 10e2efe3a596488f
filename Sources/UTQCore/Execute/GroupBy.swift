/// Dense codes for the values of one key column, so groups can be found by arithmetic
/// instead of hashing whole values: text already has codes, small integer ranges map
/// directly, other values go through one hash table.
struct KeyCodes {
    /// A text key without nulls keeps its column's codes at their width; true/false/null and an
    /// all-null key are a byte a row; the others 32 bits.
    var codes: DictionaryCodes
    var cardinality: Int

    /// The hashed paths take about a second per million rows in a debug build: they look at
    /// the cancellation flag every 65,536 rows.
    init(_ c: Column, cancel: CancellationFlag? = nil) throws {
        let n = c.count
        let validity = c.validity
        switch c.storage {
        case .string(let s):
            if let validity {
                let nullCode = UInt32(s.dictionary.count)
                var codes = s.codes.wide
                for i in 0..<n where !validity[i] { codes[i] = nullCode }
                self.codes = DictionaryCodes(lanes: .u32(codes))
                cardinality = s.dictionary.count + 1
            } else {
                codes = s.codes
                cardinality = max(1, s.dictionary.count)
            }
        case .bool(let a):
            codes = DictionaryCodes(lanes: .u8((0..<n).map { i in validity.map { !$0[i] } ?? false ? 2 : (a[i] ? 1 : 0) }))
            cardinality = 3
        case .null:
            codes = DictionaryCodes(lanes: .u8(Array(repeating: 0, count: n)))
            cardinality = 1
        case .int(let a), .timestamp(let a), .duration(let a):
            var lo = Int64.max, hi = Int64.min
            for v in a { if v < lo { lo = v }; if v > hi { hi = v } }
            if n > 0, hi &- lo >= 0, hi &- lo < Int64(max(1 << 16, 4 * n)) {
                let range = Int(hi - lo) + 1
                var codes = [UInt32](repeating: 0, count: n)
                a.withUnsafeBufferPointer { p in
                    for i in 0..<n { codes[i] = UInt32(truncatingIfNeeded: p[i] &- lo) }
                }
                if let validity { for i in 0..<n where !validity[i] { codes[i] = UInt32(range) } }
                self.codes = DictionaryCodes(lanes: .u32(codes))
                cardinality = range + (validity == nil ? 0 : 1)
            } else {
                var map = IntIds(sampling: n) { a[$0] }
                var codes = [UInt32](repeating: 0, count: n)
                var last = Int64.min, lastCode: UInt32 = 0
                for i in 0..<n {
                    if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                    let v = a[i]
                    if v == last && i > 0 { codes[i] = lastCode; continue }
                    let code = UInt32(map.id(v))
                    codes[i] = code; last = v; lastCode = code
                }
                let nullCode = UInt32(map.count)
                if let validity { for i in 0..<n where !validity[i] { codes[i] = nullCode } }
                self.codes = DictionaryCodes(lanes: .u32(codes))
                cardinality = map.count + 1
            }
        case .geometry(let g):
            let (keys, distinct) = g.keyCodes()
            var codes = keys
            if let validity { for i in 0..<n where !validity[i] { codes[i] = UInt32(distinct.count) } }
            self.codes = DictionaryCodes(lanes: .u32(codes))
            cardinality = distinct.count + 1
        case .double(let a):
            var map = IntIds(sampling: n) { Int64(bitPattern: a[$0].bitPattern) }
            var codes = [UInt32](repeating: 0, count: n)
            for i in 0..<n {
                if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                var v = a[i]
                if v == 0 { v = 0 }  // -0 groups with 0
                let bits = v.isNaN ? Double.nan.bitPattern : v.bitPattern
                codes[i] = UInt32(map.id(Int64(bitPattern: bits)))
            }
            let nullCode = UInt32(map.count)
            if let validity { for i in 0..<n where !validity[i] { codes[i] = nullCode } }
            self.codes = DictionaryCodes(lanes: .u32(codes))
            cardinality = map.count + 1
        }
    }
}

/// Group rows by keys and compute aggregates per group. Groups come out in key order.
struct GroupBy {
    let table: Table
    let cancel: CancellationFlag?
    var notes: RunNotes? = nil

    func run(keys: [NamedExpr], aggregates: [BoundAggregate], schema: Schema) throws -> Table {
        // A summary of the whole table: no group to number for each row.
        if keys.isEmpty, let inPlace = SummaryInPlace(aggregates: aggregates, schema: schema, arithmetic: true) {
            return try inPlace.run(table, predicate: nil, notes: notes, cancel: cancel)
        }
        if !keys.isEmpty, aggregates.allSatisfy({ $0.function == .count && $0.argument == nil && !$0.distinct }),
           let fast = CountByCodes(keys: keys, table: table) {
            return try countByCodes(fast, keys: keys, aggregates: aggregates, schema: schema)
        }
        if aggregates.allSatisfy({ $0.function == .count && $0.argument == nil && !$0.distinct }),
           let ids = CountByIds(keys: keys, table: table) {
            return grouped(try ids.run(counts: aggregates.map(\.name), cancel: cancel), schema: schema)
        }
        if let byIds = SummaryByIds(keys: keys, aggregates: aggregates, table: table) {
            return grouped(try byIds.run(cancel: cancel), schema: schema)
        }
        let n = table.rowCount
        let ev = Evaluator(table: table, notes: notes, cancel: cancel)
        let keyColumns = try keys.map { try ev.column($0.expr, name: $0.name) }
        if cancel?.isCancelled == true { throw CancellationError() }

        // Group id per row and the groups' key values: one key of many ids numbered by rank,
        // in key order already; else groups numbered as they first appear, sorted after.
        let groupOf: [Int32], groupKeys: [Column], inKeyOrder: Bool
        if keyColumns.count == 1, let dense = try DenseIntGroups(keyColumns[0], rows: n, cancel: cancel) {
            (groupOf, groupKeys, inKeyOrder) = (dense.groupOf, [dense.keys], true)
        } else {
            let (ids, firstRow) = try GroupIds.of(keyColumns, rows: n, cancel: cancel)
            (groupOf, groupKeys, inKeyOrder) = (ids, keyColumns.map { $0.gather(firstRow) }, keys.isEmpty)
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        // No rows and no keys: one row of empty aggregates (count 0), as SQL does.
        let groups = keys.isEmpty ? 1 : groupKeys[0].count
        var columns = groupKeys
        let pairs = CoMoments.Cache()
        for a in aggregates {
            var c = try Accumulate.run(a, table: table, evaluator: ev, groupOf: groupOf, groups: groups, rows: n, pairs: pairs)
            c.name = a.name
            columns.append(c)
        }
        var out = Table(name: table.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: "rows")
        out.rowCount = groups
        if keys.isEmpty { return out }
        for (i, f) in schema.fields.enumerated() where i < out.columns.count { out.columns[i].unit = f.unit }
        if inKeyOrder { return out }
        // Groups in key order.
        let order = try Sorting.order(Array(columns.prefix(keys.count)), descending: Array(repeating: false, count: keys.count), count: groups, cancel: cancel)
        return out.gather(order)
    }

    /// The groups a way of its own found (keys, then aggregates), as a table of the schema.
    private func grouped(_ columns: [Column], schema: Schema) -> Table {
        var out = Table(name: table.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: "rows")
        out.rowCount = out.columns[0].count
        for (i, f) in schema.fields.enumerated() where i < out.columns.count { out.columns[i].unit = f.unit }
        return out
    }

    /// `count by` small keys: counts per slot in one pass, then the groups in key order, with
    /// the key values read from each group's first row as the general path does.
    func countByCodes(_ fast: CountByCodes, keys: [NamedExpr], aggregates: [BoundAggregate], schema: Schema) throws -> Table {
        let (counts, first) = try fast.run(rowCount: table.rowCount, cancel: cancel)
        var firstRows: [Int32] = [], groupCounts: [Int64] = []
        for s in 0..<counts.count where counts[s] > 0 {
            firstRows.append(first[s])
            groupCounts.append(counts[s])
        }
        // Slots are in key-code order, not key order: put the first rows in row order, as the
        // general path meets them, then sort by key.
        let order = firstRows.indices.sorted { firstRows[$0] < firstRows[$1] }
        firstRows = order.map { firstRows[$0] }
        groupCounts = order.map { groupCounts[$0] }
        let sample = table.gather(firstRows)
        let ev = Evaluator(table: sample, notes: notes, cancel: cancel)
        var columns = try keys.map { try ev.column($0.expr, name: $0.name) }
        for a in aggregates { columns.append(Column(name: a.name, storage: .int(groupCounts))) }
        var out = Table(name: table.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: "rows")
        out.rowCount = firstRows.count
        for (i, f) in schema.fields.enumerated() where i < out.columns.count { out.columns[i].unit = f.unit }
        let sorted = try Sorting.order(Array(columns.prefix(keys.count)), descending: Array(repeating: false, count: keys.count), count: out.rowCount, cancel: cancel)
        return out.gather(sorted)
    }
}

/// The group of each row by the values of key columns, numbered in the order groups first
/// appear, and the first row of each group. Used by summaries and by windows (`let … by`).
enum GroupIds {
    static func of(_ keyColumns: [Column], rows n: Int, cancel: CancellationFlag?) throws -> (groupOf: [Int32], firstRow: [Int32]) {
        var groupOf = [Int32](repeating: 0, count: n)
        var firstRow: [Int32] = []
        if keyColumns.isEmpty {
            firstRow = [0]
        } else {
            let codes = try keyColumns.map { try KeyCodes($0, cancel: cancel) }
            var product = 1
            var overflow = false
            for c in codes {
                let (p, o) = product.multipliedReportingOverflow(by: c.cardinality)
                if o || p > 1 << 40 { overflow = true; break }
                product = p
            }
            if !overflow && product <= max(1 << 22, 2 * n) {
                var slots = [Int32](repeating: -1, count: product)
                slots.withUnsafeMutableBufferPointer { slot in
                    groupOf.withUnsafeMutableBufferPointer { g in
                        if codes.count == 1 {
                            func one<C: FixedWidthInteger>(_ c: UnsafeBufferPointer<C>) {
                                for i in 0..<n {
                                    let k = Int(c[i])
                                    var id = slot[k]
                                    if id < 0 { id = Int32(firstRow.count); slot[k] = id; firstRow.append(Int32(i)) }
                                    g[i] = id
                                }
                            }
                            codes[0].codes.withLanes(one, one, one)
                        } else if codes.count == 2 {
                            let card1 = codes[1].cardinality
                            // A loop for each pair of widths (a legend's byte and an hour's 32 bits).
                            func two<A: FixedWidthInteger, B: FixedWidthInteger>(_ c0: UnsafeBufferPointer<A>, _ c1: UnsafeBufferPointer<B>) {
                                for i in 0..<n {
                                    let k = Int(c0[i]) * card1 + Int(c1[i])
                                    var id = slot[k]
                                    if id < 0 { id = Int32(firstRow.count); slot[k] = id; firstRow.append(Int32(i)) }
                                    g[i] = id
                                }
                            }
                            func first<A: FixedWidthInteger>(_ c0: UnsafeBufferPointer<A>) {
                                codes[1].codes.withLanes({ two(c0, $0) }, { two(c0, $0) }, { two(c0, $0) })
                            }
                            codes[0].codes.withLanes(first, first, first)
                        } else {
                            for i in 0..<n {
                                var k = 0
                                for c in codes { k = k * c.cardinality + Int(c.codes[i]) }
                                var id = slot[k]
                                if id < 0 { id = Int32(firstRow.count); slot[k] = id; firstRow.append(Int32(i)) }
                                g[i] = id
                            }
                        }
                    }
                }
            } else if !overflow {
                // Keys whose codes make a number under 2^40 (a million trips by a day, say):
                // that number through a hash table of them.
                func key(_ i: Int) -> Int64 {
                    var k = 0
                    for c in codes { k = k &* c.cardinality &+ Int(c.codes[i]) }
                    return Int64(k)
                }
                var ids = IntIds(sampling: n, key)
                for i in 0..<n {
                    if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                    let before = ids.count
                    let id = ids.id(key(i))
                    if ids.count > before { firstRow.append(Int32(i)) }
                    groupOf[i] = id
                }
            } else {
                var map: [[UInt32]: Int32] = [:]
                var key = [UInt32](repeating: 0, count: codes.count)
                for i in 0..<n {
                    if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                    for (k, c) in codes.enumerated() { key[k] = c.codes[i] }
                    if let id = map[key] { groupOf[i] = id } else {
                        let id = Int32(firstRow.count)
                        map[key] = id
                        firstRow.append(Int32(i))
                        groupOf[i] = id
                    }
                }
            }
        }
        return (groupOf, firstRow)
    }
}
