import Foundation

/// Reading a table into a map: which columns hold the position, the glyph and the angle.
extension MapChart {
    /// The Behaviour Mapper app's map, in points.
    static let mapperSize = (width: 824.0, height: 768.0)

    static func make(_ request: ChartRequest, table: Table) throws -> MapChart {
        func numeric(_ names: [String]) -> Int? {
            for n in names { if let i = table.columnIndex(n), ValueReader.measurable(table.columns[i]) { return i } }
            return nil
        }
        let xy = (numeric(["x"]), numeric(["y"]))
        let latLng = (numeric(["lat", "latitude", "stop_lat"]), numeric(["lng", "lon", "long", "longitude", "stop_lon", "stop_lng"]))
        let geographic: Bool
        let xi: Int, yi: Int
        if let x = xy.0, let y = xy.1 { (xi, yi, geographic) = (x, y, false) }
        else if let lat = latLng.0, let lng = latLng.1 { (xi, yi, geographic) = (lng, lat, true) }
        else {
            throw Diagnostic("chart map needs positions: x and y columns (a Behaviour Mapper table) or lat and lng", at: request.span,
                             hint: "columns here: " + table.columnNames.joined(separator: ", "))
        }
        // The glyph column: the one named, else legend, else none.
        var groupIndex: Int? = nil
        if let name = request.column {
            groupIndex = try ChartInput.column(name, in: table, span: request.columnSpan)
        } else if let i = table.columnIndex("legend") {
            groupIndex = i
        }
        let angleIndex = numeric(["angle", "angleInDegrees", "angle_in_degrees", "direction"])
        if request.options.arrows && angleIndex == nil {
            throw Diagnostic("arrows needs an angle column (degrees from east, clockwise on screen)",
                             at: request.options.spans["arrows"] ?? request.span)
        }
        let xs = ValueReader(table.columns[xi]).values, ys = ValueReader(table.columns[yi]).values
        let angles = angleIndex.map { ValueReader(table.columns[$0]).values }
        let key = groupIndex.map { KeyReader(table.columns[$0], zone: table.zone) }
        var groups: [String] = [], groupOf: [Value: Int] = [:], firstRow: [Int] = []
        var raw: [Point] = []
        var missing = 0
        for r in 0..<table.rowCount {
            guard let x = xs[r], let y = ys[r] else { missing += 1; continue }
            var g = 0
            if let key {
                let id = key.identity(r)
                if let known = groupOf[id] { g = known } else {
                    g = groups.count
                    groupOf[id] = g
                    groups.append(key.label(r))
                    firstRow.append(r)
                }
            } else if groups.isEmpty { groups = [table.rowNoun] }
            if geographic && (abs(y) > 90 || abs(x) > 180) { missing += 1; continue }
            raw.append(Point(x: x, y: y, group: g, angle: angles?[r]))
        }
        // Legends in their declared order (the project's), other text as first seen.
        var glyphs = Array(groups.indices)
        if let key, firstRow.allSatisfy({ key.rank($0) != nil }) {
            let order = groups.indices.sorted { (key.rank(firstRow[$0]) ?? 0, $0) < (key.rank(firstRow[$1]) ?? 0, $1) }
            var remap = [Int](repeating: 0, count: groups.count)
            for (n, old) in order.enumerated() { remap[old] = n }
            groups = order.map { groups[$0] }
            for i in raw.indices { raw[i].group = remap[raw[i].group] }
            if case .string(let s) = table.columns[groupIndex!].storage, s.ordered {
                glyphs = order.map { Int(s.codes[firstRow[$0]]) }
            }
        }
        var notes: [String] = []
        if missing > 0 { notes.append("left out: " + Counted.text(missing, table.rowNoun) + " without a position") }
        if geographic { return geo(raw, groups: groups, glyphs: glyphs, groupName: key?.name, arrows: request.options.arrows, notes: notes) }
        return screen(raw, groups: groups, glyphs: glyphs, groupName: key?.name, arrows: request.options.arrows, notes: notes)
    }

    /// x right, y down: the Behaviour Mapper box when every point is inside it, else the
    /// points' own extent.
    static func screen(_ points: [Point], groups: [String], glyphs: [Int], groupName: String?, arrows: Bool, notes: [String]) -> MapChart {
        let (w, h) = mapperSize
        let inside = points.allSatisfy { $0.x >= 0 && $0.x <= w && $0.y >= 0 && $0.y <= h }
        var frame = (x0: 0.0, y0: 0.0, x1: w, y1: h)
        var text = "x 0–824 left to right, y 0–768 top to bottom (map points)"
        if !inside {
            frame = extent(points.map { ($0.x, $0.y) })
            text = "x \(NumberLabel.short(frame.x0, step: 1))–\(NumberLabel.short(frame.x1, step: 1)) left to right, y \(NumberLabel.short(frame.y0, step: 1))–\(NumberLabel.short(frame.y1, step: 1)) top to bottom"
        }
        return MapChart(frame: frame, geographic: false, points: points, groups: groups, glyphs: glyphs, groupName: groupName,
                        arrows: arrows, extentText: text, notes: notes)
    }

    /// North up: y is the latitude turned over, x the longitude times the cosine of the
    /// middle latitude (a degree of longitude is shorter away from the equator).
    static func geo(_ points: [Point], groups: [String], glyphs: [Int], groupName: String?, arrows: Bool, notes: [String]) -> MapChart {
        let lats = points.map(\.y)
        let midLat = ((lats.min() ?? 0) + (lats.max() ?? 0)) / 2
        let k = max(0.01, cos(midLat * .pi / 180))
        let projected = points.map { Point(x: $0.x * k, y: -$0.y, group: $0.group, angle: $0.angle) }
        let frame = extent(projected.map { ($0.x, $0.y) })
        func deg(_ v: Double) -> String { NumberText.fixed(v, decimals: 4) }
        let text = "north up · lat \(deg(-frame.y1))–\(deg(-frame.y0)) · lng \(deg(frame.x0 / k))–\(deg(frame.x1 / k))"
        return MapChart(frame: frame, geographic: true, points: projected, groups: groups, glyphs: glyphs, groupName: groupName,
                        arrows: arrows, extentText: text, notes: notes)
    }

    /// The smallest box around the points, with a little room at each edge (3 % of that
    /// side, or of the other side when all points share one line).
    static func extent(_ p: [(Double, Double)]) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        guard let x0 = p.map(\.0).min(), let x1 = p.map(\.0).max(), let y0 = p.map(\.1).min(), let y1 = p.map(\.1).max() else {
            return (0, 0, 1, 1)
        }
        let w = x1 - x0, h = y1 - y0
        let floor = max(abs(x0), abs(y0), 1) * 1e-6
        let padX = max(w > 0 ? w * 0.03 : h * 0.03, floor), padY = max(h > 0 ? h * 0.03 : w * 0.03, floor)
        return (x0 - padX, y0 - padY, x1 + padX, y1 + padY)
    }
}
