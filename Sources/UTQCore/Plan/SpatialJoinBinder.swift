/// Binds `join TABLE on within`, `join TABLE within 400 m` and `join TABLE nearest K`: each
/// side's position (`ImpliedPosition`), the distance in their space, and the joined rows'
/// columns: the left's, the right's (a clashing name takes the right table's as a prefix),
/// and for near and nearest joins their distance.
extension JoinBinder {
    func bind(_ left: LogicalPlan, _ other: PipelineSource, _ kind: JoinKind, _ spatial: SpatialJoinSyntax) throws -> LogicalPlan {
        let right = try binder.source(other)
        if right.is(PendingNode.self) { return right }
        let rightName = Self.prefix(for: other)
        func position(_ plan: LogicalPlan, _ side: String) throws -> BoundExpr {
            guard let p = ImpliedPosition.find(plan.schema) else {
                throw Diagnostic("\(side) has no position to join by: no geometry column, no x and y, no latitude and longitude",
                                 at: spatial.span, hint: ImpliedPosition.missingHint(plan.schema))
            }
            return p.expression(plan.schema)
        }
        let l = try position(left, "the rows before join"), r = try position(right, rightName)
        let test = try spatial.reach(in: l.space)
        if l.space != r.space {
            func what(_ e: BoundExpr) -> String { e.space == .lnglat ? "longitude and latitude" : "x and y on a plan" }
            throw Diagnostic("\(l.describe) is \(what(l)) and \(r.describe) is \(what(r)): \(test.reach > 0 ? "their distance" : "where one lies in the other") means nothing",
                             at: spatial.span, hint: "make both the same: point(lng, lat) for places on the Earth, xy(x, y) for a plan; a file's geometries load as a plan with: load FILE with crs=plane")
        }
        var fields = left.schema.fields
        let taken = Set(fields.map { $0.name.lowercased() })
        for var f in right.schema.fields {
            if taken.contains(f.name.lowercased()) { f.name = "\(rightName).\(f.name)" }
            fields.append(f)
        }
        var distanceColumn: String? = nil
        if test.reach > 0 {
            var name = "distance"
            while fields.contains(where: { $0.name.lowercased() == name }) { name = "\(rightName)_" + name }
            fields.append(Field(name: name, type: .double))
            distanceColumn = name
        }
        let ls = left.schema
        return LogicalPlan(SpatialJoinNode(left, right, kind: kind, test: test, leftGeometry: l, rightGeometry: r, distanceColumn: distanceColumn,
                                           schema: Schema(fields: fields, zone: ls.zone, timeColumn: ls.timeColumn, groupKeys: ls.groupKeys)))
    }

    /// The name a joined table's clashing columns take as a prefix.
    static func prefix(for other: PipelineSource) -> String {
        switch other {
        case .table(let n, _): return n.split(separator: ".").last.map(String.init) ?? n
        case .result(let n, _): return "r\(n)"
        case .pipeline(let p):
            if case .table(let n, _) = p.source { return n.split(separator: ".").last.map(String.init) ?? n }
            return "right"
        default: return "right"
        }
    }
}
