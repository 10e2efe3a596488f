/// Plans made in code from the verbs' own parts. A verb whose work is other verbs (`service
/// on`, `headways on`) builds its plan with this: each step is the verb that does it, bound as
/// a user's would be, so `explain` shows ordinary steps and every step runs wherever it can.
/// Tables are named as the catalog names them (any name works), and an error points at what
/// the user wrote (a key, a date) or, for the parts the verb adds, at the verb.
struct PlanBuilder {
    let binder: Binder
    /// Where the parts the verb adds point: the verb as written.
    let span: SourceSpan

    // MARK: expressions

    func column(_ name: String) -> Expr { .column(name, span) }
    func text(_ s: String) -> Expr { .literal(.string(s), span) }
    func int(_ i: Int64) -> Expr { .literal(.int(i), span) }
    func bool(_ b: Bool) -> Expr { .literal(.bool(b), span) }
    func call(_ name: String, _ args: Expr...) -> Expr { .call(name, args, span) }

    // MARK: steps

    /// A table of the catalog, as binding sees it.
    func scan(_ table: TableSchema) -> LogicalPlan {
        LogicalPlan(ScanNode(.table(table.name), schema: table.schema))
    }

    func filter(_ input: LogicalPlan, _ condition: Expr) throws -> LogicalPlan {
        try WhereVerb.Syntax(condition: condition).bind(input, binder)
    }

    /// `select`: each item a column kept as it is (name nil) or a named expression.
    func select(_ input: LogicalPlan, _ items: [(name: String?, expr: Expr)]) throws -> LogicalPlan {
        try SelectVerb.Syntax(items: items.map { SelectItem(kind: .expr($0.expr, alias: $0.name), span: span) }).bind(input, binder)
    }

    /// `select a, b, c`: columns kept as they are.
    func select(_ input: LogicalPlan, columns: [String]) throws -> LogicalPlan {
        try select(input, columns.map { (nil, column($0)) })
    }

    /// `let NAME = EXPR, … [by KEY, …]`.
    func derive(_ input: LogicalPlan, _ items: [(String, Expr)], by keys: [GroupKey] = []) throws -> LogicalPlan {
        try LetVerb.Syntax(assignments: items.map { LetVerb.Assignment(name: $0.0, expr: $0.1) }, keys: keys).bind(input, binder)
    }

    /// A summary: `count as trips, min leaves as first_departure by trip_id`.
    func summarize(_ input: LogicalPlan, _ items: [(AggregateFunction, Expr?, as: String?)], by keys: [GroupKey]) throws -> LogicalPlan {
        let aggregates = items.map { AggregateItem(function: $0.0, argument: $0.1, distinct: false, alias: $0.as, span: span) }
        return try AggregateVerb.Syntax(items: aggregates, keys: keys).bind(input, binder)
    }

    func sort(_ input: LogicalPlan, _ keys: [Expr]) throws -> LogicalPlan {
        try SortVerb.Syntax(keys: keys.map { SortKey(expr: $0, descending: false, span: $0.span) }).bind(input, binder)
    }

    /// `[left] join … on CONDITION, …` with the rows joined given as a plan; `named` prefixes
    /// its columns whose names are taken.
    func join(_ left: LogicalPlan, _ right: LogicalPlan, named: String, _ kind: JoinKind = .inner, on conditions: [Expr]) throws -> LogicalPlan {
        try JoinBinder(binder: binder).bind(left, right, named: named, kind, conditions)
    }

    /// The rows of plans one after another; `label` names part k in a message.
    func union(_ plans: [LogicalPlan], label: (Int) -> String) throws -> LogicalPlan {
        try UnionVerb.union(plans, label: label)
    }

    /// A key of a `by` list: a column as the verb names it.
    func key(_ name: String) -> GroupKey { GroupKey(kind: .expr(column(name)), alias: nil, span: span) }
}

extension GroupKey {
    /// A key a user wrote after `by`, with where they wrote it.
    static func column(_ name: String, at span: SourceSpan) -> GroupKey {
        GroupKey(kind: .expr(.column(name, span)), alias: nil, span: span)
    }
}

/// Expressions put together in code, each spanning its parts.
extension Expr {
    func and(_ other: Expr) -> Expr { .binary(.and, self, other, span.union(other.span)) }
    func or(_ other: Expr) -> Expr { .binary(.or, self, other, span.union(other.span)) }
    func compared(_ op: BinaryOp, _ other: Expr) -> Expr { .binary(op, self, other, span.union(other.span)) }
    func minus(_ other: Expr) -> Expr { .binary(.subtract, self, other, span.union(other.span)) }
    func plus(_ other: Expr) -> Expr { .binary(.add, self, other, span.union(other.span)) }
    func divided(by other: Expr) -> Expr { .binary(.divide, self, other, span.union(other.span)) }
    var isNull: Expr { .isNull(self, negated: false, span) }
    var isNotNull: Expr { .isNull(self, negated: true, span) }
}
