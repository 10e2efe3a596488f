/// Well-known binary, as PostGIS sends a geometry (as hex, in its extended form with an
/// SRID): every coordinate exact, where text would round it.
public enum WKB {
    /// The geometry of hex (E)WKB text, as PostgreSQL writes a geometry column; its SRID
    /// 4326 (or none, with `default`) says lng/lat, any other a plane.
    public static func parse(hex: UnsafeRawBufferPointer, default space: GeoSpace = .lnglat) throws -> Geometry {
        guard hex.count % 2 == 0 else { throw WKT.ParseError(message: "hex WKB has an odd number of digits", offset: 0) }
        var bytes = [UInt8](repeating: 0, count: hex.count / 2)
        func digit(_ c: UInt8) throws -> UInt8 {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: throw WKT.ParseError(message: "hex WKB holds a character that is no hex digit", offset: 0)
            }
        }
        for i in 0..<bytes.count { bytes[i] = try digit(hex[2 * i]) << 4 | digit(hex[2 * i + 1]) }
        return try parse(bytes, default: space)
    }

    public static func parse(_ bytes: [UInt8], default space: GeoSpace = .lnglat) throws -> Geometry {
        var r = Reader(bytes: bytes)
        var g = Geometry(kind: .point, space: space, xs: [], ys: [], rings: [0], parts: [0])
        try r.geometry(&g, top: true, expected: nil)
        guard r.at == bytes.count else { throw WKT.ParseError(message: "WKB has bytes after its geometry", offset: r.at) }
        return g
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var little = true

        mutating func byte() throws -> UInt8 {
            guard at < bytes.count else { throw WKT.ParseError(message: "WKB is cut short", offset: at) }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func uint32() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw WKT.ParseError(message: "WKB is cut short", offset: at) }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(bytes[at + k]) << (8 * (little ? k : 3 - k)) }
            at += 4
            return v
        }

        mutating func double() throws -> Double {
            guard at + 8 <= bytes.count else { throw WKT.ParseError(message: "WKB is cut short", offset: at) }
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[at + k]) << (8 * (little ? k : 7 - k)) }
            at += 8
            return Double(bitPattern: v)
        }

        /// A count that the remaining bytes can hold (a damaged count would ask for gigabytes).
        mutating func count(_ minimumBytes: Int) throws -> Int {
            let n = Int(try uint32())
            guard n * minimumBytes <= bytes.count - at else { throw WKT.ParseError(message: "WKB says it holds more than it does", offset: at) }
            return n
        }

        /// One geometry, its parts added to `g`; `expected`: the kind a multi- geometry's member must be.
        mutating func geometry(_ g: inout Geometry, top: Bool, expected: Geometry.Kind?) throws {
            little = try byte() == 1
            let word = try uint32()
            // EWKB flags: 0x20000000 SRID follows, 0x80000000 Z, 0x40000000 M; ISO WKB adds
            // 1000 (Z), 2000 (M) or 3000 (ZM) to the type.
            let hasSRID = word & 0x2000_0000 != 0
            var extra = (word & 0x8000_0000 != 0 ? 1 : 0) + (word & 0x4000_0000 != 0 ? 1 : 0)
            var type = Int(word & 0x0FFF_FFFF)
            if type > 1000 { extra += type / 1000 == 3 ? 2 : 1; type %= 1000 }
            if hasSRID {
                let srid = try uint32()
                if top { g.space = srid == 4326 || srid == 0 && g.space == .lnglat ? .lnglat : .plane }
            }
            guard let kind = Geometry.Kind(rawValue: UInt8(clamping: type)), type >= 1, type <= 6 else {
                throw WKT.ParseError(message: type == 7 ? "a geometry collection is not read" : "WKB type \(type) is no geometry utq reads", offset: at)
            }
            if let expected, kind != expected { throw WKT.ParseError(message: "a multi- geometry holds a \(kind.wktName)", offset: at) }
            if top { g.kind = kind }
            let width = 16 + 8 * extra
            func point() throws {
                g.xs.append(try double()); g.ys.append(try double())
                for _ in 0..<extra { _ = try double() }
            }
            func ring() throws {
                for _ in 0..<(try count(width)) { try point() }
                g.rings.append(Int32(g.xs.count))
            }
            func endPart() { g.parts.append(Int32(g.rings.count - 1)) }
            switch kind {
            case .point:
                try point()
                // POINT EMPTY is written as NaN coordinates.
                if g.xs.last!.isNaN { g.xs.removeLast(); g.ys.removeLast(); return }
                g.rings.append(Int32(g.xs.count)); endPart()
            case .lineString:
                try ring(); endPart()
            case .polygon:
                for _ in 0..<(try count(4)) { try ring() }
                endPart()
            case .multiPoint, .multiLineString, .multiPolygon:
                for _ in 0..<(try count(9)) {
                    let keep = little
                    try geometry(&g, top: false, expected: kind.single)
                    little = keep
                }
            }
        }
    }
}

extension Geometry {
    /// A geometry as a database sends it: hex EWKB (PostGIS's own text for a geometry), or
    /// well-known text (from a text column, or ST_AsText).
    public static func fromDatabase(_ cell: UnsafeRawBufferPointer, space: GeoSpace) throws -> Geometry {
        guard let first = cell.first else { throw WKT.ParseError(message: "an empty text is no geometry", offset: 0) }
        if first == UInt8(ascii: "0") { return try WKB.parse(hex: cell, default: space) }
        return try WKT.parse(String(decoding: cell, as: UTF8.self), space: space)
    }

    /// The geometry as PostGIS reads it: EWKT with SRID 4326 for lng/lat (so it is a WGS 84
    /// geometry), plain WKT on a plane; every digit kept.
    public var databaseText: String {
        space == .lnglat ? "SRID=4326;" + WKT.text(self) : WKT.text(self)
    }
}
