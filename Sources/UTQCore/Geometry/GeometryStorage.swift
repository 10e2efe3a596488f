/// A column of geometries: the coordinates of every row in two arrays, with offsets for the
/// rows' parts and rings (the layout of `Geometry`, for many rows at once). A column whose
/// every row is a point (stops, entries, vehicle positions) keeps no offsets at all: row i is
/// coordinate i, 16 bytes a row.
public struct GeometryStorage: Sendable {
    public var space: GeoSpace
    /// The kind of each row's geometry (a null row's is `.point`).
    public var kinds: [Geometry.Kind]
    public var xs: [Double]
    public var ys: [Double]
    /// Where each row's parts start in `parts`, then the end; nil when every row is one point.
    public var rows: [Int32]?
    /// Where each part's rings start in `rings`, then the end.
    public var parts: [Int32]
    /// Where each ring's coordinates start in `xs`/`ys`, then the end.
    public var rings: [Int32]

    public init(space: GeoSpace, kinds: [Geometry.Kind], xs: [Double], ys: [Double], rows: [Int32]?, parts: [Int32], rings: [Int32]) {
        self.space = space; self.kinds = kinds; self.xs = xs; self.ys = ys; self.rows = rows; self.parts = parts; self.rings = rings
    }

    /// A column of points, one a row (a null row's coordinates are NaN).
    public static func points(xs: [Double], ys: [Double], space: GeoSpace) -> GeometryStorage {
        GeometryStorage(space: space, kinds: [Geometry.Kind](repeating: .point, count: xs.count), xs: xs, ys: ys, rows: nil, parts: [], rings: [])
    }

    public var count: Int { kinds.count }
    /// Whether every row is a single point, kept without offsets.
    public var isPoints: Bool { rows == nil }

    /// The geometry of one row.
    public subscript(row: Int) -> Geometry {
        guard let rows else { return .point(xs[row], ys[row], space: space) }
        let p0 = Int(rows[row]), p1 = Int(rows[row + 1])
        let r0 = Int(parts[p0]), r1 = Int(parts[p1])
        let c0 = Int(rings[r0]), c1 = Int(rings[r1])
        return Geometry(kind: kinds[row], space: space, xs: Array(xs[c0..<c1]), ys: Array(ys[c0..<c1]),
                        rings: rings[r0...r1].map { $0 - Int32(c0) }, parts: parts[p0...p1].map { $0 - Int32(r0) })
    }

    /// The coordinates of one row, as a range of `xs`/`ys`.
    public func coordinateRange(_ row: Int) -> Range<Int> {
        guard let rows else { return row..<(row + 1) }
        return Int(rings[Int(parts[Int(rows[row])])])..<Int(rings[Int(parts[Int(rows[row + 1])])])
    }

    /// The rows at the given indexes, in that order; -1 gives an empty point (a null).
    public func gather(_ indexes: [Int32]) -> GeometryStorage {
        if rows == nil {
            var gx = [Double](repeating: .nan, count: indexes.count), gy = gx
            for (i, r) in indexes.enumerated() where r >= 0 { gx[i] = xs[Int(r)]; gy[i] = ys[Int(r)] }
            return .points(xs: gx, ys: gy, space: space)
        }
        // Each row's parts, rings and coordinates copied as ranges, offsets moved: a join that
        // gives every point its zone copies the zone's arrays, and makes no geometry per row.
        guard let rows else { return self }
        var kinds = [Geometry.Kind](), xs = [Double](), ys = [Double](), outRows: [Int32] = [0], outParts: [Int32] = [0], outRings: [Int32] = [0]
        kinds.reserveCapacity(indexes.count); outRows.reserveCapacity(indexes.count + 1)
        for r in indexes {
            guard r >= 0 else { kinds.append(.point); outRows.append(outRows.last!); continue }
            let row = Int(r)
            let p0 = Int(rows[row]), p1 = Int(rows[row + 1])
            let r0 = Int(parts[p0]), r1 = Int(parts[p1])
            let c0 = Int(rings[r0]), c1 = Int(rings[r1])
            let partBase = Int32(outRings.count - 1) - Int32(r0), ringBase = Int32(xs.count) - Int32(c0)
            for p in p0..<p1 { outParts.append(parts[p + 1] + partBase) }
            for k in r0..<r1 { outRings.append(rings[k + 1] + ringBase) }
            xs.append(contentsOf: self.xs[c0..<c1]); ys.append(contentsOf: self.ys[c0..<c1])
            kinds.append(self.kinds[row])
            outRows.append(Int32(outParts.count - 1))
        }
        return GeometryStorage(space: space, kinds: kinds, xs: xs, ys: ys, rows: outRows, parts: outParts, rings: outRings)
    }
}

/// Builds a column of geometries a row at a time, keeping the offset-free layout while every
/// row is a point.
public struct GeometryBuilder: Sendable {
    public private(set) var storage: GeometryStorage

    public init(space: GeoSpace) {
        storage = .points(xs: [], ys: [], space: space)
    }

    public mutating func reserve(_ n: Int) {
        storage.kinds.reserveCapacity(n)
        storage.xs.reserveCapacity(n)
        storage.ys.reserveCapacity(n)
    }

    /// Gives every row so far offsets, so rows of other kinds can follow.
    private mutating func withOffsets() {
        guard storage.rows == nil else { return }
        let n = storage.kinds.count
        storage.rows = (0...n).map { Int32($0) }
        storage.parts = (0...n).map { Int32($0) }
        storage.rings = (0...n).map { Int32($0) }
        if storage.rings.isEmpty { storage.rings = [0] }
    }

    /// A null row: an empty point when offsets are kept, NaN coordinates when not.
    public mutating func appendNull() {
        if storage.rows == nil {
            storage.kinds.append(.point); storage.xs.append(.nan); storage.ys.append(.nan)
            return
        }
        storage.kinds.append(.point)
        storage.rows!.append(storage.rows!.last!)
    }

    public mutating func appendPoint(_ x: Double, _ y: Double) {
        if storage.rows == nil {
            storage.kinds.append(.point); storage.xs.append(x); storage.ys.append(y)
            return
        }
        append(.point(x, y, space: storage.space))
    }

    public mutating func append(_ g: Geometry) {
        if g.kind == .point, g.pointCount == 1, storage.rows == nil {
            appendPoint(g.xs[0], g.ys[0])
            return
        }
        withOffsets()
        let c0 = Int32(storage.xs.count), r0 = Int32(storage.rings.count - 1), p0 = Int32(storage.parts.count - 1)
        storage.xs += g.xs
        storage.ys += g.ys
        for k in g.rings.dropFirst() { storage.rings.append(c0 + k) }
        for k in g.parts.dropFirst() { storage.parts.append(r0 + k) }
        storage.rows!.append(p0 + Int32(g.partCount))
        storage.kinds.append(g.kind)
    }

    /// A row of another column, copied.
    public mutating func append(_ other: GeometryStorage, row: Int) {
        if other.rows == nil { appendPoint(other.xs[row], other.ys[row]); return }
        append(other[row])
    }
}

extension Column {
    /// A geometry column as text, each geometry its well-known text: for writers of formats
    /// that have no geometry type.
    public func asWKTText() -> Column {
        guard case .geometry(let g) = storage else { return self }
        var interner = ByteInterner()
        var codes = [UInt32](repeating: 0, count: g.count)
        for r in 0..<g.count where isValid(r) { codes[r] = interner.intern(WKT.text(g[r])) }
        var dictionary = interner.strings()
        if dictionary.isEmpty { dictionary = [""] }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)), validity: validity)
    }
}
