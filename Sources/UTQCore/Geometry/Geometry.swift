/// Where a geometry's coordinates lie, which says what a distance, a length or an area means.
public enum GeoSpace: String, Sendable, Hashable {
    /// Longitude and latitude in degrees on WGS 84 (EPSG:4326, as GeoJSON and GTFS write
    /// them): distances, lengths and areas are geodesic, in metres.
    case lnglat
    /// x and y on a plane (a Behaviour Mapper floor plan in map points, a drawing in metres):
    /// distances are straight lines in the plane's own units.
    case plane

    /// How `describe` and messages name it.
    public var displayName: String { self == .lnglat ? "lng/lat" : "plane" }
}

/// One geometry: a point, line, polygon or a multi- form of them, as one value. Its
/// coordinates are kept in two arrays, rings and parts as offsets into them (the layout of a
/// column of geometries, `GeometryStorage`, for one row):
///
/// - a point is one part of one ring of one coordinate;
/// - a line is one part of one ring (its points in order);
/// - a polygon is one part whose first ring is the outer boundary and the others its holes,
///   each ring closed (its last coordinate is its first), as WKT and GeoJSON write them;
/// - a multi- geometry has one part per member.
public struct Geometry: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        case point = 1, lineString, polygon, multiPoint, multiLineString, multiPolygon

        /// The name WKT writes: `POINT`, `LINESTRING`, …
        public var wktName: String {
            switch self {
            case .point: return "POINT"
            case .lineString: return "LINESTRING"
            case .polygon: return "POLYGON"
            case .multiPoint: return "MULTIPOINT"
            case .multiLineString: return "MULTILINESTRING"
            case .multiPolygon: return "MULTIPOLYGON"
            }
        }

        /// The name GeoJSON writes: `Point`, `LineString`, …
        public var geoJSONName: String {
            switch self {
            case .point: return "Point"
            case .lineString: return "LineString"
            case .polygon: return "Polygon"
            case .multiPoint: return "MultiPoint"
            case .multiLineString: return "MultiLineString"
            case .multiPolygon: return "MultiPolygon"
            }
        }

        /// What one part of this kind is: a multi-polygon's parts are polygons.
        public var single: Kind {
            switch self {
            case .multiPoint: return .point
            case .multiLineString: return .lineString
            case .multiPolygon: return .polygon
            default: return self
            }
        }

        public var isMulti: Bool { self != single }
        /// 0 for points, 1 for lines, 2 for polygons.
        public var dimension: Int {
            switch single {
            case .point: return 0
            case .lineString: return 1
            default: return 2
            }
        }
    }

    public var kind: Kind
    public var space: GeoSpace
    /// x (longitude) of every coordinate, ring after ring.
    public var xs: [Double]
    /// y (latitude) of every coordinate.
    public var ys: [Double]
    /// Where each ring starts in `xs`/`ys`, then the end: one more entry than there are rings.
    public var rings: [Int32]
    /// Where each part starts in `rings`, then the end: one more entry than there are parts.
    public var parts: [Int32]

    public init(kind: Kind, space: GeoSpace, xs: [Double], ys: [Double], rings: [Int32], parts: [Int32]) {
        self.kind = kind; self.space = space; self.xs = xs; self.ys = ys; self.rings = rings; self.parts = parts
    }

    // MARK: making one

    public static func point(_ x: Double, _ y: Double, space: GeoSpace = .lnglat) -> Geometry {
        Geometry(kind: .point, space: space, xs: [x], ys: [y], rings: [0, 1], parts: [0, 1])
    }

    public static func lineString(_ points: [(x: Double, y: Double)], space: GeoSpace = .lnglat) -> Geometry {
        Geometry(kind: .lineString, space: space, xs: points.map(\.x), ys: points.map(\.y), rings: [0, Int32(points.count)], parts: [0, 1])
    }

    /// A polygon from its rings (outer first, then holes); rings are closed if they are not.
    public static func polygon(_ rings: [[(x: Double, y: Double)]], space: GeoSpace = .lnglat) -> Geometry {
        multi(.polygon, [rings], space: space)
    }

    /// A geometry of one kind from its parts, each a list of rings (a point's and a line's
    /// one ring, a polygon's outer ring and holes). Polygon rings are closed if they are not.
    public static func multi(_ kind: Kind, _ members: [[[(x: Double, y: Double)]]], space: GeoSpace = .lnglat) -> Geometry {
        var g = Geometry(kind: kind, space: space, xs: [], ys: [], rings: [0], parts: [0])
        for member in members {
            for ring in member {
                for p in ring { g.xs.append(p.x); g.ys.append(p.y) }
                if kind.dimension == 2, let first = ring.first, let last = ring.last, first != last {
                    g.xs.append(first.x); g.ys.append(first.y)
                }
                g.rings.append(Int32(g.xs.count))
            }
            g.parts.append(Int32(g.rings.count - 1))
        }
        return g
    }

    // MARK: reading one

    public var partCount: Int { parts.count - 1 }
    public var ringCount: Int { rings.count - 1 }
    public var pointCount: Int { xs.count }
    /// No coordinates at all (`POINT EMPTY`, a collection of nothing).
    public var isEmpty: Bool { xs.isEmpty }

    /// The rings of one part, as indexes into `rings`.
    public func ringRange(part: Int) -> Range<Int> { Int(parts[part])..<Int(parts[part + 1]) }
    /// The coordinates of one ring, as indexes into `xs` and `ys`.
    public func pointRange(ring: Int) -> Range<Int> { Int(rings[ring])..<Int(rings[ring + 1]) }

    /// The coordinates of one ring as pairs.
    public func ring(_ k: Int) -> [(x: Double, y: Double)] { pointRange(ring: k).map { (xs[$0], ys[$0]) } }

    /// One member of a multi- geometry as a geometry of its own (the whole, for a single one).
    public func part(_ p: Int) -> Geometry {
        let rr = ringRange(part: p)
        let first = Int(rings[rr.lowerBound]), last = Int(rings[rr.upperBound])
        return Geometry(kind: kind.single, space: space, xs: Array(xs[first..<last]), ys: Array(ys[first..<last]),
                        rings: rings[rr.lowerBound...rr.upperBound].map { $0 - Int32(first) }, parts: [0, Int32(rr.count)])
    }

    /// The smallest box holding every coordinate; nil when the geometry is empty.
    public var bounds: Bounds? {
        guard var b = Bounds(x: xs.first ?? .nan, y: ys.first ?? .nan) else { return nil }
        for i in xs.indices { b.add(xs[i], ys[i]) }
        return b
    }
}

/// An axis-aligned box: the extent of a geometry, a cell of an index, the frame of a map.
public struct Bounds: Sendable, Hashable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// A box of one point; nil when the point is not a number.
    public init?(x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return nil }
        self.init(minX: x, minY: y, maxX: x, maxY: y)
    }

    public mutating func add(_ x: Double, _ y: Double) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    public mutating func add(_ b: Bounds) {
        add(b.minX, b.minY)
        add(b.maxX, b.maxY)
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    public func intersects(_ b: Bounds) -> Bool {
        minX <= b.maxX && b.minX <= maxX && minY <= b.maxY && b.minY <= maxY
    }

    public func contains(_ x: Double, _ y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// The box grown by `d` on every side.
    public func expanded(by d: Double) -> Bounds {
        Bounds(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d)
    }
}
