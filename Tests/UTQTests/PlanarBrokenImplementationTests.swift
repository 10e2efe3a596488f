import Foundation
@testable import UTQCore
import Testing

/// The comparisons must catch a broken algorithm: each mutant below breaks one function the
/// way a plausible bug would, and the comparison against shapely has to report failures.
@Suite("The reference comparisons catch broken algorithms")
struct BrokenImplementationTests {
    enum Check: Sendable { case measures, pairs, buffers, unions }

    struct Mutant: Sendable, CustomTestStringConvertible {
        var name: String
        var check: Check
        var planar: PlanarUnderTest
        var testDescription: String { name }
    }

    /// The polygon without its holes (the bug of forgetting them).
    static func shellsOnly(_ g: Geometry) -> Geometry {
        guard g.kind.dimension == 2 else { return g }
        return .multi(g.kind, (0..<g.partCount).map { [g.ring(g.ringRange(part: $0).lowerBound)] }, space: g.space)
    }

    /// A polygon's rings as lines (the bug of measuring to the boundary only).
    static func boundaryLines(_ g: Geometry) -> Geometry {
        guard g.kind.dimension == 2 else { return g }
        return .multi(.multiLineString, (0..<g.ringCount).map { [g.ring($0)] }, space: g.space)
    }

    static let mutants: [Mutant] = {
        var list: [Mutant] = []
        func add(_ name: String, _ check: Check, _ change: (inout PlanarUnderTest) -> Void) {
            var planar = PlanarUnderTest()
            change(&planar)
            list.append(Mutant(name: name, check: check, planar: planar))
        }
        add("area ignores holes", .measures) { $0.area = { Planar.area(shellsOnly($0)) } }
        add("length skips holes", .measures) { $0.length = { Planar.length(shellsOnly($0)) } }
        add("centroid is the mean of the vertices", .measures) {
            $0.centroid = { g in
                g.isEmpty ? nil : .point(g.xs.reduce(0, +) / Double(g.pointCount), g.ys.reduce(0, +) / Double(g.pointCount), space: g.space)
            }
        }
        add("distance ignores containment", .pairs) { $0.distance = { Planar.distance(boundaryLines($0), boundaryLines($1)) } }
        add("nearest points swapped", .pairs) {
            $0.nearestPoints = { a, b in Planar.nearestPoints(a, b).map { ($0.1, $0.0) } }
        }
        add("within counts the boundary as inside", .pairs) { $0.within = { Planar.covers($1, $0) } }
        add("contains ignores holes", .pairs) { $0.contains = { Planar.contains(shellsOnly($0), $1) } }
        add("touches is intersects", .pairs) { $0.touches = { Planar.intersects($0, $1) } }
        add("intersects by bounding boxes", .pairs) {
            $0.intersects = { a, b in
                guard let ba = a.bounds, let bb = b.bounds else { return false }
                return ba.intersects(bb)
            }
        }
        add("covers misses the boundary", .pairs) { $0.covers = { Planar.contains($0, $1) } }
        add("buffer half a percent short", .buffers) { $0.buffer = { Planar.buffer($0, $1 * 0.995, quadrantSegments: $2) } }
        add("buffer with coarse arcs", .buffers) { $0.buffer = { Planar.buffer($0, $1, quadrantSegments: max(1, $2 / 4)) } }
        add("buffer without holes", .buffers) { $0.buffer = { shellsOnly(Planar.buffer($0, $1, quadrantSegments: $2)) } }
        add("union of the first piece only", .unions) { $0.union = { Planar.union(Array($0.prefix(1))) } }
        add("union without holes", .unions) { $0.union = { shellsOnly(Planar.union($0)) } }
        add("union as a collection of the pieces", .unions) {
            $0.union = { pieces in
                .multi(.multiPolygon, pieces.flatMap { g in (0..<g.partCount).map { p in g.ringRange(part: p).map { g.ring($0) } } }, space: .plane)
            }
        }
        return list
    }()

    @Test("a broken algorithm makes the comparison fail", arguments: mutants)
    func mutantIsCaught(_ mutant: Mutant) throws {
        let reference = try planarReference.get()
        let report: PlanarComparisonReport
        switch mutant.check {
        case .measures: report = planarCases.compareMeasures(reference, mutant.planar)
        case .pairs: report = planarCases.comparePairs(reference, mutant.planar)
        case .buffers: report = planarCases.compareBuffers(reference, mutant.planar)
        case .unions: report = planarCases.compareUnions(reference, mutant.planar)
        }
        #expect(report.failures.count > 0, "\(mutant.name) went unnoticed")
    }
}
