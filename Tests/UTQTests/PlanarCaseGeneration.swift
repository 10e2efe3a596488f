import Foundation
@testable import UTQCore

extension PlanarCases {
    /// The cases every reference test compares: hand-made ones, then seeded random scenes.
    static func standard(seed: UInt64 = 20_240_601) -> PlanarCases {
        var cases = PlanarCases()
        var maker = PlanarGeometryMaker(rng: PlanarRandom(seed: seed))
        cases.addHandMade()
        for scene in 0..<14 { cases.addGridScene(&maker, scene) }
        for scene in 0..<10 { cases.addFloatScene(&maker, scene) }
        cases.addBuffers(&maker)
        cases.addUnions(&maker)
        return cases
    }

    // MARK: hand-made

    mutating func addHandMade() {
        func g(_ text: String, _ rings: [[[PlanarXY]]], _ kind: Geometry.Kind) -> Int { add(.multi(kind, rings, space: .plane), text) }
        let square = g("square", [[[(0, 0), (4, 0), (4, 4), (0, 4)]]], .polygon)
        let squareWithHole = g("square with hole", [[[(0, 0), (8, 0), (8, 8), (0, 8)], [(2, 2), (2, 6), (6, 6), (6, 2)]]], .polygon)
        let neighbour = g("neighbour sharing an edge", [[[(4, 0), (8, 0), (8, 4), (4, 4)]]], .polygon)
        let cornerTouch = g("square touching at a corner", [[[(4, 4), (6, 4), (6, 6), (4, 6)]]], .polygon)
        let holeFill = g("polygon filling the hole", [[[(2, 2), (6, 2), (6, 6), (2, 6)]]], .polygon)
        let inside = g("square inside", [[[(1, 1), (3, 1), (3, 3), (1, 3)]]], .polygon)
        let insideTouching = g("square inside touching an edge", [[[(0, 1), (2, 1), (2, 3), (0, 3)]]], .polygon)
        let overlapping = g("overlapping square", [[[(2, 2), (6, 2), (6, 6), (2, 6)]]], .polygon)
        let degenerate = g("zero-area ring", [[[(0, 0), (2, 2), (4, 4), (0, 0)]]], .polygon)
        let spike = g("polygon with horizontal edges", [[[(0, 0), (10, 0), (10, 2), (6, 2), (6, 4), (3, 4), (3, 2), (0, 2)]]], .polygon)
        let multi = g("multipolygon", [[[(10, 10), (12, 10), (12, 12), (10, 12)]], [[(-4, -4), (-2, -4), (-2, -2), (-4, -2)]]], .multiPolygon)
        var points: [Int] = []
        for (x, y, label) in [(0.0, 0.0, "vertex"), (2, 0, "edge"), (2, 2, "inside"), (4, 2, "shared edge"), (5, 5, "hole"),
                              (2, 4, "top edge"), (4, 4, "shared corner"), (-1, 2, "outside on the ray"), (6, 2, "hole corner"),
                              (4.5, 2, "inside the hole's ring"), (8, 2, "far right edge")] {
            points.append(add(.point(x, y, space: .plane), "point at \(label) (\(x) \(y))"))
        }
        let alongEdge = g("line along an edge", [[[(0, 0), (4, 0)]]], .lineString)
        let alongPart = g("line along part of an edge", [[[(1, 0), (3, 0)]]], .lineString)
        let alongAndOut = g("line along an edge and beyond", [[[(2, 0), (6, 0)]]], .lineString)
        let crossing = g("line crossing", [[[(-1, 2), (5, 2)]]], .lineString)
        let insideLine = g("line inside", [[[(1, 1), (3, 3)]]], .lineString)
        let touchingLine = g("line touching from outside", [[[(4, 4), (5, 5)]]], .lineString)
        let endOnEdge = g("line ending on an edge", [[[(2, -2), (2, 0)]]], .lineString)
        let endInside = g("line from inside to outside", [[[(2, 2), (2, -2)]]], .lineString)
        let collinearA = g("collinear overlap A", [[[(0, 0), (3, 0), (3, 3)]]], .lineString)
        let collinearB = g("collinear overlap B", [[[(1, 0), (5, 0)]]], .lineString)
        let closedLine = g("closed line", [[[(0, 0), (4, 0), (4, 4), (0, 0)]]], .lineString)
        let multiLine = g("multiline sharing an end", [[[(0, 0), (2, 0)]], [[(2, 0), (2, 2)]]], .multiLineString)
        let multiPoint = g("multipoint on edge and inside", [[[(2, 0)]], [[(2, 2)]]], .multiPoint)
        let multiPointEdge = g("multipoint on the boundary", [[[(0, 0)]], [[(4, 2)]]], .multiPoint)
        let repeated = g("line with repeated points", [[[(1, 1), (1, 1), (3, 1), (3, 1)]]], .lineString)
        let ids = [square, squareWithHole, neighbour, cornerTouch, holeFill, inside, insideTouching, overlapping, degenerate,
                   spike, multi, alongEdge, alongPart, alongAndOut, crossing, insideLine, touchingLine, endOnEdge, endInside,
                   collinearA, collinearB, closedLine, multiLine, multiPoint, multiPointEdge, repeated] + points
        pairAll(ids)
        // Lines against lines: overlaps both ways round, containment, ends touching, the
        // mod-2 boundary of multi-lines, closed lines without boundary.
        var lineIds: [Int] = []
        for (label, parts) in [
            ("line 0 0 - 6 0", [[(0.0, 0.0), (6, 0)]]),
            ("reversed overlap 8 0 - 3 0", [[(8, 0), (3, 0)]]),
            ("contained sharing an end", [[(0, 0), (2, 0)]]),
            ("contained in the middle", [[(2, 0), (4, 0)]]),
            ("end to end", [[(6, 0), (9, 0)]]),
            ("collinear apart", [[(7, 0), (9, 0)]]),
            ("crossing at an interior vertex", [[(3, -2), (3, 0), (3, 2)]]),
            ("touching at a vertex from one side", [[(3, -2), (3, 0), (4, -2)]]),
            ("zigzag along", [[(0, 0), (2, 0), (2, 1), (4, 1), (4, 0), (6, 0)]]),
            ("closed around", [[(0, 0), (6, 0), (6, 3), (0, 3), (0, 0)]]),
            ("three ends meeting", [[(3, 0), (3, 3)], [(3, 3), (0, 3)], [(3, 3), (6, 6)]]),
            ("two ends meeting", [[(3, 3), (3, 0)], [(3, 3), (6, 3)]]),
            ("loop through the end", [[(6, 0), (7, 1), (8, 0), (6, 0)]]),
        ] as [(String, [[(Double, Double)]])] {
            let rings = parts.map { [$0.map { (x: $0.0, y: $0.1) }] }
            lineIds.append(add(.multi(rings.count == 1 ? .lineString : .multiLineString, rings, space: .plane), label))
        }
        for (x, y) in [(0.0, 0.0), (3.0, 0.0), (6.0, 0.0), (3.0, 3.0)] {
            lineIds.append(add(.point(x, y, space: .plane), "point \(x) \(y) among lines"))
        }
        pairAll(lineIds)

        // A many-vertex polygon (a 1000-gon) with points on its vertices and edges.
        var ring: [PlanarXY] = []
        for k in 0..<1000 {
            let angle = Double(k) * 2 * Double.pi / 1000
            ring.append((PlanarGeometryMaker.snap(100 * cos(angle)), PlanarGeometryMaker.snap(100 * sin(angle))))
        }
        let big = add(.polygon([ring], space: .plane), "1000-gon")
        var bigPairs = [big]
        for k in stride(from: 0, to: 1000, by: 97) {
            bigPairs.append(add(.point(ring[k].x, ring[k].y, space: .plane), "1000-gon vertex \(k)"))
            let next = ring[(k + 1) % 1000]
            bigPairs.append(add(.point((ring[k].x + next.x) / 2, (ring[k].y + next.y) / 2, space: .plane), "1000-gon edge \(k)"))
        }
        for k in bigPairs.dropFirst() { pairs.append([big, k]); pairs.append([k, big]) }
    }

    // MARK: random scenes

    /// A grid polygon and geometries placed exactly on its vertices and edges, along and
    /// across it, sharing edges, inside, overlapping; every ordered pair is compared.
    mutating func addGridScene(_ maker: inout PlanarGeometryMaker, _ scene: Int) {
        let center = (x: PlanarGeometryMaker.snap(maker.uniform(-20, 20)), y: PlanarGeometryMaker.snap(maker.uniform(-20, 20)))
        let radius = maker.uniform(3, 8)
        let base = maker.starPolygon(center: center, radius: radius, vertices: maker.integer(5...14), hole: scene % 2 == 1, grid: true)
        var ids = [add(base, "grid scene \(scene): polygon")]
        let edges = base.edgePairs
        func pick() -> (PlanarXY, PlanarXY) { edges[maker.integer(0...(edges.count - 1))] }
        let box = ((x: center.x - radius * 1.3, y: center.y - radius * 1.3), (x: center.x + radius * 1.3, y: center.y + radius * 1.3))
        for _ in 0..<2 {
            let (a, b) = pick()
            ids.append(add(.point(a.x, a.y, space: .plane), "grid scene \(scene): point on vertex"))
            ids.append(add(.point((a.x + b.x) / 2, (a.y + b.y) / 2, space: .plane), "grid scene \(scene): point on edge"))
            let p = maker.point(in: box, grid: true)
            ids.append(add(.point(p.x, p.y, space: .plane), "grid scene \(scene): point"))
        }
        let (a, b) = pick()
        let mid = (x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        ids.append(add(.lineString([a, b], space: .plane), "grid scene \(scene): line along an edge"))
        ids.append(add(.lineString([mid, b, (b.x + (b.x - a.x), b.y + (b.y - a.y))], space: .plane), "grid scene \(scene): line along half an edge and on"))
        ids.append(add(.lineString([maker.point(in: box, grid: true), center, maker.point(in: box, grid: true)], space: .plane),
                       "grid scene \(scene): line through the centre"))
        ids.append(add(.lineString(maker.walk(from: maker.point(in: box, grid: true), vertices: 6, step: radius / 2, grid: true), space: .plane),
                       "grid scene \(scene): walk"))
        // A polygon sharing the edge a–b, on the outer side (a triangle beyond it).
        let outward = (x: PlanarGeometryMaker.snap(mid.x + (mid.x - center.x)), y: PlanarGeometryMaker.snap(mid.y + (mid.y - center.y)))
        ids.append(add(.polygon([[a, outward, b]], space: .plane), "grid scene \(scene): triangle on an edge"))
        ids.append(add(maker.starPolygon(center: (center.x + radius * 0.8, center.y), radius: radius * 0.7, vertices: 7, hole: false, grid: true),
                       "grid scene \(scene): overlapping polygon"))
        ids.append(add(.polygon([maker.starRing(center: center, minRadius: radius * 0.1, maxRadius: radius * 0.2, vertices: 5, grid: true)], space: .plane),
                       "grid scene \(scene): small polygon at the centre"))
        ids.append(add(.multi(.multiPoint, [[[a]], [[mid]], [[maker.point(in: box, grid: true)]]], space: .plane), "grid scene \(scene): multipoint"))
        ids.append(add(.multi(.multiLineString, [[[a, b]], [maker.walk(from: center, vertices: 4, step: radius / 2, grid: true)]], space: .plane),
                       "grid scene \(scene): multiline"))
        if base.ringCount > 1 {
            // The hole as a polygon of its own: it touches the base along the whole ring.
            ids.append(add(.polygon([base.ring(1)], space: .plane), "grid scene \(scene): the hole filled"))
        }
        if scene % 4 == 0 {
            ids.append(add(.polygon([[a, b, (b.x + (b.x - a.x), b.y + (b.y - a.y)), a]], space: .plane), "grid scene \(scene): zero-area ring"))
            ids.append(add(base, "grid scene \(scene): the polygon again"))
        }
        pairAll(ids)
    }

    /// Float polygons, lines and points in general position, with multi- forms.
    mutating func addFloatScene(_ maker: inout PlanarGeometryMaker, _ scene: Int) {
        let center = (x: maker.uniform(-50, 50), y: maker.uniform(-50, 50))
        let radius = maker.uniform(1, 20)
        var ids: [Int] = []
        ids.append(add(maker.starPolygon(center: center, radius: radius, vertices: maker.integer(5...40), hole: scene % 2 == 0),
                       "float scene \(scene): polygon"))
        ids.append(add(maker.starPolygon(center: (center.x + radius, center.y + radius / 3), radius: radius * 0.8, vertices: 9, hole: false),
                       "float scene \(scene): overlapping polygon"))
        let box = ((x: center.x - 2 * radius, y: center.y - 2 * radius), (x: center.x + 2 * radius, y: center.y + 2 * radius))
        for _ in 0..<3 {
            let p = maker.point(in: box)
            ids.append(add(.point(p.x, p.y, space: .plane), "float scene \(scene): point"))
        }
        ids.append(add(.lineString(maker.walk(from: maker.point(in: box), vertices: maker.integer(2...12), step: radius / 2), space: .plane),
                       "float scene \(scene): walk"))
        let far = (x: center.x + 4 * radius, y: center.y - 4 * radius)
        ids.append(add(.multi(.multiPolygon, [
            [maker.starRing(center: center, minRadius: radius / 3, maxRadius: radius / 2, vertices: 8)],
            [maker.starRing(center: far, minRadius: radius / 3, maxRadius: radius / 2, vertices: 6)],
        ], space: .plane), "float scene \(scene): multipolygon"))
        ids.append(add(.multi(.multiLineString, [
            [maker.walk(from: maker.point(in: box), vertices: 5, step: radius / 3)],
            [maker.walk(from: maker.point(in: box), vertices: 3, step: radius / 3)],
        ], space: .plane), "float scene \(scene): multiline"))
        ids.append(add(.multi(.multiPoint, (0..<4).map { _ in [[maker.point(in: box)]] }, space: .plane), "float scene \(scene): multipoint"))
        pairAll(ids)
    }

    // MARK: buffers and unions

    /// Probe points around a geometry: uniform over its box grown by 1.5 d, and at about d
    /// from its vertices, where the buffer's edge is.
    static func probes(_ g: Geometry, _ d: Double, _ maker: inout PlanarGeometryMaker, count: Int) -> [[Double]] {
        let b = g.bounds!.expanded(by: 1.5 * d)
        var out: [[Double]] = []
        for _ in 0..<(count / 2) { out.append([maker.uniform(b.minX, b.maxX), maker.uniform(b.minY, b.maxY)]) }
        while out.count < count {
            let k = maker.integer(0...(g.pointCount - 1))
            let angle = maker.uniform(0, 2 * Double.pi), r = d * maker.uniform(0.95, 1.05)
            out.append([g.xs[k] + r * cos(angle), g.ys[k] + r * sin(angle)])
        }
        return out
    }

    mutating func addBuffers(_ maker: inout PlanarGeometryMaker) {
        func buffer(_ g: Geometry, _ label: String, _ d: Double, quadrantSegments: Int = 8, probes: Int = 300) {
            let id = add(g, label)
            buffers.append(BufferCase(geometry: id, distance: d, quadrantSegments: quadrantSegments,
                                      probes: Self.probes(g, d, &maker, count: probes)))
        }
        buffer(.point(1, 2, space: .plane), "buffer: point", 3)
        buffer(.point(-123.456, 78.9, space: .plane), "buffer: float point", 0.37)
        buffer(.point(5, 5, space: .plane), "buffer: point, 4 segments a quadrant", 2, quadrantSegments: 4)
        buffer(.point(5, 5, space: .plane), "buffer: point, 16 segments a quadrant", 2, quadrantSegments: 16)
        buffer(.lineString([(0, 0), (10, 0)], space: .plane), "buffer: segment", 1)
        buffer(.lineString([(0, 0), (10, 0), (10, 10), (0, 10)], space: .plane), "buffer: U line", 2)
        buffer(.lineString([(0, 0), (10, 0), (5, 0.5)], space: .plane), "buffer: line doubling back", 1)
        buffer(.lineString([(0, 0), (10, 0), (0, 0)], space: .plane), "buffer: line reversing exactly", 1)
        buffer(.lineString([(0, 0), (10, 0), (10, 10), (0, 0)], space: .plane), "buffer: closed line", 1)
        buffer(.lineString([(0, 0), (10, 10), (10, 0), (0, 10)], space: .plane), "buffer: self-crossing line", 0.7)
        buffer(.polygon([[(0, 0), (8, 0), (8, 8), (0, 8)], [(2, 2), (2, 6), (6, 6), (6, 2)]], space: .plane), "buffer: square with hole, hole stays", 1)
        buffer(.polygon([[(0, 0), (8, 0), (8, 8), (0, 8)], [(2, 2), (2, 6), (6, 6), (6, 2)]], space: .plane), "buffer: square with hole, hole closes", 2.5)
        buffer(.multi(.multiPoint, [[[(0, 0)]], [[(3, 0)]], [[(10, 10)]]], space: .plane), "buffer: multipoint", 2)
        for k in 0..<6 {
            let start = (x: maker.uniform(-10, 10), y: maker.uniform(-10, 10))
            let step = maker.uniform(0.5, 3)
            let d = step * [0.2, 0.5, 1, 2, 4, 0.05][k]
            buffer(.lineString(maker.walk(from: start, vertices: maker.integer(3...40), step: step), space: .plane), "buffer: walk \(k)", d)
        }
        for k in 0..<2 {
            let lines = (0..<3).map { _ in [maker.walk(from: maker.point(in: ((-10, -10), (10, 10))), vertices: 8, step: 2)] }
            buffer(.multi(.multiLineString, lines, space: .plane), "buffer: multiline \(k)", [0.5, 1.5][k])
        }
        for k in 0..<6 {
            let radius = maker.uniform(2, 10)
            let g = maker.starPolygon(center: (maker.uniform(-20, 20), maker.uniform(-20, 20)), radius: radius,
                                      vertices: maker.integer(5...30), hole: k % 2 == 0)
            buffer(g, "buffer: polygon \(k)", radius * [0.02, 0.05, 0.1, 0.3, 1, 3][k])
        }
        let parts = (0..<3).map { k in
            [maker.starRing(center: (Double(k) * 10, maker.uniform(-2, 2)), minRadius: 2, maxRadius: 4, vertices: 9)]
        }
        buffer(.multi(.multiPolygon, parts, space: .plane), "buffer: multipolygon merging", 1.5)
        buffer(.lineString(maker.walk(from: (0, 0), vertices: 500, step: 1), space: .plane), "buffer: 500-vertex walk", 0.8, probes: 1000)
    }

    mutating func addUnions(_ maker: inout PlanarGeometryMaker) {
        func union(_ ids: [Int], probes count: Int = 400) {
            var b = geometries[ids[0]].bounds!
            for i in ids { b.add(geometries[i].bounds!) }
            let probes = (0..<count).map { _ in [maker.uniform(b.minX, b.maxX), maker.uniform(b.minY, b.maxY)] }
            unions.append(UnionCase(geometries: ids, probes: probes))
        }
        // Zones tiling a grid, sharing edges exactly, some cells left out (holes, pieces
        // touching at corners).
        for k in 0..<3 {
            var ids: [Int] = []
            for i in 0..<6 { for j in 0..<6 where !(maker.chance(0.2 + 0.1 * Double(k))) {
                let x = Double(i) * 2, y = Double(j) * 2
                if maker.chance(0.5) {
                    ids.append(add(.polygon([[(x, y), (x + 2, y), (x + 2, y + 2), (x, y + 2)]], space: .plane), "zone \(i),\(j)"))
                } else {
                    ids.append(add(.polygon([[(x, y), (x + 2, y), (x, y + 2)]], space: .plane), "zone \(i),\(j) lower"))
                    ids.append(add(.polygon([[(x + 2, y), (x + 2, y + 2), (x, y + 2)]], space: .plane), "zone \(i),\(j) upper"))
                }
            } }
            union(ids)
        }
        // A larger tiling with many cells missing: many holes in one large shell.
        do {
            var ids: [Int] = []
            for i in 0..<20 { for j in 0..<20 where i == 0 || j == 0 || i == 19 || j == 19 || !maker.chance(0.15) {
                let x = Double(i), y = Double(j)
                ids.append(add(.polygon([[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]], space: .plane), "cell \(i),\(j)"))
            } }
            union(ids)
        }
        // Overlapping random polygons, some with holes.
        for k in 0..<4 {
            var ids: [Int] = []
            for _ in 0..<[5, 20, 40, 12][k] {
                ids.append(add(maker.starPolygon(center: maker.point(in: ((-20, -20), (20, 20))), radius: maker.uniform(2, 8),
                                                 vertices: maker.integer(4...20), hole: maker.chance(0.3)), "union piece"))
            }
            union(ids)
        }
        // Grid polygons overlapping with collinear edges and shared vertices.
        var ids: [Int] = []
        for _ in 0..<15 {
            ids.append(add(maker.starPolygon(center: maker.point(in: ((-6, -6), (6, 6)), grid: true), radius: 4,
                                             vertices: 6, hole: false, grid: true), "grid union piece"))
        }
        union(ids)
        union([add(.polygon([[(0, 0), (4, 0), (4, 4), (0, 4)]], space: .plane), "corner A"),
               add(.polygon([[(4, 4), (8, 4), (8, 8), (4, 8)]], space: .plane), "corner B")])
        union([add(.polygon([[(0, 0), (10, 0), (10, 10), (0, 10)], [(2, 2), (2, 8), (8, 8), (8, 2)]], space: .plane), "frame"),
               add(.polygon([[(3, 3), (7, 3), (7, 7), (3, 7)]], space: .plane), "island in the hole")])
    }
}
