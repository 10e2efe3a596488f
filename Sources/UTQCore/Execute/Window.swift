/// `let … by`: columns that look at other rows of each row's group, in the order the rows
/// are in. Rows are put in groups once; each call then walks the groups.
struct Window {
    let table: Table
    let notes: RunNotes?
    let cancel: CancellationFlag?

    func run(partition: [NamedExpr], calls: [WindowCall]) throws -> Table {
        let n = table.rowCount
        let ev = Evaluator(table: table, notes: notes)
        let keys = try partition.map { try ev.column($0.expr, name: $0.name) }
        let (groupOf, firstRow) = try GroupIds.of(keys, rows: n, cancel: cancel)
        let groups = max(1, firstRow.count)
        // The rows of each group together, in row order (a stable counting sort), and each
        // row's place in its group.
        var starts = [Int](repeating: 0, count: groups + 1)
        for i in 0..<n { starts[Int(groupOf[i]) + 1] += 1 }
        for g in 0..<groups { starts[g + 1] += starts[g] }
        var order = [Int32](repeating: 0, count: n)
        var place = [Int32](repeating: 0, count: n)
        var fill = starts
        for i in 0..<n {
            let g = Int(groupOf[i])
            place[i] = Int32(fill[g] - starts[g])
            order[fill[g]] = Int32(i)
            fill[g] += 1
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        var out = table
        for call in calls {
            var c = try column(call, ev: ev, groupOf: groupOf, groups: groups, starts: starts, order: order, place: place)
            c.name = call.name
            c.unit = call.unit == .automatic ? c.unit : call.unit
            out.columns.append(c)
        }
        return out
    }

    func column(_ call: WindowCall, ev: Evaluator, groupOf: [Int32], groups: Int, starts: [Int], order: [Int32], place: [Int32]) throws -> Column {
        let n = table.rowCount
        switch call.kind {
        case .prev(let k), .next(let k):
            let arg = try ev.column(call.argument!)
            let back = { if case .prev = call.kind { return true } else { return false } }()
            var rows = [Int32](repeating: -1, count: n)
            for i in 0..<n {
                let g = Int(groupOf[i]), p = Int(place[i])
                let q = back ? p - k : p + k
                if q >= 0 && q < starts[g + 1] - starts[g] { rows[i] = order[starts[g] + q] }
            }
            return arg.gather(rows)
        case .rowNumber:
            return Column(name: "", storage: .int(place.map { Int64($0) + 1 }))
        case .rank:
            let arg = try ev.column(call.argument!)
            let cmp = try Sorting.comparator(arg, cancel: cancel)
            var ranks = [Int64](repeating: 0, count: n)
            var valid = Bitmap(count: n, value: true)
            for g in 0..<groups {
                // Largest first; a null has no rank.
                var rows = order[starts[g]..<starts[g + 1]].filter { arg.isValid(Int($0)) }
                rows.sort { cmp(Int($0), Int($1)) > 0 }
                var rank = 0
                for (k, r) in rows.enumerated() {
                    if k == 0 || cmp(Int(rows[k - 1]), Int(r)) != 0 { rank = k + 1 }
                    ranks[Int(r)] = Int64(rank)
                }
            }
            for i in 0..<n where !arg.isValid(i) { valid[i] = false }
            return Column(name: "", storage: .int(ranks), validity: valid)
        case .runningSum:
            let arg = try ev.column(call.argument!)
            var valid = Bitmap(count: n, value: false)
            switch arg.storage {
            case .int(let a), .duration(let a):
                var out = [Int64](repeating: 0, count: n)
                for g in 0..<groups {
                    var sum: Int64 = 0, seen = false
                    for r in order[starts[g]..<starts[g + 1]] {
                        let i = Int(r)
                        if arg.isValid(i) {
                            guard let s = Checked.add(sum, a[i]) else {
                                throw Diagnostic("\(call.name) is past the range of whole numbers (row \(i + 1))",
                                                 hint: "to add with decimals: running_sum(number(x))")
                            }
                            sum = s; seen = true
                        }
                        out[i] = sum
                        valid[i] = seen
                    }
                }
                if case .duration = arg.storage { return Column(name: "", storage: .duration(out), validity: valid) }
                return Column(name: "", storage: .int(out), validity: valid)
            case .null:
                return Column.constant(.null, type: call.type, count: n)
            default:
                let values = Accumulate.rawDoubles(arg)
                var out = [Double](repeating: 0, count: n)
                for g in 0..<groups {
                    var sum = CompensatedSum(), seen = false
                    for r in order[starts[g]..<starts[g + 1]] {
                        let i = Int(r)
                        if arg.isValid(i) { sum.add(values[i]); seen = true }
                        out[i] = sum.value
                        valid[i] = seen
                    }
                }
                return Column(name: "", storage: call.type == .int ? .int(out.map { Int64($0) }) : .double(out), validity: valid)
            }
        case .summary(let f):
            let aggregate = BoundAggregate(function: f, argument: call.argument, distinct: false, name: call.name, type: call.type)
            let perGroup = try Accumulate.run(aggregate, table: table, evaluator: ev, groupOf: groupOf, groups: groups, rows: n)
            return perGroup.gather(groupOf)
        }
    }
}
