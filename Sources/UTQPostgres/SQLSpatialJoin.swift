import Foundation
import UTQCore

/// A spatial join as PostGIS SQL. Each side's columns under the names the joined rows give
/// them, and its geometry (a column, or a point made of two) as `utq_lgeom` / `utq_rgeom`:
/// - `on within`, `on contains`, `on intersects` join ON ST_Within, ST_Contains, ST_Intersects;
/// - `within D` joins each left row to the right rows whose box reaches its own grown by D
///   (as utq's R-tree narrows them, and as a GiST index on the right side's column can), then
///   keeps those at most D away;
/// - `nearest K` takes, for each left row in a LATERAL subquery, the K right rows of least
///   distance, ties in the right side's order, every right row measured exactly (`<->` orders
///   by a distance in degrees, which is not the order of metres).
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
        leftList.append("\(try c.expr(leftGeometry, self.left.schema, left.codes)) AS \"utq_lgeom\"")
        rightList.append("\(try c.expr(rightGeometry, self.right.schema, right.codes)) AS \"utq_rgeom\"")
        // Which k a nearest join takes depends on the right side's order where distances tie.
        var nearest = false
        if case .nearest = test { nearest = true }
        if ordered { leftList.append("\(try c.numbering(self.left, left)) AS \"utq_lrow\"") }
        if ordered || nearest { rightList.append("\(try c.numbering(self.right, right)) AS \"utq_rrow\"") }

        let leftSide = "(SELECT \(leftList.joined(separator: ", ")) FROM (\(left.sql)) AS t) AS l"
        let rightSide = "(SELECT \(rightList.joined(separator: ", ")) FROM (\(right.sql)) AS t)"
        let join = kind == .left ? "LEFT JOIN" : "JOIN"
        var names = schema.fields.map { id($0.name) }
        var from: String, order = ["\"utq_lrow\"", "\"utq_rrow\""]
        switch test {
        case .within, .contains, .intersects:
            let name = test == .within ? "within" : test == .contains ? "contains" : "intersects"
            let condition = try call(name, "l.\"utq_lgeom\"", "r.\"utq_rgeom\"", space)
            from = "\(leftSide) \(join) \(rightSide) AS r ON \(condition)"
        case .near(let d):
            names[names.count - 1] = "r.\"utq_distance\" AS \(names[names.count - 1])"
            let distance = try call("distance", "l.\"utq_lgeom\"", "m.\"utq_rgeom\"", space)
            from = "\(leftSide) \(join) LATERAL (SELECT m.*, \(distance) AS \"utq_distance\" FROM \(rightSide) AS m "
                + "WHERE \(reaches("m.\"utq_rgeom\"", "l.\"utq_lgeom\"", d, space))) AS r ON r.\"utq_distance\" <= \(c.literal(.double(d)))"
        case .nearest(let k, let limit):
            names[names.count - 1] = "r.\"utq_distance\" AS \(names[names.count - 1])"
            let distance = try call("distance", "l.\"utq_lgeom\"", "m.\"utq_rgeom\"", space)
            let reach = limit.map { " WHERE " + reaches("m.\"utq_rgeom\"", "l.\"utq_lgeom\"", $0, space) } ?? ""
            let within = limit.map { " AND n.\"utq_distance\" <= \(c.literal(.double($0)))" } ?? ""
            from = "\(leftSide) \(join) LATERAL (SELECT n.* FROM (SELECT m.*, \(distance) AS \"utq_distance\" FROM \(rightSide) AS m\(reach)) AS n "
                + "WHERE n.\"utq_distance\" IS NOT NULL\(within) ORDER BY n.\"utq_distance\", n.\"utq_rrow\" LIMIT \(k)) AS r ON TRUE"
            order = ["\"utq_lrow\"", "r.\"utq_distance\"", "\"utq_rrow\""]
        }
        let sql = "SELECT \(names.joined(separator: ", ")) FROM \(from)" + (ordered ? " ORDER BY " + order.joined(separator: ", ") : "")
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

    /// Whether `candidate`'s box meets `geometry`'s grown by `d`: metres as degrees that hold
    /// at least that many around its latitudes in lng/lat (as SpatialMatcher grows a box), the
    /// plane's units on a plane. It only narrows the rows the distance is measured for.
    private func reaches(_ candidate: String, _ geometry: String, _ d: Double, _ space: GeoSpace) -> String {
        guard d.isFinite else { return "TRUE" }
        guard space == .lnglat else { return "\(candidate) && ST_Expand(\(geometry), \(d)::float8)" }
        let dLat = d / 110_574 * 1.01
        let widest = "LEAST(90, GREATEST(abs(ST_YMin(\(geometry))), abs(ST_YMax(\(geometry)))) + \(dLat)::float8)"
        let dLng = "(SELECT CASE WHEN utq_c.c < 1e-6 THEN 360 ELSE \(d)::float8 / (111319.49 * utq_c.c) * 1.01 END FROM (SELECT cos(\(widest) * pi() / 180) AS c) AS utq_c)"
        return "\(candidate) && ST_Expand(\(geometry), \(dLng), \(dLat)::float8)"
    }
}
