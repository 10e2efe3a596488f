/// The summaries of geometries: `path` joins a group's points into a line in the rows'
/// order (so `sort` first), `collect` gathers a group's geometries into one multi- geometry,
/// `dissolve` merges a group's polygons into their union.
enum GeometryAggregates {
    static func run(_ a: BoundAggregate, _ arg: Column, groupOf: [Int32], groups: Int, rows n: Int, notes: RunNotes?) throws -> Column {
        guard case .geometry(let s) = arg.storage else { return Column.constant(.null, type: .geometry, count: groups, name: a.name) }
        var members = [[Int]](repeating: [], count: groups)
        for i in 0..<n where arg.isValid(i) { members[Int(groupOf[i])].append(i) }
        var b = GeometryBuilder(space: s.space)
        var valid = Bitmap(count: groups, value: true)
        var short = 0, mixed = 0, notPoints = 0, notPolygons = 0
        for g in 0..<groups {
            let rows = members[g]
            if a.function == .path {
                // A line needs two points; other geometries give their own points in order.
                var points: [(x: Double, y: Double)] = []
                for r in rows {
                    let geometry = s[r]
                    if geometry.kind != .point { notPoints += 1 }
                    for k in geometry.xs.indices { points.append((geometry.xs[k], geometry.ys[k])) }
                }
                guard points.count >= 2 else { if !rows.isEmpty { short += 1 }; b.appendNull(); valid[g] = false; continue }
                b.append(.lineString(points, space: s.space))
            } else if a.function == .dissolve {
                // Polygons only: a point or a line has no area to merge.
                let polygons = rows.map { s[$0] }.filter { !$0.isEmpty && $0.kind.dimension == 2 }
                notPolygons += rows.count - polygons.count
                guard !polygons.isEmpty else { b.appendNull(); valid[g] = false; continue }
                var merged = Planar.union(polygons.map { var p = $0; p.space = .plane; return p })
                merged.space = s.space
                b.append(merged)
            } else {
                let parts = rows.map { s[$0] }.filter { !$0.isEmpty }
                guard let first = parts.first else { b.appendNull(); valid[g] = false; continue }
                let kind = first.kind.single
                guard parts.allSatisfy({ $0.kind.single == kind }) else { mixed += 1; b.appendNull(); valid[g] = false; continue }
                var members: [[[(x: Double, y: Double)]]] = []
                for p in parts { for k in 0..<p.partCount { let one = p.part(k); members.append((0..<one.ringCount).map { one.ring($0) }) } }
                let multi: Geometry.Kind = kind == .point ? .multiPoint : (kind == .lineString ? .multiLineString : .multiPolygon)
                b.append(.multi(multi, members, space: s.space))
            }
        }
        if short > 0 { notes?.add("path short", "\(NumberText.counted(short, "group")) with fewer than two points \(short == 1 ? "has" : "have") no path") }
        if notPoints > 0 { notes?.add("path of shapes", "path joins the points of lines and polygons too, in their order: \(NumberText.counted(notPoints, "row")) held more than a point") }
        if notPolygons > 0 { notes?.add("dissolve points", "dissolve merges polygons: \(NumberText.counted(notPolygons, "point or line", plural: "points or lines")) left out (buffer them first to give them an area)") }
        if mixed > 0 { notes?.add("collect mixed", "\(NumberText.counted(mixed, "group")) mix points, lines and polygons, and collect gathers one kind at a time: left empty") }
        return Column(name: a.name, storage: .geometry(b.storage), validity: valid)
    }
}
