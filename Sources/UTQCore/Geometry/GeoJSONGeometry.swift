/// GeoJSON's geometry objects (RFC 7946): `{"type": "Point", "coordinates": [21.16, 42.66]}`
/// and the others, read into a `Geometry` and written from one. GeoJSON is lng/lat on WGS 84
/// by definition; a geometry on a plane is written with its x and y as they are.
public enum GeoJSONGeometry {
    public struct ParseError: Error, Sendable {
        public let message: String
    }

    /// The geometry of a GeoJSON geometry object; nil for `null` (a feature without one).
    public static func read(_ value: JSONValue, space: GeoSpace = .lnglat) throws -> Geometry? {
        if value.isNull { return nil }
        guard let type = value["type"]?.string else {
            throw ParseError(message: "a geometry needs a \"type\" (Point, LineString, Polygon …)")
        }
        guard let kind = Geometry.Kind.allCases.first(where: { $0.geoJSONName.lowercased() == type.lowercased() }) else {
            if type == "GeometryCollection" {
                throw ParseError(message: "a GeometryCollection is not read: give each of its geometries a feature of its own")
            }
            throw ParseError(message: "\"\(type)\" is no GeoJSON geometry type")
        }
        guard let coordinates = value["coordinates"] else { throw ParseError(message: "a \(type) needs \"coordinates\"") }
        var g = Geometry(kind: kind, space: space, xs: [], ys: [], rings: [0], parts: [0])
        func position(_ v: JSONValue) throws {
            guard let a = v.array, a.count >= 2, let x = a[0].double, let y = a[1].double, x.isFinite, y.isFinite else {
                throw ParseError(message: "a position is [longitude, latitude], found \(v.text.prefix(40))")
            }
            g.xs.append(x); g.ys.append(y)
        }
        func list(_ v: JSONValue, _ what: String) throws -> [JSONValue] {
            guard let a = v.array else { throw ParseError(message: "\(what) must be an array, found \(v.text.prefix(40))") }
            return a
        }
        func ring(_ v: JSONValue) throws {
            for p in try list(v, "a ring") { try position(p) }
            g.rings.append(Int32(g.xs.count))
        }
        func rings(_ v: JSONValue) throws { for r in try list(v, "a polygon") { try ring(r) } }
        func endPart() { g.parts.append(Int32(g.rings.count - 1)) }
        // An empty coordinates array is an empty geometry, as GEOS writes one.
        if coordinates.array?.isEmpty == true { return g }
        switch kind {
        case .point:
            try position(coordinates); g.rings.append(1); endPart()
        case .lineString:
            try ring(coordinates); endPart()
        case .polygon:
            try rings(coordinates); endPart()
        case .multiPoint:
            for p in try list(coordinates, "a MultiPoint") { try position(p); g.rings.append(Int32(g.xs.count)); endPart() }
        case .multiLineString:
            for l in try list(coordinates, "a MultiLineString") { try ring(l); endPart() }
        case .multiPolygon:
            for p in try list(coordinates, "a MultiPolygon") { try rings(p); endPart() }
        }
        do {
            try GeometryCheck.validate(g)
        } catch let e as WKT.ParseError {
            throw ParseError(message: e.message)
        }
        return g
    }

    /// The geometry object as compact JSON text.
    public static func text(_ g: Geometry) -> String {
        var out = "{\"type\":\"\(g.kind.geoJSONName)\",\"coordinates\":"
        func position(_ i: Int) -> String { "[" + NumberText.double(g.xs[i]) + "," + NumberText.double(g.ys[i]) + "]" }
        func ring(_ k: Int) -> String { "[" + g.pointRange(ring: k).map(position).joined(separator: ",") + "]" }
        func rings(_ p: Int) -> String { "[" + g.ringRange(part: p).map(ring).joined(separator: ",") + "]" }
        if g.isEmpty { return out + "[]}" }
        switch g.kind {
        case .point: out += position(0)
        case .lineString: out += ring(0)
        case .polygon: out += rings(0)
        case .multiPoint: out += "[" + (0..<g.partCount).map { position(Int(g.rings[Int(g.parts[$0])])) }.joined(separator: ",") + "]"
        case .multiLineString: out += "[" + (0..<g.partCount).map { ring(Int(g.parts[$0])) }.joined(separator: ",") + "]"
        case .multiPolygon: out += "[" + (0..<g.partCount).map(rings).joined(separator: ",") + "]"
        }
        return out + "}"
    }

    /// A geometry from text that holds GeoJSON: the object itself, or a member written
    /// around it as exports cut it out of a feature (`"geometry": {"type": …}`).
    public static func parse(_ text: String, space: GeoSpace = .lnglat) throws -> Geometry? {
        var body = Substring(text).drop(while: { $0.isWhitespace })
        if body.hasPrefix("\"geometry\"") {
            body = body.dropFirst("\"geometry\"".count).drop(while: { $0.isWhitespace })
            guard body.first == ":" else { throw ParseError(message: "expected : after \"geometry\"") }
            body = body.dropFirst()
        }
        // Text cut out of a feature may keep the feature's closing brace after the geometry's.
        let bytes = Array(body.utf8)
        let value: JSONValue = try bytes.withUnsafeBytes { b in
            var reader = JSONReader(b)
            do {
                reader.skipWhitespace()
                let v = try reader.parseValue(depth: 0)
                while let c = reader.peek(), c == UInt8(ascii: "}") || c == UInt8(ascii: ",") || c <= 0x20 { reader.pos += 1 }
                guard reader.peek() == nil else { throw ParseError(message: "not GeoJSON: text follows the geometry") }
                return v
            } catch let e as JSONSyntaxError {
                throw ParseError(message: "not GeoJSON: \(e.message)")
            }
        }
        // A feature's text holds its geometry inside.
        if value["type"]?.string == "Feature" { return try read(value["geometry"] ?? .null, space: space) }
        return try read(value, space: space)
    }

    /// Whether a text starts as a GeoJSON geometry does: `{"type": "Point", …` or
    /// `"geometry": {…`.
    public static func looksLike(_ text: Substring) -> Bool {
        let s = text.drop(while: { $0.isWhitespace })
        if s.hasPrefix("\"geometry\"") { return true }
        guard s.first == "{" else { return false }
        let head = s.prefix(200)
        return head.contains("\"coordinates\"") || Geometry.Kind.allCases.contains { head.contains("\"\($0.geoJSONName)\"") }
    }
}
