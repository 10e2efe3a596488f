import Foundation
import UTQCore

/// A spatial join as PostGIS SQL. Each side's columns under the names the joined rows give
/// them, and its geometry (a column, or a point made of two) as `utq_lgeom` / `utq_rgeom`:
/// - `on within`, `on contains`, `on intersects` join ON ST_Within, ST_Contains, ST_Intersects;
/// - `within D` joins each left row to the right rows whose box reaches its own grown by D
///   (as utq's R-tree narrows them, and as a GiST index on the right side's column can), then
///   keeps those at most D away;
/// - `nearest K` takes, for each left row in a LATERAL subquery, the K right rows of least
///   distance, ties in the right side's order. `<->` orders by a distance in degrees, which is
///   not the order of metres, so it only bounds the search: the rows within the farthest of
///   the K nearest by `<->` are measured exactly.
/// Distances and tests are the functions' own forms (`distance()`, `within()` …), so the
/// distance column is what `distance()` gives: geodesic metres through geography in lng/lat.
/// The rows come in utq's order where it matters above: left rows in their order, each one's
/// matches in the right side's order, or nearest first.
extension SpatialJoinNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters ordered: Bool) throws -> SQLCompiler.Relation {
        try c.needPostGIS()
        let left = inputs[0], right = inputs[1]
        let id = c.connection.identifier
        let space = leftGeometry.space
        guard rightGeometry.space == space else {
            throw NotInSQL("one side is in lng/lat and the other on a plan; PostGIS compares only geometries of one SRID")
        }
        let width = self.left.schema.fields.count
        var codes = left.codes, labels = left.labels
        var leftList = self.left.schema.fields.map { "t.\(id($0.name)) AS \(id($0.name))" }
        var rightList: [String] = []
        for (k, f) in self.right.schema.fields.enumerated() {
            let joined = schema.fields[width + k].name
            rightList.append("t.\(id(f.name)) AS \(id(joined))")
            if let x = right.codes[f.name] { codes[joined] = x }
            if let x = right.labels[f.name] { labels[joined] = x }
        }
        let rightPlace = try c.expr(rightGeometry, self.right.schema, right.codes)
        leftList.append("\(try c.expr(leftGeometry, self.left.schema, left.codes)) AS \"utq_lgeom\"")
        rightList.append("\(rightPlace) AS \"utq_rgeom\"")
        // Which k a nearest join takes depends on the right side's order where distances tie.
        var nearest = false
        if case .nearest = test { nearest = true }
        let numbered = ordered || nearest
        if ordered { leftList.append("\(try c.numbering(self.left, left)) AS \"utq_lrow\"") }
        if numbered { rightList.append("\(try c.numbering(self.right, right)) AS \"utq_rrow\"") }

        let leftSide = "(SELECT \(leftList.joined(separator: ", ")) FROM (\(left.sql)) AS t) AS l"
        let rightSide = "(SELECT \(rightList.joined(separator: ", ")) FROM (\(right.sql)) AS t)"
        let join = kind == .left ? "LEFT JOIN" : "JOIN"
        var names = schema.fields.map { id($0.name) }
        var with = "", from: String, order = ["\"utq_lrow\"", "\"utq_rrow\""]
        let distance = try call("distance", "l.\"utq_lgeom\"", "m.\"utq_rgeom\"", space)
        // The right rows whose box meets the left row's grown by `reach` (SQL, computed once a
        // left row). Numbered, the right side is made once (a window numbers it, which no
        // filter can pass below, so a subquery would be numbered again for each left row);
        // unnumbered, PostgreSQL reads it as it plans (a GiST index on its column can narrow it).
        // (OFFSET 0 keeps PostgreSQL from copying the box's expression into the test of each
        // row, and from measuring each row's distance before its box is tested.)
        func candidates(_ reach: String?) -> String {
            let side = numbered ? "\"utq_right\" AS m" : "\(rightSide) AS m"
            guard let reach else { return side }
            return "(SELECT m.* FROM (SELECT \(grown("l.\"utq_lgeom\"", by: reach, space)) AS box OFFSET 0) AS utq_box, \(side) "
                + "WHERE m.\"utq_rgeom\" && utq_box.box OFFSET 0) AS m"
        }
        func finite(_ d: Double) -> String? { d.isFinite ? c.literal(.double(d)) : nil }
        switch test {
        case .within, .contains, .intersects:
            let name = test == .within ? "within" : test == .contains ? "contains" : "intersects"
            let condition = try call(name, "l.\"utq_lgeom\"", "r.\"utq_rgeom\"", space)
            from = "\(leftSide) \(join) \(rightSide) AS r ON \(condition)"
        case .near(let d):
            if numbered { with = "WITH \"utq_right\" AS MATERIALIZED \(rightSide) " }
            names[names.count - 1] = "r.\"utq_distance\" AS \(names[names.count - 1])"
            from = "\(leftSide) \(join) LATERAL (SELECT m.*, \(distance) AS \"utq_distance\" FROM \(candidates(finite(d)))) AS r "
                + "ON r.\"utq_distance\" <= \(c.literal(.double(d)))"
        case .nearest(let k, let limit):
            with = "WITH \"utq_right\" AS MATERIALIZED \(rightSide) "
            names[names.count - 1] = "r.\"utq_distance\" AS \(names[names.count - 1])"
            // The k right rows nearest by <-> (a plane's distance, in degrees in lng/lat, which
            // a GiST index gives in order) are at most the largest of their distances in
            // metres away, so the k nearest in metres are too: only rows within it are measured.
            let bound = "(SELECT max(\(try call("distance", "l.\"utq_lgeom\"", "b.\"utq_rgeom\"", space))) FROM (SELECT t.\"utq_rgeom\" FROM "
                + "(SELECT \(rightPlace) AS \"utq_rgeom\" FROM (\(right.sql)) AS t) AS t WHERE t.\"utq_rgeom\" IS NOT NULL AND NOT ST_IsEmpty(t.\"utq_rgeom\") "
                + "ORDER BY t.\"utq_rgeom\" <-> l.\"utq_lgeom\" LIMIT \(k)) AS b)"
            let reach = limit.flatMap(finite).map { "LEAST(\(bound), \($0))" } ?? bound
            let within = limit.map { " AND n.\"utq_distance\" <= \(c.literal(.double($0)))" } ?? ""
            from = "\(leftSide) \(join) LATERAL (SELECT n.* FROM (SELECT m.*, \(distance) AS \"utq_distance\" FROM \(candidates(reach))) AS n "
                + "WHERE n.\"utq_distance\" IS NOT NULL\(within) ORDER BY n.\"utq_distance\", n.\"utq_rrow\" LIMIT \(k)) AS r ON TRUE"
            order = ["\"utq_lrow\"", "r.\"utq_distance\"", "\"utq_rrow\""]
        }
        let sql = with + "SELECT \(names.joined(separator: ", ")) FROM \(from)" + (ordered ? " ORDER BY " + order.joined(separator: ", ") : "")
        var joined = SQLCompiler.Relation(sql: sql, codes: codes, labels: labels, copies: left.copies + right.copies)
        if ordered { joined.orderNote = SQLCompiler.orderNote(inputs) }
        joined.inUtqOrder = ordered
        return joined
    }

    /// A geometry function's SQL form, from the registry, over two geometries of one space.
    private func call(_ name: String, _ a: String, _ b: String, _ space: GeoSpace) throws -> String {
        guard let form = Functions.spec(name)?.sql else { throw NotInSQL("\(name)() has no SQL form") }
        var call = SQLCall(arguments: [a, b], types: [.geometry, .geometry])
        call.spaces = [space, space]
        guard let sql = form.sql(call) else { throw NotInSQL("\(name)(): " + (form.reason(for: call) ?? "no SQL form")) }
        return sql
    }

    /// `geometry`'s box grown by `reach` (SQL, computed once): in the plane's units on a plane;
    /// in lng/lat by degrees that hold at least that many metres around its latitudes, as
    /// SpatialMatcher grows a box (a degree of latitude is at least 110,574 m, one of
    /// longitude at least 111,319 m × cos(latitude)).
    private func grown(_ geometry: String, by reach: String, _ space: GeoSpace) -> String {
        guard space == .lnglat else { return "ST_Expand(\(geometry), \(reach))" }
        let widest = "LEAST(90, GREATEST(abs(ST_YMin(\(geometry))), abs(ST_YMax(\(geometry)))) + utq_e.lat)"
        return "(SELECT ST_Expand(\(geometry), CASE WHEN utq_d.c < 1e-6 THEN 360 ELSE utq_d.r / (111319.49 * utq_d.c) * 1.01 END, utq_d.lat) "
            + "FROM (SELECT utq_e.r, utq_e.lat, cos(\(widest) * pi() / 180) AS c "
            + "FROM (SELECT utq_f.r, utq_f.r / 110574 * 1.01 AS lat FROM (SELECT (\(reach))::float8 AS r OFFSET 0) AS utq_f) AS utq_e) AS utq_d)"
    }
}
