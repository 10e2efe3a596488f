import Foundation
@testable import UTQCore

/// The project's seeded generator (SplitMix64), so every run draws the same cases.
typealias PlanarRandom = SeededRandom

typealias PlanarXY = (x: Double, y: Double)

/// WKT with every coordinate written so that it reads back exactly.
func planarWKT(_ g: Geometry) -> String {
    if g.isEmpty { return "\(g.kind.wktName) EMPTY" }
    func ring(_ r: Int) -> String { "(" + g.pointRange(ring: r).map { "\(g.xs[$0]) \(g.ys[$0])" }.joined(separator: ", ") + ")" }
    func member(_ p: Int) -> String {
        let rings = g.ringRange(part: p)
        switch g.kind.single {
        case .point: return ring(rings.lowerBound)
        case .lineString: return ring(rings.lowerBound)
        default: return "(" + rings.map(ring).joined(separator: ", ") + ")"
        }
    }
    switch g.kind {
    case .point, .lineString, .polygon: return "\(g.kind.wktName) \(member(0))"
    default: return "\(g.kind.wktName) (" + (0..<g.partCount).map(member).joined(separator: ", ") + ")"
    }
}

/// Random and hand-made geometries for the tests.
struct PlanarGeometryMaker {
    var rng: PlanarRandom

    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo..<hi, using: &rng) }
    mutating func integer(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }

    /// Rounds to a grid of 1/8, where midpoints and the orientation of grid points are exact,
    /// so points can sit exactly on edges and vertices.
    static func snap(_ v: Double) -> Double { (v * 8).rounded() / 8 }

    /// A star-shaped ring around a centre (simple by construction), counterclockwise unless
    /// `clockwise`, its angles jittered around even steps so no gap gets wide.
    mutating func starRing(center: PlanarXY, minRadius: Double, maxRadius: Double, vertices n: Int,
                           clockwise: Bool = false, grid: Bool = false) -> [PlanarXY] {
        var ring: [PlanarXY] = []
        let step = 2 * Double.pi / Double(n)
        let phase = uniform(0, step)
        for k in 0..<n {
            let angle = phase + Double(k) * step + uniform(-0.3, 0.3) * step
            let radius = uniform(minRadius, maxRadius)
            var p = (x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if grid { p = (Self.snap(p.x), Self.snap(p.y)) }
            if let last = ring.last, last.x == p.x && last.y == p.y { continue }
            ring.append(p)
        }
        return clockwise ? ring.reversed() : ring
    }

    /// A star polygon, with a hole around the same centre when asked.
    mutating func starPolygon(center: PlanarXY, radius: Double, vertices: Int, hole: Bool, grid: Bool = false) -> Geometry {
        var rings = [starRing(center: center, minRadius: radius / 2, maxRadius: radius, vertices: vertices,
                              clockwise: chance(0.3), grid: grid)]
        if hole {
            rings.append(starRing(center: center, minRadius: radius / 8, maxRadius: radius / 4, vertices: max(3, vertices / 2),
                                  clockwise: chance(0.7), grid: grid))
        }
        return .polygon(rings, space: .plane)
    }

    /// A random walk of `vertices` points with steps about `step` long.
    mutating func walk(from start: PlanarXY, vertices: Int, step: Double, grid: Bool = false) -> [PlanarXY] {
        var points = [start]
        var heading = uniform(0, 2 * Double.pi)
        while points.count < vertices {
            heading += uniform(-1.2, 1.2)
            let length = uniform(step / 2, step * 1.5)
            let last = points[points.count - 1]
            var p = (x: last.x + length * cos(heading), y: last.y + length * sin(heading))
            if grid { p = (Self.snap(p.x), Self.snap(p.y)) }
            if p.x != last.x || p.y != last.y { points.append(p) }
        }
        return points
    }

    mutating func point(in box: (PlanarXY, PlanarXY), grid: Bool = false) -> PlanarXY {
        let p = (x: uniform(box.0.x, box.1.x), y: uniform(box.0.y, box.1.y))
        return grid ? (Self.snap(p.x), Self.snap(p.y)) : p
    }
}

extension Geometry {
    /// Every coordinate with the ring it belongs to, for picking vertices and edges.
    var edgePairs: [(PlanarXY, PlanarXY)] {
        var out: [(PlanarXY, PlanarXY)] = []
        for r in 0..<ringCount {
            let range = pointRange(ring: r)
            guard range.count > 1 else { continue }
            for i in range.lowerBound..<(range.upperBound - 1) { out.append(((xs[i], ys[i]), (xs[i + 1], ys[i + 1]))) }
        }
        return out
    }
}
