/// Well-known text, the geometry format every GIS reads and writes: `POINT (21.16 42.66)`,
/// `LINESTRING (0 0, 10 5)`, `POLYGON ((0 0, 10 0, 10 10, 0 0))`, and the MULTI- forms.
/// Written with every digit a coordinate has (it reads back the same); read with or without
/// a PostGIS `SRID=…;` prefix, Z and M coordinates dropped.
public enum WKT {
    // MARK: writing

    /// The geometry in full.
    public static func text(_ g: Geometry) -> String {
        var out = g.kind.wktName
        if g.isEmpty { return out + " EMPTY" }
        out += " "
        switch g.kind {
        case .point:
            out += "(" + coordinate(g, 0) + ")"
        case .lineString:
            out += ring(g, 0)
        case .polygon:
            out += rings(g, part: 0)
        case .multiPoint:
            out += "(" + (0..<g.partCount).map { "(" + coordinate(g, Int(g.rings[Int(g.parts[$0])])) + ")" }.joined(separator: ", ") + ")"
        case .multiLineString:
            out += "(" + (0..<g.partCount).map { ring(g, Int(g.parts[$0])) }.joined(separator: ", ") + ")"
        case .multiPolygon:
            out += "(" + (0..<g.partCount).map { rings(g, part: $0) }.joined(separator: ", ") + ")"
        }
        return out
    }

    /// A short form for a table's cell: a point in full, anything larger by its kind, its first
    /// coordinate and its size (`LINESTRING (21.16 42.66, … 24 points)`).
    public static func short(_ g: Geometry, digits: Int? = nil) -> String {
        guard g.kind != .point, !g.isEmpty else {
            guard !g.isEmpty else { return g.kind.wktName + " EMPTY" }
            return "POINT (" + coordinate(g, 0, digits: digits) + ")"
        }
        if g.pointCount <= 3 && g.kind == .lineString {
            return "LINESTRING (" + g.xs.indices.map { coordinate(g, $0, digits: digits) }.joined(separator: ", ") + ")"
        }
        var size = NumberText.counted(g.pointCount, "point")
        if g.kind.isMulti { size = NumberText.counted(g.partCount, "part") + ", " + size }
        return "\(g.kind.wktName) (\(coordinate(g, 0, digits: digits)), … \(size))"
    }

    static func coordinate(_ g: Geometry, _ i: Int, digits: Int? = nil) -> String {
        guard let digits else { return NumberText.double(g.xs[i]) + " " + NumberText.double(g.ys[i]) }
        return trimmed(NumberText.fixed(g.xs[i], decimals: digits)) + " " + trimmed(NumberText.fixed(g.ys[i], decimals: digits))
    }

    /// 21.1600 → 21.16: fixed digits without the zeros that say nothing.
    static func trimmed(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.last == "0" { t = t.dropLast() }
        if t.last == "." { t = t.dropLast() }
        return String(t)
    }

    private static func ring(_ g: Geometry, _ k: Int) -> String {
        "(" + g.pointRange(ring: k).map { coordinate(g, $0) }.joined(separator: ", ") + ")"
    }

    private static func rings(_ g: Geometry, part: Int) -> String {
        "(" + g.ringRange(part: part).map { ring(g, $0) }.joined(separator: ", ") + ")"
    }

    // MARK: reading

    /// Why a text is no geometry, with where.
    public struct ParseError: Error, Sendable {
        public let message: String
        public let offset: Int
    }

    /// A geometry from its WKT (or EWKT, with `SRID=n;`); the space is the caller's choice,
    /// since WKT does not say.
    public static func parse(_ text: String, space: GeoSpace = .lnglat) throws -> Geometry {
        var p = Reader(bytes: Array(text.utf8))
        p.skipSpace()
        if p.startsWithSRID() {
            while let c = p.peek(), c != UInt8(ascii: ";") { p.i += 1 }
            guard p.eat(UInt8(ascii: ";")) else { throw p.error("expected ; after SRID=…") }
        }
        let g = try p.geometry(space)
        p.skipSpace()
        guard p.atEnd else { throw p.error("unexpected text after the geometry") }
        return g
    }

    /// Whether a text looks like WKT at all (its first word is a geometry's name): a column of
    /// such texts is read as geometries.
    public static func looksLike(_ text: Substring) -> Bool {
        var s = text.drop(while: { $0 == " " })
        if s.uppercased().hasPrefix("SRID="), let semi = s.firstIndex(of: ";") { s = s[s.index(after: semi)...] }
        let word = s.prefix(while: { $0.isLetter }).uppercased()
        return Geometry.Kind.allCases.contains { $0.wktName == word }
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }
        func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

        func error(_ message: String) -> ParseError { ParseError(message: message, offset: i) }

        mutating func skipSpace() {
            while let c = peek(), c == 32 || c == 9 || c == 10 || c == 13 { i += 1 }
        }

        func startsWithSRID() -> Bool {
            let word = bytes[i..<min(bytes.count, i + 5)].map { Character(Unicode.Scalar($0)) }
            return String(word).uppercased() == "SRID="
        }

        func peekWord() -> String {
            var j = i
            while j < bytes.count, (bytes[j] | 0x20) >= UInt8(ascii: "a"), (bytes[j] | 0x20) <= UInt8(ascii: "z") { j += 1 }
            return String(decoding: bytes[i..<j], as: UTF8.self)
        }

        mutating func word() -> String {
            skipSpace()
            let w = peekWord()
            i += w.utf8.count
            return w.uppercased()
        }

        mutating func eat(_ c: UInt8) -> Bool {
            skipSpace()
            guard peek() == c else { return false }
            i += 1
            return true
        }

        mutating func expect(_ c: UInt8) throws {
            guard eat(c) else { throw error("expected \(Character(Unicode.Scalar(c)))") }
        }

        mutating func number() throws -> Double {
            skipSpace()
            let start = i
            while let c = peek(), (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { i += 1 }
            guard i > start, let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else {
                i = start
                throw error("expected a number")
            }
            return v
        }

        /// One coordinate: x y, and any z or m after them, dropped.
        mutating func coordinate(_ g: inout Geometry) throws {
            let x = try number(), y = try number()
            g.xs.append(x); g.ys.append(y)
            skipSpace()
            while let c = peek(), c != UInt8(ascii: ","), c != UInt8(ascii: ")") { _ = try number(); skipSpace() }
        }

        /// `(x y, x y, …)`
        mutating func ring(_ g: inout Geometry) throws {
            try expect(UInt8(ascii: "("))
            repeat { try coordinate(&g) } while eat(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            g.rings.append(Int32(g.xs.count))
        }

        /// `((…), (…))`: a polygon's rings.
        mutating func rings(_ g: inout Geometry) throws {
            try expect(UInt8(ascii: "("))
            repeat { try ring(&g) } while eat(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
        }

        mutating func geometry(_ space: GeoSpace) throws -> Geometry {
            let name = word()
            guard let kind = Geometry.Kind.allCases.first(where: { $0.wktName == name }) else {
                throw error(name.isEmpty ? "expected a geometry's name, as POINT or POLYGON" : "\(name) is no geometry WKT knows")
            }
            // Z, M or ZM after the name.
            let save = i
            let dims = word()
            if !["Z", "M", "ZM"].contains(dims) { i = save }
            var g = Geometry(kind: kind, space: space, xs: [], ys: [], rings: [0], parts: [0])
            skipSpace()
            if peekWord().uppercased() == "EMPTY" { _ = word(); return g }
            // A function rather than a closure over g: a captured g would be one variable, and
            // writing its coordinates and rings at once a conflict.
            func endPart(_ g: inout Geometry) { g.parts.append(Int32(g.rings.count - 1)) }
            switch kind {
            case .point:
                try ring(&g); endPart(&g)
                guard g.xs.count == 1 else { throw error("a point has one coordinate") }
            case .lineString:
                try ring(&g); endPart(&g)
            case .polygon:
                try rings(&g); endPart(&g)
            case .multiPoint:
                try expect(UInt8(ascii: "("))
                repeat {
                    // Both MULTIPOINT ((1 2), (3 4)) and MULTIPOINT (1 2, 3 4) are written.
                    if eat(UInt8(ascii: "(")) {
                        try coordinate(&g)
                        try expect(UInt8(ascii: ")"))
                    } else {
                        try coordinate(&g)
                    }
                    g.rings.append(Int32(g.xs.count)); endPart(&g)
                } while eat(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case .multiLineString:
                try expect(UInt8(ascii: "("))
                repeat { try ring(&g); endPart(&g) } while eat(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case .multiPolygon:
                try expect(UInt8(ascii: "("))
                repeat { try rings(&g); endPart(&g) } while eat(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            }
            try GeometryCheck.validate(g)
            return g
        }
    }
}

/// What every geometry must be to be measured: lines of two points or more, polygon rings
/// closed and of four points or more.
enum GeometryCheck {
    static func validate(_ g: Geometry) throws {
        for k in 0..<g.ringCount {
            let r = g.pointRange(ring: k)
            switch g.kind.dimension {
            case 1 where r.count < 2:
                throw WKT.ParseError(message: "a line needs two points or more", offset: 0)
            case 2:
                guard r.count >= 4 else { throw WKT.ParseError(message: "a polygon's ring needs four points or more (the last the first)", offset: 0) }
                guard g.xs[r.first!] == g.xs[r.last!], g.ys[r.first!] == g.ys[r.last!] else {
                    throw WKT.ParseError(message: "a polygon's ring must end where it starts", offset: 0)
                }
            default: break
            }
        }
    }
}
