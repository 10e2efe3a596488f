/// `let … by`: columns that look at other rows of each row's group, in the order the rows
/// are in. Most functions need one pass over the rows with a running value per group (the
/// last row seen, a count, a sum); only rank, and prev or next further than one row, put
/// the rows of each group together first.
struct Window {
    let table: Table
    let notes: RunNotes?
    let cancel: CancellationFlag?

    func run(partition: [NamedExpr], calls: [WindowCall]) throws -> Table {
        let n = table.rowCount
        let ev = Evaluator(table: table, notes: notes, cancel: cancel)
        let keys = try partition.map { try ev.column($0.expr, name: $0.name) }
        let (groupOf, firstRow) = try GroupIds.of(keys, rows: n, cancel: cancel)
        let groups = max(1, firstRow.count)
        if cancel?.isCancelled == true { throw CancellationError() }
        var layout: Layout? = nil
        var out = table
        let pairs = CoMoments.Cache()
        for call in calls {
            var c = try column(call, ev: ev, groupOf: groupOf, groups: groups, pairs: pairs) {
                if layout == nil { layout = Layout(groupOf: groupOf, groups: groups) }
                return layout!
            }
            c.name = call.name
            c.unit = call.unit == .automatic ? c.unit : call.unit
            out.columns.append(c)
        }
        return out
    }

    /// The rows of each group together, in row order (a stable counting sort), and each
    /// row's place in its group.
    struct Layout {
        var starts: [Int]
        var order: [Int32]
        var place: [Int32]

        init(groupOf: [Int32], groups: Int) {
            let n = groupOf.count
            var starts = [Int](repeating: 0, count: groups + 1)
            var order = [Int32](repeating: 0, count: n)
            var place = [Int32](repeating: 0, count: n)
            starts.withUnsafeMutableBufferPointer { st in
                groupOf.withUnsafeBufferPointer { g in
                    for i in 0..<n { st[Int(g[i]) + 1] += 1 }
                    for k in 0..<groups { st[k + 1] += st[k] }
                    var fill = [Int](st[0..<groups])
                    fill.withUnsafeMutableBufferPointer { f in
                        order.withUnsafeMutableBufferPointer { o in place.withUnsafeMutableBufferPointer { p in
                            for i in 0..<n {
                                let k = Int(g[i])
                                p[i] = Int32(f[k] - st[k])
                                o[f[k]] = Int32(i)
                                f[k] += 1
                            }
                        } }
                    }
                }
            }
            self.starts = starts; self.order = order; self.place = place
        }
    }

    func column(_ call: WindowCall, ev: Evaluator, groupOf: [Int32], groups: Int, pairs: CoMoments.Cache,
                layout: () -> Layout) throws -> Column {
        let n = table.rowCount
        switch call.kind {
        case .prev(let k), .next(let k):
            let arg = try ev.column(call.argument!)
            let back = { if case .prev = call.kind { return true } else { return false } }()
            var rows = [Int32](repeating: -1, count: n)
            if k == 1 {
                // The last row seen of each group, walking forward (prev) or backward (next).
                var last = [Int32](repeating: -1, count: groups)
                rows.withUnsafeMutableBufferPointer { r in last.withUnsafeMutableBufferPointer { l in groupOf.withUnsafeBufferPointer { g in
                    if back { for i in 0..<n { let k = Int(g[i]); r[i] = l[k]; l[k] = Int32(i) } }
                    else { for i in stride(from: n - 1, through: 0, by: -1) { let k = Int(g[i]); r[i] = l[k]; l[k] = Int32(i) } }
                } } }
            } else {
                let lay = layout()
                rows.withUnsafeMutableBufferPointer { r in
                    groupOf.withUnsafeBufferPointer { gr in lay.place.withUnsafeBufferPointer { pl in
                        lay.order.withUnsafeBufferPointer { o in lay.starts.withUnsafeBufferPointer { st in
                            for i in 0..<n {
                                let g = Int(gr[i]), p = Int(pl[i])
                                let q = back ? p - k : p + k
                                if q >= 0 && q < st[g + 1] - st[g] { r[i] = o[st[g] + q] }
                            }
                        } }
                    } }
                }
            }
            return arg.gather(rows)
        case .rowNumber:
            var seen = [Int64](repeating: 0, count: groups)
            var out = [Int64](repeating: 0, count: n)
            out.withUnsafeMutableBufferPointer { o in seen.withUnsafeMutableBufferPointer { s in groupOf.withUnsafeBufferPointer { g in
                for i in 0..<n { let k = Int(g[i]); s[k] += 1; o[i] = s[k] }
            } } }
            return Column(name: "", storage: .int(out))
        case .rank:
            let lay = layout()
            let arg = try ev.column(call.argument!)
            let cmp = try Sorting.comparator(arg, cancel: cancel)
            var ranks = [Int64](repeating: 0, count: n)
            var valid = Bitmap(count: n, value: true)
            for g in 0..<groups {
                // Largest first; a null has no rank.
                var rows = lay.order[lay.starts[g]..<lay.starts[g + 1]].filter { arg.isValid(Int($0)) }
                rows.sort { cmp(Int($0), Int($1)) > 0 }
                var rank = 0
                for (k, r) in rows.enumerated() {
                    if k == 0 || cmp(Int(rows[k - 1]), Int(r)) != 0 { rank = k + 1 }
                    ranks[Int(r)] = Int64(rank)
                }
                if g & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            }
            for i in 0..<n where !arg.isValid(i) { valid[i] = false }
            return Column(name: "", storage: .int(ranks), validity: valid)
        case .runningSum:
            let arg = try ev.column(call.argument!)
            var valid = Bitmap(count: n, value: false)
            var seen = [Bool](repeating: false, count: groups)
            switch arg.storage {
            case .int(let a), .duration(let a):
                var sums = [Int64](repeating: 0, count: groups)
                var out = [Int64](repeating: 0, count: n)
                for i in 0..<n {
                    let g = Int(groupOf[i])
                    if arg.isValid(i) {
                        guard let s = Checked.add(sums[g], a[i]) else {
                            throw Diagnostic("\(call.name) is past the range of whole numbers (row \(i + 1))",
                                             hint: "to add with decimals: running_sum(number(x))")
                        }
                        sums[g] = s; seen[g] = true
                    }
                    out[i] = sums[g]
                    valid[i] = seen[g]
                }
                if case .duration = arg.storage { return Column(name: "", storage: .duration(out), validity: valid) }
                return Column(name: "", storage: .int(out), validity: valid)
            case .null:
                return Column.constant(.null, type: call.type, count: n)
            default:
                let values = Accumulate.rawDoubles(arg)
                var sums = [CompensatedSum](repeating: CompensatedSum(), count: groups)
                var out = [Double](repeating: 0, count: n)
                for i in 0..<n {
                    let g = Int(groupOf[i])
                    if arg.isValid(i) { sums[g].add(values[i]); seen[g] = true }
                    out[i] = sums[g].value
                    valid[i] = seen[g]
                }
                return Column(name: "", storage: call.type == .int ? .int(out.map { Int64($0) }) : .double(out), validity: valid)
            }
        case .rolling(let f, let frame):
            let arg = try call.argument.map { try ev.column($0) }
            return try Rolling(function: f, frame: frame, type: call.type, cancel: cancel)
                .column(arg, table: table, groupOf: groupOf, layout: layout())
        case .summary(let f):
            let aggregate = BoundAggregate(function: f, argument: call.argument, distinct: false, name: call.name, type: call.type,
                                           second: call.second)
            let perGroup = try Accumulate.run(aggregate, table: table, evaluator: ev, groupOf: groupOf, groups: groups, rows: n, pairs: pairs)
            return perGroup.gather(groupOf)
        }
    }
}
