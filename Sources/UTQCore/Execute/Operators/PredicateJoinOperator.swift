/// Tests the condition on every pair of rows, a block of pairs at a time: each block is a
/// table of the pairs' columns (only those the condition reads; the others hold nulls), and
/// the condition selects the pairs that match.
extension PredicateJoinNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let l = inputs[0], r = inputs[1]
        let (pairs, overflow) = l.rowCount.multipliedReportingOverflow(by: r.rowCount)
        guard !overflow, pairs <= Self.maxPairs else {
            throw Diagnostic("this join tests each row against each other: \(NumberText.grouped(l.rowCount)) × \(NumberText.grouped(r.rowCount)) pairs, more than \(NumberText.grouped(Self.maxPairs))",
                             hint: kind == .cross ? "keep fewer rows on either side first (where …), or summarise one side (count by …) before the cross join"
                                : "keep fewer rows on either side first (where …), or join on a key: join TABLE on KEY and CONDITION")
        }
        let width = l.columns.count
        let read = predicate.columnsRead
        var matchedLeft: [Int32] = [], matchedRight: [Int32] = []
        let block = 1 << 16
        var leftRows = [Int32](), rightRows = [Int32]()
        leftRows.reserveCapacity(block); rightRows.reserveCapacity(block)
        func test() throws {
            guard !leftRows.isEmpty else { return }
            let n = leftRows.count
            var columns: [Column] = []
            for (k, field) in schema.fields.enumerated() {
                guard read.contains(k) else { columns.append(Column(name: field.name, storage: .null(n))); continue }
                var c = k < width ? l.columns[k].gather(leftRows) : r.columns[k - width].gather(rightRows)
                c.name = field.name
                columns.append(c)
            }
            var pairsTable = Table(name: l.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn)
            pairsTable.rowCount = n
            for s in try Evaluator(table: pairsTable, notes: executor.context.notes, cancel: executor.context.cancel).selection(predicate) {
                matchedLeft.append(leftRows[Int(s)]); matchedRight.append(rightRows[Int(s)])
            }
            leftRows.removeAll(keepingCapacity: true); rightRows.removeAll(keepingCapacity: true)
        }
        if kind == .cross {
            // Every pair is kept: nothing to test.
            matchedLeft.reserveCapacity(pairs); matchedRight.reserveCapacity(pairs)
            for i in 0..<Int32(l.rowCount) {
                try executor.checkCancelled()
                for j in 0..<Int32(r.rowCount) { matchedLeft.append(i); matchedRight.append(j) }
            }
        } else {
            for i in 0..<l.rowCount {
                try executor.checkCancelled()
                for j in 0..<r.rowCount {
                    leftRows.append(Int32(i)); rightRows.append(Int32(j))
                    if leftRows.count == block { try test() }
                }
            }
            try test()
        }
        // A left join keeps each left row without a match once, in its place.
        if kind == .left {
            var keptLeft: [Int32] = [], keptRight: [Int32] = []
            var k = 0
            for i in 0..<Int32(l.rowCount) {
                let start = k
                while k < matchedLeft.count && matchedLeft[k] == i { keptLeft.append(i); keptRight.append(matchedRight[k]); k += 1 }
                if k == start { keptLeft.append(i); keptRight.append(-1) }
            }
            (matchedLeft, matchedRight) = (keptLeft, keptRight)
        }
        var columns = l.columns.map { $0.gather(matchedLeft) }
        for (k, c) in r.columns.enumerated() {
            var col = c.gather(matchedRight)
            col.name = schema.fields[width + k].name
            columns.append(col)
        }
        var out = Table(name: l.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: l.rowNoun)
        out.rowCount = matchedLeft.count
        return out
    }
}

extension BoundExpr {
    /// The columns the expression reads, by their place in its schema.
    var columnsRead: Set<Int> {
        switch self {
        case .column(let i, _): return [i]
        case .literal: return []
        case .unary(_, let x, _), .bucket(_, let x, _), .isNull(let x, _), .inList(let x, _, _), .cast(let x, _): return x.columnsRead
        case .binary(_, let a, let b, _): return a.columnsRead.union(b.columnsRead)
        case .call(_, let args, _): return args.reduce(into: Set<Int>()) { $0.formUnion($1.columnsRead) }
        }
    }
}
