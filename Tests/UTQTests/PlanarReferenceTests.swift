import Foundation
@testable import UTQCore
import Testing

/// The standard cases and shapely's answers for them, computed once for all tests.
/// `PLANAR_SEED` draws another set of random cases, for exploring beyond the fixed one.
let planarCases = PlanarCases.standard(seed: ProcessInfo.processInfo.environment["PLANAR_SEED"].flatMap { UInt64($0) } ?? 20_240_601)
let planarReference: Result<PlanarReference, Error> = Result { try PlanarReference.compute(planarCases) }

@Suite("Planar against shapely")
struct PlanarReferenceTests {
    func reference() throws -> PlanarReference { try planarReference.get() }

    @Test("area, length and centroid match shapely")
    func measures() throws {
        let report = planarCases.compareMeasures(try reference())
        print("measures of \(planarCases.unary.count) geometries:\n" + report.summary)
        #expect(report.failures.count == 0, "\(report.summary)")
    }

    @Test("distance, nearest points and predicates match shapely")
    func pairs() throws {
        let report = planarCases.comparePairs(try reference())
        print("pairs:\n" + report.summary)
        #expect(report.failures.count == 0, "\(report.summary)")
    }

    @Test("buffers match shapely's (points vertex by vertex, the rest by area and probes)")
    func buffers() throws {
        let report = planarCases.compareBuffers(try reference())
        print("\(planarCases.buffers.count) buffers, \(planarCases.buffers.map(\.probes.count).reduce(0, +)) probes:\n" + report.summary)
        #expect(report.failures.count == 0, "\(report.summary)")
    }

    @Test("unions match shapely's union_all")
    func unions() throws {
        let report = planarCases.compareUnions(try reference())
        print("\(planarCases.unions.count) unions of \(planarCases.unions.map(\.geometries.count).reduce(0, +)) polygons, \(planarCases.unions.map(\.probes.count).reduce(0, +)) probes:\n" + report.summary)
        #expect(report.failures.count == 0, "\(report.summary)")
    }
}
