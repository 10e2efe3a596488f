/// Binds `join TABLE on KEY`.
struct JoinBinder {
    let binder: Binder

    func bind(_ left: LogicalPlan, _ other: PipelineSource, _ kind: JoinKind, _ keys: [(Expr, Expr)]) throws -> LogicalPlan {
        let right = try binder.source(other)
        let ls = left.schema, rs = right.schema
        let lb = ExprBinder(schema: ls), rb = ExprBinder(schema: rs)
        var leftKeys: [BoundExpr] = [], rightKeys: [BoundExpr] = []
        var dropRight = Set<Int>()
        for (l, r) in keys {
            var a = try lb.bind(l), b = try rb.bind(r)
            // Ids read as numbers on one side and text on the other still match.
            if a.type != b.type {
                if a.type == .string && (b.type == .int || b.type == .double) { b = .call(Functions.text, [b], .string) }
                else if b.type == .string && (a.type == .int || a.type == .double) { a = .call(Functions.text, [a], .string) }
                else if a.type.isNumeric && b.type.isNumeric { a = .cast(a, .double); b = .cast(b, .double) }
                else {
                    throw Diagnostic("cannot match \(ExprNaming.name(l)) (\(a.type.displayName)) with \(ExprNaming.name(r)) (\(b.type.displayName))", at: l.span.union(r.span))
                }
            }
            leftKeys.append(a); rightKeys.append(b)
            if case .column(let i, let f) = b, case .column(_, let g) = a, f.name.lowercased() == g.name.lowercased() { dropRight.insert(i) }
        }
        let rightName: String
        switch other {
        case .table(let n, _): rightName = n.split(separator: ".").last.map(String.init) ?? n
        case .result(let n, _): rightName = "r\(n)"
        default: rightName = "right"
        }
        var fields = ls.fields
        var rightColumns: [Int] = []
        let taken = Set(ls.fields.map { $0.name.lowercased() })
        for (i, f) in rs.fields.enumerated() where !dropRight.contains(i) {
            var f = f
            if taken.contains(f.name.lowercased()) { f.name = "\(rightName).\(f.name)" }
            fields.append(f)
            rightColumns.append(i)
        }
        return .join(left, right, kind: kind, leftKeys: leftKeys, rightKeys: rightKeys, rightColumns: rightColumns,
                     schema: Schema(fields: fields, zone: ls.zone, timeColumn: ls.timeColumn, groupKeys: ls.groupKeys))
    }
}

