import Foundation
@testable import UTQCore
import Testing

/// Fixed cases with answers known by hand (shapely's, where it has the function), for the
/// rules that matter most and for what shapely has no counterpart to (bearing).
@Suite("Planar fixed cases")
struct PlanarFixedCaseTests {
    let square = Geometry.polygon([[(0, 0), (4, 0), (4, 4), (0, 4)]], space: .plane)
    let squareWithHole = Geometry.polygon([[(0, 0), (8, 0), (8, 8), (0, 8)], [(2, 2), (2, 6), (6, 6), (6, 2)]], space: .plane)

    func point(_ x: Double, _ y: Double) -> Geometry { .point(x, y, space: .plane) }
    func line(_ points: [(x: Double, y: Double)]) -> Geometry { .lineString(points, space: .plane) }

    @Test("bearing is clockwise from +y in 0..<360")
    func bearing() {
        #expect(Planar.bearing(from: (0, 0), to: (0, 1)) == 0)
        #expect(Planar.bearing(from: (0, 0), to: (1, 0)) == 90)
        #expect(Planar.bearing(from: (0, 0), to: (0, -1)) == 180)
        #expect(Planar.bearing(from: (0, 0), to: (-1, 0)) == 270)
        #expect(abs(Planar.bearing(from: (1, 1), to: (2, 2)) - 45) < 1e-12)
        #expect(abs(Planar.bearing(from: (0, 0), to: (-1, 1)) - 315) < 1e-12)
        // Just west of north stays below 360.
        let nearlyNorth = Planar.bearing(from: (0, 0), to: (-1e-300, 1))
        #expect(nearlyNorth >= 0 && nearlyNorth < 360)
        #expect(Planar.bearing(from: (3, 3), to: (3, 3)) == 0)
    }

    @Test("a point on an edge intersects and is covered, but is not within")
    func pointOnEdge() {
        for p in [point(2, 0), point(0, 0), point(4, 2)] {
            #expect(Planar.intersects(p, square))
            #expect(Planar.covers(square, p))
            #expect(!Planar.within(p, square))
            #expect(!Planar.contains(square, p))
            #expect(Planar.touches(p, square))
            #expect(Planar.locate(p.xs[0], p.ys[0], in: square) == .boundary)
        }
        #expect(Planar.within(point(2, 2), square))
    }

    @Test("holes are outside, their rings are boundary")
    func holes() {
        #expect(Planar.locate(4, 4, in: squareWithHole) == .exterior)
        #expect(!Planar.intersects(point(4, 4), squareWithHole))
        #expect(Planar.locate(2, 4, in: squareWithHole) == .boundary)
        #expect(Planar.locate(1, 4, in: squareWithHole) == .interior)
        #expect(Planar.area(squareWithHole) == 48)
        #expect(Planar.length(squareWithHole) == 48)
        #expect(Planar.distance(point(4, 4), squareWithHole) == 2)
        #expect(Planar.distance(point(1, 4), squareWithHole) == 0)
    }

    @Test("a line along an edge is covered but not within; a crossing line is neither")
    func linesAndPolygons() {
        let along = line([(0, 0), (4, 0)])
        #expect(Planar.covers(square, along))
        #expect(!Planar.within(along, square))
        #expect(Planar.touches(along, square))
        let crossing = line([(-1, 2), (5, 2)])
        #expect(Planar.intersects(crossing, square))
        #expect(!Planar.covers(square, crossing))
        #expect(!Planar.touches(crossing, square))
        #expect(Planar.within(line([(1, 1), (3, 3)]), square))
        #expect(Planar.within(line([(0, 0), (2, 2)]), square))
    }

    @Test("zones sharing an edge touch; overlapping zones do not")
    func zones() {
        let neighbour = Geometry.polygon([[(4, 0), (8, 0), (8, 4), (4, 4)]], space: .plane)
        #expect(Planar.touches(square, neighbour))
        #expect(Planar.intersects(square, neighbour))
        #expect(!Planar.contains(square, neighbour))
        let overlapping = Geometry.polygon([[(2, 2), (6, 2), (6, 6), (2, 6)]], space: .plane)
        #expect(!Planar.touches(square, overlapping))
        #expect(Planar.contains(square, square) && Planar.within(square, square))
        let dissolved = Planar.union([square, neighbour])
        #expect(dissolved.kind == .polygon && dissolved.pointCount == 5 && Planar.area(dissolved) == 32)
    }

    @Test("measures and centroids by GEOS's rules")
    func measures() {
        #expect(Planar.area(line([(0, 0), (3, 4)])) == 0)
        #expect(Planar.length(line([(0, 0), (3, 4)])) == 5)
        #expect(Planar.centroid(square).map { ($0.xs[0], $0.ys[0]) } ?? (.nan, .nan) == (2, 2))
        // Zero area falls back to the ring as a line, zero length to the points.
        let flat = Geometry.polygon([[(0, 0), (2, 0), (4, 0)]], space: .plane)
        #expect(Planar.centroid(flat).map { ($0.xs[0], $0.ys[0]) } ?? (.nan, .nan) == (2, 0))
        #expect(Planar.centroid(line([(1, 1), (1, 1)])).map { ($0.xs[0], $0.ys[0]) } ?? (.nan, .nan) == (1, 1))
        #expect(Planar.centroid(Geometry(kind: .polygon, space: .plane, xs: [], ys: [], rings: [0], parts: [0])) == nil)
    }

    @Test("empty geometries: predicates false (disjoint true), distance NaN")
    func empty() {
        let empty = Geometry(kind: .polygon, space: .plane, xs: [], ys: [], rings: [0], parts: [0])
        #expect(!Planar.intersects(empty, square) && Planar.disjoint(empty, square))
        #expect(!Planar.contains(square, empty) && !Planar.covers(square, empty) && !Planar.touches(square, empty))
        #expect(Planar.distance(empty, square).isNaN)
        #expect(Planar.nearestPoints(empty, square) == nil)
        #expect(Planar.buffer(empty, 1).isEmpty)
        #expect(Planar.union([]).isEmpty)
    }

    @Test("buffer: the point's circle as GEOS draws it, and edge cases of distance")
    func bufferShapes() {
        let circle = Planar.buffer(point(1, 2), 3)
        #expect(circle.pointCount == 33)
        #expect(circle.xs[0] == 4 && circle.ys[0] == 2)
        #expect(circle.ys[1] < 2)  // clockwise, as GEOS
        #expect(Planar.buffer(line([(0, 0), (1, 0)]), 0).isEmpty)
        #expect(Planar.area(Planar.buffer(square, 0)) == 16)
        #expect(Planar.buffer(square, -1).isEmpty)
        // A ring buffered less than half its width keeps its hole.
        let ring = line([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
        let band = Planar.buffer(ring, 1)
        #expect(band.ringCount == 2)
        #expect(Planar.locate(5, 5, in: band) == .exterior)
        #expect(Planar.locate(5, 0.5, in: band) == .interior)
    }

    @Test("union of a 500-segment route's capsules stays fast and whole")
    func longRoute() {
        var points: [(x: Double, y: Double)] = [(0, 0)]
        var heading = 0.0
        var rng = PlanarRandom(seed: 7)
        while points.count < 501 {
            heading += Double.random(in: -1...1, using: &rng)
            points.append((points[points.count - 1].x + cos(heading), points[points.count - 1].y + sin(heading)))
        }
        let started = Date()
        let band = Planar.buffer(line(points), 0.5)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(band.partCount == 1)
        for (x, y) in points { #expect(Planar.locate(x, y, in: band) == .interior) }
    }
}
