/// Binds `join TABLE on …`: each condition is a key both tables name alike (`stop_id`), an
/// equality (`driver = username`) or a range (`time between start and end`, `km < to`),
/// and each side of it is found in one table or the other. Any other condition (`distance(…)
/// < 400`) is tested on each pair of rows.
struct JoinBinder {
    let binder: Binder

    func bind(_ left: LogicalPlan, _ other: PipelineSource, _ kind: JoinKind, _ conditions: [Expr]) throws -> LogicalPlan {
        let rightName = Self.prefix(for: other)
        let right = try binder.source(other)
        // A pipeline in parentheses that waits for a probe makes the join wait too.
        if right.is(PendingNode.self) { return right }
        if kind == .cross {
            return try predicateJoin(left, right, named: rightName, .cross, [.literal(.bool(true), .none)])
        }
        return try bind(left, right, named: rightName, kind, conditions)
    }

    /// The same with the rows joined given as a plan; `name` prefixes its columns whose names are taken.
    func bind(_ left: LogicalPlan, _ right: LogicalPlan, named rightName: String, _ kind: JoinKind, _ conditions: [Expr]) throws -> LogicalPlan {
        let ls = left.schema, rs = right.schema
        let lb = ExprBinder(schema: ls), rb = ExprBinder(schema: rs)
        /// Whether a condition is keys, equalities and ranges whose sides each belong to one table.
        func splits(_ c: Expr) -> Bool {
            func placed(_ l: Expr, _ r: Expr) -> Bool {
                ((try? lb.bind(l)) != nil && (try? rb.bind(r)) != nil) || ((try? lb.bind(r)) != nil && (try? rb.bind(l)) != nil)
            }
            switch c {
            case .binary(.and, let l, let r, _): return splits(l) && splits(r)
            // A name alone is a key, whichever table has it (the key's own error says which not).
            case .column: return true
            case .binary(let op, let l, let r, _) where [.equal, .less, .lessEqual, .greater, .greaterEqual].contains(op): return placed(l, r)
            case .between(let x, let lo, let hi, false, _): return placed(x, lo) && placed(x, hi)
            default: return false
            }
        }
        if !conditions.allSatisfy(splits) {
            return try predicateJoin(left, right, named: rightName, kind, conditions)
        }
        var leftKeys: [BoundExpr] = [], rightKeys: [BoundExpr] = []
        var ranges: [RangeCondition] = []
        var dropRight = Set<Int>()

        /// A side of a condition bound in the table it belongs to: first the one asked for.
        func sides(_ l: Expr, _ r: Expr) -> (BoundExpr, BoundExpr, flipped: Bool)? {
            if let a = try? lb.bind(l), let b = try? rb.bind(r) { return (a, b, false) }
            if let a = try? lb.bind(r), let b = try? rb.bind(l) { return (a, b, true) }
            return nil
        }
        func unplaced(_ l: Expr, _ r: Expr, _ span: SourceSpan) throws -> Never {
            // Say which name is in neither table, when one is.
            for e in [l, r] {
                if (try? lb.bind(e)) == nil && (try? rb.bind(e)) == nil { _ = try lb.bind(e) }
            }
            throw Diagnostic("one side of this condition must be of the rows before join and the other of the table joined", at: span)
        }
        func comparable(_ a: BoundExpr, _ b: BoundExpr, _ l: Expr, _ r: Expr) throws -> (BoundExpr, BoundExpr) {
            if a.type == b.type || a.type == .null || b.type == .null { return (a, b) }
            if a.type.isNumeric && b.type.isNumeric { return (.cast(a, .double), .cast(b, .double)) }
            throw Diagnostic("cannot compare \(ExprNaming.name(l)) (\(a.type.displayName)) with \(ExprNaming.name(r)) (\(b.type.displayName))",
                             at: l.span.union(r.span))
        }
        func equality(_ l: Expr, _ r: Expr, _ span: SourceSpan) throws {
            guard var (a, b, _) = sides(l, r) else { try unplaced(l, r, span) }
            // Ids read as numbers on one side and text on the other still match.
            if a.type != b.type {
                // A column of nothing but nulls (an empty file's) matches no row, of any type.
                if a.type == .null { a = .cast(a, b.type) }
                else if b.type == .null { b = .cast(b, a.type) }
                else if a.type == .string && (b.type == .int || b.type == .double) { b = .call(Functions.text, [b], .string) }
                else if b.type == .string && (a.type == .int || a.type == .double) { a = .call(Functions.text, [a], .string) }
                else if a.type.isNumeric && b.type.isNumeric { a = .cast(a, .double); b = .cast(b, .double) }
                else {
                    throw Diagnostic("cannot match \(ExprNaming.name(l)) (\(a.type.displayName)) with \(ExprNaming.name(r)) (\(b.type.displayName))", at: l.span.union(r.span))
                }
            }
            leftKeys.append(a); rightKeys.append(b)
            if case .column(let i, let f) = b, case .column(_, let g) = a, f.name.lowercased() == g.name.lowercased() { dropRight.insert(i) }
        }
        func range(_ op: BinaryOp, _ l: Expr, _ r: Expr, _ span: SourceSpan) throws {
            guard let (a, b, flipped) = sides(l, r) else { try unplaced(l, r, span) }
            let (x, y) = try comparable(a, b, flipped ? r : l, flipped ? l : r)
            ranges.append(RangeCondition(left: x, op: flipped ? op.flipped : op, right: y))
        }
        func add(_ c: Expr) throws {
            switch c {
            case .binary(.and, let l, let r, _):
                try add(l); try add(r)
            case .column:
                try equality(c, c, c.span)
            case .binary(.equal, let l, let r, let span):
                try equality(l, r, span)
            case .binary(let op, let l, let r, let span) where [.less, .lessEqual, .greater, .greaterEqual].contains(op):
                try range(op, l, r, span)
            case .between(let x, let lo, let hi, false, let span):
                try range(.greaterEqual, x, lo, span)
                try range(.lessEqual, x, hi, span)
            default:
                // Conditions that do not split are joined pair by pair (see predicateJoin).
                throw Diagnostic("a join matches on keys (stop_id), equalities (a = b) and ranges (<, <=, >, >=, between), joined by and",
                                 at: c.span, hint: "for example: join weather on time between start and end")
            }
        }
        for c in conditions { try add(c) }

        var fields = ls.fields
        var rightColumns: [Int] = []
        let taken = Set(ls.fields.map { $0.name.lowercased() })
        for (i, f) in rs.fields.enumerated() where !dropRight.contains(i) {
            var f = f
            if taken.contains(f.name.lowercased()) { f.name = "\(rightName).\(f.name)" }
            fields.append(f)
            rightColumns.append(i)
        }
        return LogicalPlan(JoinNode(left, right, kind: kind, leftKeys: leftKeys, rightKeys: rightKeys, ranges: ranges, rightColumns: rightColumns,
                     schema: Schema(fields: fields, zone: ls.zone, timeColumn: ls.timeColumn, groupKeys: ls.groupKeys)))
    }

    /// A join on any condition, tested on each pair of rows: the joined rows have every
    /// column of both sides (a clashing name takes the right table's as a prefix), and the
    /// condition is bound over them.
    func predicateJoin(_ left: LogicalPlan, _ right: LogicalPlan, named rightName: String, _ kind: JoinKind, _ conditions: [Expr]) throws -> LogicalPlan {
        let ls = left.schema
        var fields = ls.fields
        let taken = Set(ls.fields.map { $0.name.lowercased() })
        for var f in right.schema.fields {
            if taken.contains(f.name.lowercased()) { f.name = "\(rightName).\(f.name)" }
            fields.append(f)
        }
        let schema = Schema(fields: fields, zone: ls.zone, timeColumn: ls.timeColumn, groupKeys: ls.groupKeys)
        let condition = conditions.dropFirst().reduce(conditions[0]) { $0.and($1) }
        let bound: BoundExpr
        do {
            bound = try ExprBinder(schema: schema).bind(condition)
        } catch var d as Diagnostic {
            // A name in neither table: the columns each side has, since a key of the rows
            // before join is not one of the table joined.
            if case .unknownColumn(let name, nil, _) = d.kind, !AggregateFunction.madeBySummary(name) {
                func names(_ f: ArraySlice<Field>) -> String {
                    f.isEmpty ? "no columns" : f.prefix(8).map(\.name).joined(separator: ", ") + (f.count > 8 ? ", …" : "")
                }
                d.hint = "the rows before join have \(names(fields[..<ls.fields.count])); \(rightName) has \(names(fields[ls.fields.count...]))"
            }
            throw d
        }
        guard bound.type == .bool || bound.type == .null else {
            throw Diagnostic("join needs a condition, but this is \(bound.type.displayName)", at: condition.span,
                             hint: "join on a key, or on a comparison: join stops on distance(lat, lng, stop_lat, stop_lon) < 400")
        }
        return LogicalPlan(PredicateJoinNode(left, right, kind: kind, predicate: bound, schema: schema))
    }
}
