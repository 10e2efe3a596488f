import Foundation

/// Making geometries and reading them back: `point(lng, lat)`, `xy(x, y)`, `geometry(text)`,
/// `wkt(g)`, `geojson(g)`, `x(g)`, `y(g)`. The measures and tests of geometries are in
/// `GeometryMeasures`.
enum GeometryFunctions {
    static let all: [FunctionSpec] = [
        FunctionSpec(name: "point", aliases: ["st_point", "st_makepoint"], usage: "point(lng, lat)",
                     summary: "A place on the Earth from its longitude and latitude (WGS 84, as GPS and GTFS give them).",
                     examples: ["load datasets/gtfs/demo-transit.zip as feed; feed.stops | select stop_id, position = point(stop_lon, stop_lat) | limit 3"],
                     arity: 2...2,
                     resultType: { t in numericArgs("point", t).map { .failure($0) } ?? .success(.geometry) },
                     evaluate: { args, _, n, context in points(args, n, space: .lnglat, context) })
            .inSpace { _ in .lnglat }
            .inSQL(GeometrySQL.point),
        FunctionSpec(name: "xy", aliases: [], usage: "xy(x, y)",
                     summary: "A position on a plan (a Behaviour Mapper map, a drawing): distances are in its units.",
                     examples: ["let at = xy(x, y) | select legend, at | limit 3"], arity: 2...2,
                     resultType: { t in numericArgs("xy", t).map { .failure($0) } ?? .success(.geometry) },
                     evaluate: { args, _, n, context in points(args, n, space: .plane, context) })
            .inSpace { _ in .plane }
            .inSQL(GeometrySQL.xy),
        FunctionSpec(name: "geometry", aliases: ["st_geomfromtext"], usage: "geometry(text [, \"plane\"])",
                     summary: "A geometry from well-known text (POINT (21.16 42.66), POLYGON ((…))) or GeoJSON; on a plan with \"plane\".",
                     examples: ["select zone = geometry(\"POLYGON ((0 0, 412 0, 412 384, 0 384, 0 0))\", \"plane\") | limit 1"], arity: 1...2,
                     resultType: { t in
                         if let e = TextFunctions.stringArg("geometry", t) { return .failure(e) }
                         if t.count == 2, let e = TextFunctions.stringArg("geometry", t, 1) { return .failure(e) }
                         return .success(.geometry)
                     },
                     evaluate: { args, _, n, _ in try fromText(args, n) })
            .inSpace { args in
                if args.count == 2, case .literal(.string(let s), _) = args[1], s.lowercased() == "plane" { return .plane }
                return .lnglat
            }
            .inSQL(GeometrySQL.fromText),
        FunctionSpec(name: "wkt", aliases: ["st_astext"], usage: "wkt(geometry)",
                     summary: "A geometry as well-known text, every digit kept.",
                     examples: ["select text = wkt(point(21.16, 42.66)) | limit 1"], arity: 1...1,
                     resultType: { t in geometryArgs("wkt", t).map { .failure($0) } ?? .success(.string) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             if case .geometry(let g) = v[0] { return .string(WKT.text(g)) }
                             return .null
                         }
                     })
            .inSQL(GeometrySQL.wkt),
        FunctionSpec(name: "geojson", aliases: ["st_asgeojson"], usage: "geojson(geometry)",
                     summary: "A geometry as a GeoJSON geometry object.",
                     examples: ["select json = geojson(point(21.16, 42.66)) | limit 1"], arity: 1...1,
                     resultType: { t in geometryArgs("geojson", t).map { .failure($0) } ?? .success(.string) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             if case .geometry(let g) = v[0] { return .string(GeoJSONGeometry.text(g)) }
                             return .null
                         }
                     })
            .inSQL(GeometrySQL.geojson),
        FunctionSpec(name: "polyline", aliases: [], usage: "polyline(text)",
                     summary: "A line from Google's encoded polyline text (as route APIs and the Prishtina routes give it), in lng/lat.",
                     examples: ["load datasets/prishtina/routes.json as pr; pr.lines | select line, km = round(length(polyline(polyline)) / 1000, 2)"], arity: 1...1,
                     resultType: { t in TextFunctions.stringArg("polyline", t).map { .failure($0) } ?? .success(.geometry) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard case .string(let s) = v[0], let points = Polyline.decode(s), !points.isEmpty else { return .null }
                             if points.count == 1 { return .geometry(.point(points[0].lng, points[0].lat)) }
                             return .geometry(.lineString(points.map { ($0.lng, $0.lat) }))
                         }
                     })
            .inSpace { _ in .lnglat }
            .inSQL(GeometrySQL.polyline),
        coordinate("x", "The x of a point: its longitude in lng/lat, its x on a plan.", 0),
        coordinate("y", "The y of a point: its latitude in lng/lat, its y on a plan.", 1),
    ]

    /// A name of the type a geometry function wants, when an argument is something else.
    static func geometryArgs(_ name: String, _ types: [DataType], count: Int = 1) -> FunctionTypeError? {
        for t in types.prefix(count) where t != .geometry && t != .null {
            return FunctionTypeError(message: "\(name) needs a geometry, not \(t.displayName)"
                                     + (t.isNumeric ? " (make one with point(lng, lat) or xy(x, y))" : t == .string ? " (read text with geometry(text))" : ""))
        }
        return nil
    }

    static func coordinate(_ name: String, _ summary: String, _ which: Int) -> FunctionSpec {
        FunctionSpec(name: name, aliases: ["st_" + name], usage: "\(name)(point)", summary: summary,
                     examples: ["select \(name) = \(name)(point(21.16, 42.66)) | limit 1"], arity: 1...1,
                     resultType: { t in geometryArgs(name, t).map { .failure($0) } ?? .success(.double) },
                     evaluate: { args, type, n, context in
                         if case .column(let c) = args[0], case .geometry(let s) = c.storage, s.isPoints {
                             return .column(Column(name: "", storage: .double(which == 0 ? s.xs : s.ys), validity: c.validity))
                         }
                         return try rowwise(args, n, type, context) { v in
                             guard case .geometry(let g) = v[0], g.kind == .point, !g.isEmpty else { return .null }
                             return .double(which == 0 ? g.xs[0] : g.ys[0])
                         }
                     })
            .inSQL(GeometrySQL.coordinate(name))
    }

    /// Points from two columns of numbers: a column of points, one a row, no offsets. In
    /// lng/lat a latitude past ±90 or a longitude past ±180 is no place: null, with a note
    /// that says what to write for a plan's x and y.
    static func points(_ args: [Vector], _ n: Int, space: GeoSpace, _ context: CallContext) -> Vector {
        if case .constant(let a, _) = args[0], case .constant(let b, _) = args[1] {
            guard let x = a.doubleValue, let y = b.doubleValue, x.isFinite, y.isFinite else { return .constant(.null, .geometry) }
            if space == .lnglat && (abs(x) > 180 || abs(y) > 90) {
                context.notes?.add("point outside", "point(\(NumberText.double(x)), \(NumberText.double(y))) is no place on the Earth (longitude first, then latitude); for x and y on a plan write xy(x, y)")
                return .constant(.null, .geometry)
            }
            return .constant(.geometry(.point(x, y, space: space)), .geometry)
        }
        let xs = args[0].materialize(n), ys = args[1].materialize(n)
        let xv = xs.doubles() ?? [Double](repeating: .nan, count: n), yv = ys.doubles() ?? [Double](repeating: .nan, count: n)
        var valid = Bitmap(count: n, value: true)
        var outside = 0, firstOutside: (Double, Double)? = nil
        for i in 0..<n {
            guard xs.isValid(i), ys.isValid(i), xv[i].isFinite, yv[i].isFinite else { valid[i] = false; continue }
            if space == .lnglat && (abs(xv[i]) > 180 || abs(yv[i]) > 90) {
                valid[i] = false
                outside += 1
                if firstOutside == nil { firstOutside = (xv[i], yv[i]) }
            }
        }
        if let (x, y) = firstOutside {
            context.notes?.add("point outside", "\(NumberText.counted(outside, "point")) left empty: point(\(NumberText.double(x)), \(NumberText.double(y))) is no place on the Earth (longitude first, then latitude); for x and y on a plan write xy(x, y)")
        }
        return .column(Column(name: "", storage: .geometry(.points(xs: xv, ys: yv, space: space)), validity: valid))
    }

    /// Geometries from text, each distinct text read once; a text that is no geometry
    /// stops the question with what is wrong.
    static func fromText(_ args: [Vector], _ n: Int) throws -> Vector {
        var space = GeoSpace.lnglat
        if args.count == 2 {
            guard case .constant(.string(let s), _) = args[1] else {
                throw Diagnostic("the second argument of geometry is \"plane\" or \"lnglat\", written as text", hint: "geometry(zone, \"plane\")")
            }
            switch s.lowercased() {
            case "plane", "xy": space = .plane
            case "lnglat", "wgs84": space = .lnglat
            default: throw Diagnostic("\(s.quoted) is neither \"plane\" nor \"lnglat\"", hint: "geometry(zone, \"plane\") for x and y on a plan")
            }
        }
        func read(_ text: String) throws -> Geometry? {
            do {
                if GeoJSONGeometry.looksLike(Substring(text)) { return try GeoJSONGeometry.parse(text, space: space) }
                return try WKT.parse(text, space: space)
            } catch let e as WKT.ParseError {
                throw Diagnostic("\(String(text.prefix(40)).quoted) is no geometry: \(e.message)", hint: "write well-known text, as POINT (21.16 42.66) or POLYGON ((0 0, 10 0, 10 10, 0 0))")
            } catch let e as GeoJSONGeometry.ParseError {
                throw Diagnostic("\(String(text.prefix(40)).quoted) is no geometry: \(e.message)")
            }
        }
        switch args[0] {
        case .constant(let v, _):
            guard case .string(let s) = v, let g = try read(s) else { return .constant(.null, .geometry) }
            return .constant(.geometry(g), .geometry)
        case .column(let c):
            guard case .string(let s) = c.storage else { return .constant(.null, .geometry) }
            var parsed = [Geometry?](repeating: nil, count: s.dictionary.count)
            for code in GeometryColumns.usedCodes(s, c) { parsed[code] = try read(s.dictionary[code]) }
            var b = GeometryBuilder(space: space)
            var valid = Bitmap(count: n, value: true)
            for r in 0..<n {
                if c.isValid(r), let g = parsed[Int(s.codes[r])] { b.append(g) } else { b.appendNull(); valid[r] = false }
            }
            return .column(Column(name: "", storage: .geometry(b.storage), validity: valid))
        }
    }
}

/// One geometry argument, row by row, without making a value for a row of a point column.
struct GeometryArgument {
    let vector: Vector
    let storage: GeometryStorage?
    let constant: Geometry?

    init(_ v: Vector) {
        vector = v
        switch v {
        case .column(let c):
            if case .geometry(let s) = c.storage { storage = s } else { storage = nil }
            constant = nil
        case .constant(let value, _):
            storage = nil
            if case .geometry(let g) = value { constant = g } else { constant = nil }
        }
    }

    var space: GeoSpace { storage?.space ?? constant?.space ?? .lnglat }

    /// The row's geometry; nil when it is null.
    func at(_ row: Int) -> Geometry? {
        if let storage {
            guard vector.isValid(row) else { return nil }
            return storage[row]
        }
        return constant
    }
}
