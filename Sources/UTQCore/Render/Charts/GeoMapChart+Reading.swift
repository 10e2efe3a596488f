import Foundation

/// Reading a table of geometries into a map: the geometry column (or a GTFS shapes table's
/// points, joined into a line per shape), what fills or colours each feature, and the frame.
extension GeoMapChart {
    /// Whether the table is drawn as geometries: it has a geometry column, or it is a GTFS
    /// shapes table.
    static func applies(_ table: Table) -> Bool {
        table.columns.contains { $0.type == .geometry } || shapeColumns(table) != nil
    }

    static func shapeColumns(_ t: Table) -> (id: Int, lat: Int, lon: Int, sequence: Int?)? {
        guard let id = t.columnIndex("shape_id"), let lat = t.columnIndex("shape_pt_lat"), let lon = t.columnIndex("shape_pt_lon"),
              t.columns[lat].type.isNumeric, t.columns[lon].type.isNumeric else { return nil }
        return (id, lat, lon, t.columnIndex("shape_pt_sequence"))
    }

    static func make(_ request: ChartRequest, table: Table) throws -> GeoMapChart {
        var geometries: [Geometry?]
        var space = GeoSpace.lnglat
        var rowOf: [Int] = []
        var groupColumn: Int? = nil
        var notes: [String] = []
        if let gi = table.columns.firstIndex(where: { $0.type == .geometry }), case .geometry(let s) = table.columns[gi].storage {
            space = s.space
            geometries = (0..<table.rowCount).map { table.columns[gi].isValid($0) ? s[$0] : nil }
            rowOf = Array(0..<table.rowCount)
        } else if let shape = shapeColumns(table) {
            // A line per shape, its points in sequence order.
            let key = KeyReader(table.columns[shape.id], zone: table.zone)
            let lats = ValueReader(table.columns[shape.lat]).values, lons = ValueReader(table.columns[shape.lon]).values
            let sequence = shape.sequence.map { ValueReader(table.columns[$0]).values }
            var order: [Value: Int] = [:], points: [[(Double, Double, Double)]] = []
            for r in 0..<table.rowCount {
                guard let la = lats[r], let lo = lons[r] else { continue }
                let id = key.identity(r)
                let k = order[id] ?? { order[id] = points.count; points.append([]); rowOf.append(r); return points.count - 1 }()
                points[k].append((sequence?[r] ?? Double(r), lo, la))
            }
            geometries = points.map { p in
                let sorted = p.sorted { $0.0 < $1.0 }
                return sorted.count >= 2 ? .lineString(sorted.map { ($0.1, $0.2) }) : sorted.first.map { .point($0.1, $0.2) }
            }
            groupColumn = shape.id
            notes.append("\(NumberText.counted(points.count, "shape")) drawn as lines of their points in sequence order")
        } else {
            throw Diagnostic("chart map of geometries needs a geometry column", at: request.span)
        }
        // What fills or colours each feature: the column named; else a summary's first number
        // (count by zone, area); else the legend.
        var values: [Double?]? = nil, valueName: String? = nil
        var groupOf = [Int](repeating: 0, count: geometries.count)
        var groups: [String] = []
        var chosen: Int? = nil
        if let name = request.column { chosen = try ChartInput.column(name, in: table, span: request.columnSpan) }
        else if let keys = table.groupKeys {
            chosen = table.columns.indices.first { !keys.contains(table.columns[$0].name) && table.columns[$0].type.isNumeric }
        }
        if chosen == nil, groupColumn == nil, let legend = table.columnIndex("legend") { chosen = legend }
        if let c = chosen ?? groupColumn {
            if table.columns[c].type.isNumeric && c != groupColumn {
                let v = ValueReader(table.columns[c]).values
                values = rowOf.map { v[$0] }
                valueName = table.columns[c].name
            } else {
                let key = KeyReader(table.columns[c], zone: table.zone)
                var index: [Value: Int] = [:]
                for (k, r) in rowOf.enumerated() {
                    let id = key.identity(r)
                    groupOf[k] = index[id] ?? { index[id] = groups.count; groups.append(key.label(r)); return groups.count - 1 }()
                }
            }
        }
        // A zone's name: a summary's text key, or a column that names things.
        let labelColumn = (table.groupKeys ?? []).compactMap(table.columnIndex).first { table.columns[$0].type == .string }
            ?? ["zone", "name", "label", "stop_name", "Location_Name_Primary"].compactMap(table.columnIndex).first
        let labels = labelColumn.map { c in rowOf.map { r in table.columns[c].isValid(r) ? table.columns[c].value(at: r).plainText : "" } }
        let missing = geometries.filter { $0 == nil || $0!.isEmpty }.count
        if missing > 0 { notes.append("left out: " + Counted.text(missing, table.rowNoun) + " without a geometry") }
        var features: [Feature] = []
        for (k, g) in geometries.enumerated() {
            guard let g, !g.isEmpty else { continue }
            features.append(Feature(geometry: g, group: groupOf[k], value: values?[k] ?? nil, label: labels?[k]))
        }
        return GeoMapChart(features: projected(features, space: space), space: space, groups: groups,
                           groupName: groups.isEmpty ? nil : (chosen ?? groupColumn).map { table.columns[$0].name },
                           valueName: valueName, notes: notes)
    }

    /// Features on the screen's axes, y down: lng/lat with north up, x shrunk by the cosine of
    /// the middle latitude so shapes keep their proportions; a plan as it is (its y grows down,
    /// as Behaviour Mapper's does).
    static func projected(_ features: [Feature], space: GeoSpace) -> [Feature] {
        guard space == .lnglat else { return features }
        var lo = Double.infinity, hi = -Double.infinity
        for f in features { for y in f.geometry.ys { lo = min(lo, y); hi = max(hi, y) } }
        let k = max(0.01, cos((lo + hi) / 2 * .pi / 180))
        return features.map { f in
            var p = f
            p.geometry.xs = f.geometry.xs.map { $0 * k }
            p.geometry.ys = f.geometry.ys.map { -$0 }
            return p
        }
    }
}
