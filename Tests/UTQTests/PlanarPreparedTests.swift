import Foundation
@testable import UTQCore
import Testing

@Suite("PreparedArea")
struct PlanarPreparedTests {
    /// Every polygon of the standard cases, against its own vertices and edge midpoints, every
    /// point of the cases and random points around it: the index answers as `locate` does.
    @Test("locates exactly as Planar.locate, on vertices and edges too")
    func matchesLocate() {
        var rng = PlanarRandom(seed: 99)
        let cases = PlanarCases.standard()
        let probes = cases.geometries.filter { $0.kind.dimension == 0 }.flatMap { g in g.xs.indices.map { (g.xs[$0], g.ys[$0]) } }
        var checked = 0, disagreements: [String] = []
        for (k, g) in cases.geometries.enumerated() where g.kind.dimension == 2 {
            let prepared = Planar.PreparedArea(g)
            var points = probes
            for (a, b) in g.edgePairs { points.append((a.x, a.y)); points.append(((a.x + b.x) / 2, (a.y + b.y) / 2)) }
            if let box = g.bounds?.expanded(by: 1) {
                for _ in 0..<200 {
                    points.append((Double.random(in: box.minX...box.maxX, using: &rng), Double.random(in: box.minY...box.maxY, using: &rng)))
                }
            }
            for (x, y) in points {
                checked += 1
                let expected = Planar.locate(x, y, in: g), answer = prepared.locate(x, y)
                if answer != expected { disagreements.append("\(cases.labels[k]) at \(x) \(y): \(answer) vs \(expected)") }
            }
        }
        #expect(checked > 10_000)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("empty and non-area geometries locate nothing")
    func degenerate() {
        #expect(Planar.PreparedArea(Geometry(kind: .polygon, space: .plane, xs: [], ys: [], rings: [0], parts: [0])).locate(0, 0) == .exterior)
        #expect(Planar.PreparedArea(.point(0, 0, space: .plane)).locate(0, 0) == .exterior)
        let flat = Planar.PreparedArea(.polygon([[(0, 0), (4, 0), (8, 0)]], space: .plane))
        #expect(flat.locate(2, 0) == .boundary && flat.locate(2, 1) == .exterior)
    }
}
