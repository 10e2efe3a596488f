import Foundation
@testable import UTQCore

/// The functions under test, replaceable one by one so a test can check that a broken
/// algorithm makes the comparison fail.
struct PlanarUnderTest: Sendable {
    var area: @Sendable (Geometry) -> Double = { Planar.area($0) }
    var length: @Sendable (Geometry) -> Double = { Planar.length($0) }
    var centroid: @Sendable (Geometry) -> Geometry? = { Planar.centroid($0) }
    var distance: @Sendable (Geometry, Geometry) -> Double = { Planar.distance($0, $1) }
    var nearestPoints: @Sendable (Geometry, Geometry) -> ((Double, Double), (Double, Double))? = { Planar.nearestPoints($0, $1) }
    var intersects: @Sendable (Geometry, Geometry) -> Bool = { Planar.intersects($0, $1) }
    var contains: @Sendable (Geometry, Geometry) -> Bool = { Planar.contains($0, $1) }
    var within: @Sendable (Geometry, Geometry) -> Bool = { Planar.within($0, $1) }
    var covers: @Sendable (Geometry, Geometry) -> Bool = { Planar.covers($0, $1) }
    var touches: @Sendable (Geometry, Geometry) -> Bool = { Planar.touches($0, $1) }
    var disjoint: @Sendable (Geometry, Geometry) -> Bool = { Planar.disjoint($0, $1) }
    var buffer: @Sendable (Geometry, Double, Int) -> Geometry = { Planar.buffer($0, $1, quadrantSegments: $2) }
    var union: @Sendable ([Geometry]) -> Geometry = { Planar.union($0) }
}

/// What a comparison found: the failures, and the worst error of each kind.
struct PlanarComparisonReport: Sendable {
    var failures: [String] = []
    var worst: [String: Double] = [:]
    var notes: [String] = []

    mutating func record(_ kind: String, _ error: Double) {
        if error.isNaN || error > worst[kind, default: -1] { worst[kind] = error }
    }

    var summary: String {
        let errors = worst.keys.sorted().map { "worst \($0): " + String(format: "%.3g", worst[$0]!) }
        let shownNotes = notes.filter { !$0.hasPrefix("invalid input") }
        return (["\(failures.count) failures"] + errors + shownNotes + failures.prefix(25)).joined(separator: "\n")
    }
}

/// The error of `value` against `expected`, relative above 1 and absolute below it, so 1e-9
/// means 1e-9 relative for large values and 1e-9 absolute near zero (within 1e-12 of zero is
/// zero error).
func planarScaledError(_ value: Double, _ expected: Double) -> Double {
    if value == expected { return 0 }
    if value.isNaN || expected.isNaN { return .infinity }
    let difference = abs(value - expected)
    if difference <= 1e-12 { return 0 }
    return difference / max(1, abs(expected))
}

/// The relative error of `value` against `expected`; within 1e-12 of it is no error.
func planarRelativeError(_ value: Double, _ expected: Double) -> Double {
    if value == expected { return 0 }
    if value.isNaN || expected.isNaN { return .infinity }
    let difference = abs(value - expected)
    if difference <= 1e-12 { return 0 }
    return difference / max(abs(expected), 1e-300)
}

extension PlanarCases {
    func compareMeasures(_ reference: PlanarReference, _ planar: PlanarUnderTest = PlanarUnderTest()) -> PlanarComparisonReport {
        var report = PlanarComparisonReport()
        for (k, i) in unary.enumerated() {
            let g = geometries[i], expected = reference.unary[k], label = labels[i]
            let areaError = planarRelativeError(planar.area(g), expected.area)
            report.record("area (relative)", areaError)
            if areaError > 1e-9 { report.failures.append("area of \(label): \(planar.area(g)) vs \(expected.area)") }
            let lengthError = planarRelativeError(planar.length(g), expected.length)
            report.record("length (relative)", lengthError)
            if lengthError > 1e-9 { report.failures.append("length of \(label): \(planar.length(g)) vs \(expected.length)") }
            let centroid = planar.centroid(g)
            switch (centroid, expected.centroid) {
            case (nil, nil): break
            case let (c?, e?):
                let error = max(planarScaledError(c.xs[0], e[0]), planarScaledError(c.ys[0], e[1]))
                report.record("centroid", error)
                if error > 1e-9 { report.failures.append("centroid of \(label): \(c.xs[0]) \(c.ys[0]) vs \(e)") }
            default:
                report.failures.append("centroid of \(label): \(String(describing: centroid.map { ($0.xs, $0.ys) })) vs \(String(describing: expected.centroid))")
            }
        }
        return report
    }

    func comparePairs(_ reference: PlanarReference, _ planar: PlanarUnderTest = PlanarUnderTest()) -> PlanarComparisonReport {
        var report = PlanarComparisonReport()
        var invalidDisagreements = 0
        for (k, pair) in pairs.enumerated() {
            let a = geometries[pair[0]], b = geometries[pair[1]], expected = reference.pairs[k]
            let label = "\(labels[pair[0]]) / \(labels[pair[1]])"
            let distance = planar.distance(a, b)
            let distanceError = expected.distance.map { planarRelativeError(distance, $0) } ?? (distance.isNaN ? 0 : .infinity)
            report.record("distance (relative)", distanceError)
            if distanceError > 1e-9 { report.failures.append("distance \(label): \(distance) vs \(String(describing: expected.distance))") }
            if let e = expected.nearest {
                if let ((ax, ay), (bx, by)) = planar.nearestPoints(a, b) {
                    let error = [planarScaledError(ax, e[0][0]), planarScaledError(ay, e[0][1]), planarScaledError(bx, e[1][0]), planarScaledError(by, e[1][1])].max()!
                    report.record("nearest points", error)
                    if error > 1e-9 { report.failures.append("nearest points \(label): (\(ax) \(ay)), (\(bx) \(by)) vs \(e)") }
                } else {
                    report.failures.append("nearest points \(label): none vs \(e)")
                }
            }
            let valid = reference.unary[unary.firstIndex(of: pair[0])!].valid && reference.unary[unary.firstIndex(of: pair[1])!].valid
            let answers: [(String, Bool, Bool)] = [
                ("intersects", planar.intersects(a, b), expected.intersects), ("contains", planar.contains(a, b), expected.contains),
                ("within", planar.within(a, b), expected.within), ("covers", planar.covers(a, b), expected.covers),
                ("touches", planar.touches(a, b), expected.touches), ("disjoint", planar.disjoint(a, b), expected.disjoint),
            ]
            for (name, answer, truth) in answers where answer != truth {
                let message = "\(name) \(label): \(answer) vs shapely \(truth) (relate \(expected.relate))"
                if valid { report.failures.append(message) } else { invalidDisagreements += 1; report.notes.append("invalid input: " + message) }
            }
        }
        report.notes.insert("\(pairs.count) pairs; \(invalidDisagreements) predicate disagreements on invalid inputs (not counted)", at: 0)
        return report
    }

    func compareBuffers(_ reference: PlanarReference, _ planar: PlanarUnderTest = PlanarUnderTest()) -> PlanarComparisonReport {
        var report = PlanarComparisonReport()
        for (k, c) in buffers.enumerated() {
            let g = geometries[c.geometry], expected = reference.buffers[k], label = labels[c.geometry]
            let result = planar.buffer(g, c.distance, c.quadrantSegments)
            let areaError = planarRelativeError(Planar.area(result), expected.area)
            report.record("buffer area (relative)", areaError)
            report.notes.append(String(format: "buffer area error %.2e: %@ (d %g)", areaError, label, c.distance))
            if areaError > 1e-3 { report.failures.append("buffer area of \(label): \(Planar.area(result)) vs \(expected.area)") }
            if g.kind == .point {
                if let ring = expected.exterior, ring.count == result.pointCount {
                    let error = (0..<ring.count).map { max(planarScaledError(result.xs[$0], ring[$0][0]), planarScaledError(result.ys[$0], ring[$0][1])) }.max() ?? 0
                    report.record("point buffer vertices", error)
                    if error > 1e-9 { report.failures.append("point buffer vertices of \(label) differ by \(error)") }
                } else {
                    report.failures.append("point buffer of \(label): \(result.pointCount) vertices vs \(expected.exterior?.count ?? 0)")
                }
            }
            let polygons = result.isEmpty ? 0 : result.partCount, holes = result.isEmpty ? 0 : result.ringCount - result.partCount
            if polygons != expected.polygons || holes != expected.holes {
                report.failures.append("buffer of \(label): \(polygons) polygons, \(holes) holes vs \(expected.polygons), \(expected.holes)")
            }
            let inner = c.distance * cos(Double.pi / Double(4 * c.quadrantSegments)) * 0.999, outer = c.distance * 1.001
            var wrong = 0
            for (p, distance) in zip(c.probes, expected.probeDistances) {
                let point = Geometry.point(p[0], p[1], space: .plane)
                if distance < inner && !planar.covers(result, point) { wrong += 1 }
                if distance > outer && planar.covers(result, point) { wrong += 1 }
            }
            report.record("buffer probes misplaced", Double(wrong))
            if wrong > 0 { report.failures.append("buffer of \(label): \(wrong) of \(c.probes.count) probes on the wrong side") }
        }
        return report
    }

    func compareUnions(_ reference: PlanarReference, _ planar: PlanarUnderTest = PlanarUnderTest()) -> PlanarComparisonReport {
        var report = PlanarComparisonReport()
        for (k, c) in unions.enumerated() {
            let expected = reference.unions[k], label = "union \(k) of \(c.geometries.count)"
            let result = planar.union(c.geometries.map { geometries[$0] })
            let areaError = planarRelativeError(Planar.area(result), expected.area)
            report.record("union area (relative)", areaError)
            if areaError > 1e-9 { report.failures.append("\(label): area \(Planar.area(result)) vs \(expected.area)") }
            let polygons = result.isEmpty ? 0 : result.partCount, holes = result.isEmpty ? 0 : result.ringCount - result.partCount
            if polygons != expected.polygons || holes != expected.holes {
                report.failures.append("\(label): \(polygons) polygons, \(holes) holes vs \(expected.polygons), \(expected.holes)")
            }
            var wrong = 0
            for (p, (inside, boundaryDistance)) in zip(c.probes, zip(expected.probeInside, expected.probeBoundaryDistance)) {
                guard let d = boundaryDistance, d > 1e-9 else { continue }
                if planar.covers(result, .point(p[0], p[1], space: .plane)) != inside { wrong += 1 }
            }
            report.record("union probes misplaced", Double(wrong))
            if wrong > 0 { report.failures.append("\(label): \(wrong) probes on the wrong side") }
        }
        return report
    }
}
