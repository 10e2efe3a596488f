/// Geometries kept as text in a file's column, as spreadsheets and CSV exports hold them: a
/// column whose every value is well-known text (`POLYGON ((…))`) or a GeoJSON geometry
/// (`{"type": "LineString", …}`, as PLDP's location exports write it) becomes a geometry
/// column. Its coordinates say where they lie: all within longitude and latitude's ranges
/// is lng/lat, anything beyond is a plane (a floor plan's points), unless `crs` says.
enum GeometryColumns {
    static func recognise(_ table: Table, path: String, crs: GeoSpace?) -> (Table, [LoadWarning]) {
        var t = table
        var read: [String] = []
        var warnings: [LoadWarning] = []
        for (k, c) in table.columns.enumerated() {
            guard case .string(let s) = c.storage, c.nullCount < c.count, !s.dictionary.isEmpty else { continue }
            // One value a row holds that is not a geometry settles it without a pass over the
            // rows (nearly every text column).
            if let first = firstValue(s, c), !first.isEmpty, !looksLikeGeometry(first) { continue }
            // Decided by the distinct values: each is read once, whatever the rows.
            let used = usedCodes(s, c)
            guard used.allSatisfy({ looksLikeGeometry(s.dictionary[$0]) }) else { continue }
            var parsed: [Geometry?] = Array(repeating: nil, count: s.dictionary.count)
            var failed: (value: String, why: String)? = nil
            for code in used {
                let text = s.dictionary[code]
                do {
                    parsed[code] = try parse(text)
                } catch {
                    failed = (text, (error as? WKT.ParseError)?.message ?? (error as? GeoJSONGeometry.ParseError)?.message ?? "\(error)")
                    break
                }
            }
            if let failed {
                warnings.append(LoadWarning(path: path, "\(c.name) looks like geometries but one is not read, so the column stays text: \(failed.why) (in \(String(failed.value.prefix(60)).quoted))"))
                continue
            }
            let space = crs ?? detectSpace(used.compactMap { parsed[$0] })
            var b = GeometryBuilder(space: space)
            b.reserve(c.count)
            for r in 0..<c.count {
                guard c.isValid(r), var g = parsed[Int(s.codes[r])] else { b.appendNull(); continue }
                g.space = space
                b.append(g)
            }
            t.columns[k] = Column(name: c.name, storage: .geometry(b.storage), validity: c.validity)
            let other = crs != nil ? "" : (space == .lnglat ? "; load with crs=plane if they are x and y on a plan" : "; load with crs=lnglat if they are longitude and latitude")
            read.append("\(c.name) (\(space == .lnglat ? "lng/lat" : "x and y on a plan")\(other))")
        }
        if !read.isEmpty {
            warnings.append(LoadWarning(path: path, "read as geometries: \(read.joined(separator: ", "))"))
        }
        return (t, warnings)
    }

    /// The value of the column's first row that holds one.
    static func firstValue(_ s: StringStorage, _ c: Column) -> String? {
        for r in 0..<c.count where c.isValid(r) { return s.dictionary[Int(s.codes[r])] }
        return nil
    }

    static func usedCodes(_ s: StringStorage, _ c: Column) -> [Int] {
        var used = [Bool](repeating: false, count: s.dictionary.count)
        for r in 0..<c.count where c.isValid(r) { used[Int(s.codes[r])] = true }
        return used.indices.filter { used[$0] && !s.dictionary[$0].isEmpty }
    }

    static func looksLikeGeometry(_ text: String) -> Bool {
        WKT.looksLike(Substring(text)) || GeoJSONGeometry.looksLike(Substring(text))
    }

    static func parse(_ text: String) throws -> Geometry? {
        if WKT.looksLike(Substring(text)) { return try WKT.parse(text) }
        return try GeoJSONGeometry.parse(text)
    }

    /// lng/lat when every coordinate could be one, else a plane.
    static func detectSpace(_ geometries: [Geometry]) -> GeoSpace {
        for g in geometries {
            for i in g.xs.indices where abs(g.xs[i]) > 180 || abs(g.ys[i]) > 90 { return .plane }
        }
        return .lnglat
    }
}
