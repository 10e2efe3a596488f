import Foundation

/// Measures and tests of geometries, named as PostGIS and shapely name them: `distance`,
/// `length`, `area`, `centroid`, `within`, `contains`, `intersects`, `buffer`, `bearing`,
/// and `cell` for counting by place. In lng/lat, metres (geodesic, WGS 84); on a plan, its
/// own units.
enum GeometryMeasures {
    static let all: [FunctionSpec] = [
        measure("area", usage: "area(polygon)", summary: "A polygon's area, holes taken out: square metres in lng/lat, square units on a plan.",
                example: "load datasets/market-zones.csv as zones; zones | select zone, size = area(area)") { GeoMeasure.area($0) }
            .inSQL(GeometrySQL.area),
        centroid,
        predicate("within", summary: "Whether the first geometry lies inside the second (on its edge is not inside).",
                  example: "where within(xy(x, y), geometry(\"POLYGON ((0 0, 824 0, 824 200, 0 200, 0 0))\", \"plane\")) | count",
                  Planar.within),
        predicate("contains", summary: "Whether the first geometry holds the second (a zone holds a point inside it, not one on its edge).",
                  example: "where contains(geometry(\"POLYGON ((0 0, 824 0, 824 200, 0 200, 0 0))\", \"plane\"), xy(x, y)) | count",
                  Planar.contains),
        predicate("intersects", summary: "Whether two geometries share any point, edges included.",
                  example: "where intersects(xy(x, y), geometry(\"POLYGON ((0 0, 824 0, 824 200, 0 200, 0 0))\", \"plane\")) | count",
                  Planar.intersects),
        buffer,
        bearing,
        GridCells.spec.inSQL(GeometrySQL.cell),
    ]

    /// The SQL function of a predicate: PostGIS's of the same name, on geometries as they are.
    static func predicate(_ name: String, summary: String, example: String, _ test: @escaping @Sendable (Geometry, Geometry) -> Bool) -> FunctionSpec {
        FunctionSpec(name: name, aliases: ["st_" + name], usage: "\(name)(a, b)", summary: summary, examples: [example], arity: 2...2,
                     resultType: { t in GeometryFunctions.geometryArgs(name, t, count: 2).map { .failure($0) } ?? .success(.bool) },
                     evaluate: { args, _, n, context in
                         let a = GeometryArgument(args[0]), b = GeometryArgument(args[1])
                         return try column(n, context, type: .bool) { row in
                             guard let x = a.at(row), let y = b.at(row) else { return nil }
                             return .bool(test(x, y))
                         }
                     })
            .inSQL(GeometrySQL.predicate("ST_\(name.prefix(1).uppercased() + name.dropFirst())"))
    }

    /// A number of one geometry.
    static func measure(_ name: String, usage: String, summary: String, example: String, _ f: @escaping @Sendable (Geometry) -> Double) -> FunctionSpec {
        FunctionSpec(name: name, aliases: ["st_" + name], usage: usage, summary: summary, examples: [example], arity: 1...1,
                     resultType: { t in GeometryFunctions.geometryArgs(name, t).map { .failure($0) } ?? .success(.double) },
                     evaluate: { args, _, n, context in
                         let a = GeometryArgument(args[0])
                         return try column(n, context, type: .double) { row in a.at(row).map { .double(f($0)) } }
                     })
    }

    static let centroid = FunctionSpec(
        name: "centroid", aliases: ["st_centroid"], usage: "centroid(geometry)",
        summary: "The middle of a geometry (its centre of area, of length or of points), as a point.",
        examples: ["load datasets/market-zones.csv as zones; zones | select zone, middle = centroid(area)"], arity: 1...1,
        resultType: { t in GeometryFunctions.geometryArgs("centroid", t).map { .failure($0) } ?? .success(.geometry) },
        evaluate: { args, _, n, context in
            let a = GeometryArgument(args[0])
            return try column(n, context, type: .geometry, space: a.space) { row in
                guard let g = a.at(row), var c = Planar.centroid(g) else { return nil }
                c.space = g.space
                return .geometry(c)
            }
        })
        .inSQL(GeometrySQL.centroid)

    static let buffer = FunctionSpec(
        name: "buffer", aliases: ["st_buffer"], usage: "buffer(geometry, distance)",
        summary: "Every point within a distance of a geometry, as a polygon: metres in lng/lat, the plan's units on a plan.",
        examples: ["select walk = buffer(point(21.1660, 42.6495), 400) | limit 1"], arity: 2...2,
        resultType: { t in
            if let e = GeometryFunctions.geometryArgs("buffer", t) { return .failure(e) }
            return numericArgs("buffer", [t[1]]).map { .failure($0) } ?? .success(.geometry)
        },
        evaluate: { args, _, n, context in
            let a = GeometryArgument(args[0])
            return try column(n, context, type: .geometry, space: a.space) { row in
                guard let g = a.at(row), let d = args[1].value(row).doubleValue, d.isFinite else { return nil }
                guard d > 0 else { return d == 0 ? .geometry(g) : nil }
                return .geometry(GeoMeasure.buffer(g, d))
            }
        })
        .inSQL(GeometrySQL.buffer)

    static let bearing = FunctionSpec(
        name: "bearing", aliases: ["azimuth", "st_azimuth"], usage: "bearing(from, to)",
        summary: "The direction from one point to another in degrees clockwise from north, 0 to 360 (geodesic in lng/lat).",
        examples: ["select heading = round(bearing(point(21.1660, 42.6495), point(21.0817, 42.6343))) | limit 1"], arity: 2...2,
        resultType: { t in GeometryFunctions.geometryArgs("bearing", t, count: 2).map { .failure($0) } ?? .success(.double) },
        evaluate: { args, _, n, context in
            let a = GeometryArgument(args[0]), b = GeometryArgument(args[1])
            return try column(n, context, type: .double) { row in
                guard let x = a.at(row), let y = b.at(row) else { return nil }
                return GeoMeasure.bearing(x, y).map { .double($0) }
            }
        })
        .inSQL(GeometrySQL.bearing)

    /// `distance(a, b)` of two geometries; `distance(lat1, lng1, lat2, lng2)` as it was.
    static func distance(_ args: [Vector], _ n: Int, _ context: CallContext) throws -> Vector {
        let a = GeometryArgument(args[0]), b = GeometryArgument(args[1])
        // Points against points: no geometry made per row.
        if let pa = a.points, let pb = b.points, a.space == .lnglat {
            return try doubles(n, context) { row in
                guard let (x1, y1) = pa(row), let (x2, y2) = pb(row) else { return nil }
                return GeoMeasure.geodesic.inverse(lat1: y1, lon1: x1, lat2: y2, lon2: x2).distance
            }
        }
        return try doubles(n, context) { row in
            guard let x = a.at(row), let y = b.at(row) else { return nil }
            let d = GeoMeasure.distance(x, y)
            return d.isNaN ? nil : d
        }
    }

    /// `length(line)` of a geometry, `length(text)` of text, as `len`.
    static func length(_ args: [Vector], _ n: Int, _ context: CallContext) throws -> Vector {
        let a = GeometryArgument(args[0])
        return try doubles(n, context) { row in a.at(row).map(GeoMeasure.length) }
    }

    /// A column made a row at a time; Ctrl-C looked at every 4,096 rows.
    static func column(_ n: Int, _ context: CallContext, type: DataType, space: GeoSpace = .lnglat, _ f: (Int) throws -> Value?) throws -> Vector {
        var values = [Value](repeating: .null, count: n)
        for row in 0..<n {
            if row & 0xFFF == 0, context.cancel?.isCancelled == true { throw CancellationError() }
            values[row] = try f(row) ?? .null
        }
        var c = Column.from(values: values, type: type)
        if type == .geometry, case .geometry(var s) = c.storage { s.space = space; c.storage = .geometry(s) }
        return .column(c)
    }

    /// A column of numbers made a row at a time.
    static func doubles(_ n: Int, _ context: CallContext, _ f: (Int) throws -> Double?) throws -> Vector {
        var out = [Double](repeating: 0, count: n)
        var valid = Bitmap(count: n, value: true)
        for row in 0..<n {
            if row & 0xFFF == 0, context.cancel?.isCancelled == true { throw CancellationError() }
            if let d = try f(row) { out[row] = d } else { valid[row] = false }
        }
        return .column(Column(name: "", storage: .double(out), validity: valid))
    }
}

extension GeometryArgument {
    /// Each row's point as coordinates, when every row is a point (or the constant is one).
    var points: ((Int) -> (Double, Double)?)? {
        if let storage, storage.isPoints {
            let v = vector
            return { row in v.isValid(row) ? (storage.xs[row], storage.ys[row]) : nil }
        }
        if let g = constant, g.kind == .point, !g.isEmpty { return { _ in (g.xs[0], g.ys[0]) } }
        if storage == nil && constant == nil { return { _ in nil } }
        return nil
    }
}
