/// Rows of two plans matched by where they are: a position inside a zone (`join zones on
/// within`), positions near each other (`join stops within 400 m`), or the nearest ones
/// (`join stops nearest 3`). The right side's geometries are put in a spatial index (an
/// R-tree of their boxes), so each left row is tested only against those whose box it
/// reaches. Left rows keep their order; each one's matches come in the right side's order,
/// or nearest first. A left join keeps a left row without a match, with nulls.
public struct SpatialJoinNode: PlanNode {
    public enum Test: Sendable, Equatable {
        /// The left geometry lies inside the right one (its boundary is not inside).
        case within
        /// The left geometry holds the right one.
        case contains
        /// The two share any point, boundaries included.
        case intersects
        /// At most this far apart (metres in lng/lat, the plan's units on a plane).
        case near(Double)
        /// The k nearest right rows, each at most this far when a limit is given.
        case nearest(Int, Double?)

        /// The distance a match may be apart, for the index.
        var reach: Double {
            switch self {
            case .near(let d): return d
            case .nearest(_, let d): return d ?? .infinity
            default: return 0
            }
        }

        /// How the test reads in a plan: `within`, `within 400 m`, `nearest 3`.
        func describe(_ space: GeoSpace) -> String {
            func distance(_ d: Double) -> String { NumberText.double(d) + (space == .lnglat ? " m" : "") }
            switch self {
            case .within: return "within"
            case .contains: return "contains"
            case .intersects: return "intersects"
            case .near(let d): return "within \(distance(d))"
            case .nearest(let k, let d): return "nearest \(k)" + (d.map { " within \(distance($0))" } ?? "")
            }
        }
    }

    public var left: LogicalPlan
    public var right: LogicalPlan
    public var kind: JoinKind
    public var test: Test
    /// Each side's geometry, over its own schema: a geometry column, or a point made of two.
    public var leftGeometry: BoundExpr
    public var rightGeometry: BoundExpr
    /// Where the joined rows' distance goes (near and nearest joins), the last column.
    public var distanceColumn: String?
    public var schema: Schema

    public init(_ left: LogicalPlan, _ right: LogicalPlan, kind: JoinKind, test: Test, leftGeometry: BoundExpr, rightGeometry: BoundExpr,
                distanceColumn: String?, schema: Schema) {
        self.left = left; self.right = right; self.kind = kind; self.test = test
        self.leftGeometry = leftGeometry; self.rightGeometry = rightGeometry
        self.distanceColumn = distanceColumn; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [left, right] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> SpatialJoinNode {
        SpatialJoinNode(inputs[0], inputs[1], kind: kind, test: test, leftGeometry: leftGeometry, rightGeometry: rightGeometry,
                        distanceColumn: distanceColumn, schema: schema)
    }
    public var stepName: String { "join" }
    public var explainLine: String {
        let (a, b) = (leftGeometry.describe, rightGeometry.describe)
        let what: String
        switch test {
        case .within: what = "join where \(a) is within \(b)"
        case .contains: what = "join where \(a) contains \(b)"
        case .intersects: what = "join where \(a) intersects \(b)"
        case .near: what = "join where \(a) is \(test.describe(leftGeometry.space)) of \(b)"
        case .nearest(let k, let d):
            what = "join the \(k == 1 ? "nearest" : "\(k) nearest") \(b) to \(a)" + (d.map { " within \(Test.near($0).describe(leftGeometry.space).dropFirst(7))" } ?? "")
        }
        let how = leftGeometry.space == .lnglat && test.reach > 0 ? "; geodesic metres" : ""
        return (kind == .left ? "left " : "") + what + " (an R-tree of the right side's boxes\(how))"
    }
}
