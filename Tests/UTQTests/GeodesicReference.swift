// The reference for the differential tests of Geodesic: geographiclib run by
// Tests/Support/geodesic_reference.py, and the comparison of its answers with ours.

import Foundation
import Testing

/// Runs Tests/Support/geodesic_reference.py with a Python that has geographiclib.
enum GeodesicReference {
    struct Results: Codable {
        var inverse: [[Double]]
        var direct: [[Double]]
        var length: [Double]
        var ring: [[Double]]
        var waypoints: [[[Double]]]
    }

    static func results(for cases: GeodesicCases.JSON, cHypot: Bool) throws -> Results {
        // The Python `make test` keeps in .build (or one on the PATH) with geographiclib; the
        // comparison fails without it rather than pass untested.
        let python = try #require(Oracle.python(with: "geographiclib"), "no Python with geographiclib (make oracle-deps installs one)")
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("geodesic-cases-\(ProcessInfo.processInfo.processIdentifier)-\(cHypot).json")
        try JSONEncoder().encode(cases).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let parts = python.split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: parts[0])
        process.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/geodesic_reference.py")]
            + (cHypot ? ["--c-hypot"] : []) + [input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "geodesic_reference.py failed: \(message)")
        return try JSONDecoder().decode(Results.self, from: data)
    }
}

/// The worst relative and absolute errors per kind of result, and an expectation on each value.
///
/// Relative errors are taken against at least 1 m, 1° or 1 m², so that values near zero are
/// judged by their absolute error.
struct GeodesicErrorReport {
    enum Bounds {
        /// The same operations on the same values: round-off only, 1e-11.
        case roundOff
        /// 1e-9 relative (and 1 mm for lengths), widened by what a last-bit difference of
        /// the inputs does where the result is that sensitive: a point is only defined to about
        /// 1e-9 m, so a length to about 1e-8 m and the azimuth of a line of length s to
        /// 1e-9 m / s radians (this matters under a metre); and each edge's area term is a
        /// difference of products of 1e11 m², defined to about 1e-5 m².
        case inputSensitive
    }

    let bounds: Bounds
    private var worst: [String: (relative: Double, absolute: Double, count: Int)] = [:]
    private var failures: [String: Int] = [:]
    private var order: [String] = []

    init(bounds: Bounds) { self.bounds = bounds }

    private var relativeBound: Double { bounds == .roundOff ? 1e-11 : 1e-9 }

    /// Lengths in metres.
    mutating func distance(_ kind: String, _ ours: Double, _ theirs: Double, _ label: String) {
        let absolute = abs(ours - theirs)
        let relative = record(kind, absolute, scale: max(abs(theirs), 1))
        let floor = bounds == .inputSensitive ? 1e-8 : 0
        check(kind, (relative <= relativeBound || absolute <= floor) && absolute <= 1e-3, "\(label): \(ours) against \(theirs)")
    }

    /// Areas in square metres of rings of `edges` edges.
    mutating func area(_ kind: String, _ ours: Double, _ theirs: Double, edges: Int, _ label: String) {
        let absolute = abs(ours - theirs)
        let relative = record(kind, absolute, scale: max(abs(theirs), 1))
        let floor = bounds == .inputSensitive ? 1e-4 * Double(edges) : 0
        check(kind, relative <= relativeBound || absolute <= floor, "\(label): \(ours) against \(theirs)")
    }

    /// Azimuths in degrees at the ends of a line `lineLength` metres long.
    mutating func azimuth(_ kind: String, _ ours: Double, _ theirs: Double, lineLength: Double, _ label: String) {
        let absolute = geodesicAngleError(ours, theirs)
        let relative = record(kind, absolute, scale: max(abs(theirs), 1))
        let floor = bounds == .inputSensitive ? 1e-9 / lineLength * 180 / .pi : 0
        check(kind, relative <= relativeBound || absolute <= floor, "\(label): \(ours) against \(theirs)")
    }

    /// Latitudes, longitudes and azimuths in degrees.
    mutating func angle(_ kind: String, _ ours: Double, _ theirs: Double, _ label: String) {
        let absolute = geodesicAngleError(ours, theirs)
        let relative = record(kind, absolute, scale: max(abs(theirs), 1))
        check(kind, relative <= relativeBound, "\(label): \(ours) against \(theirs)")
    }

    /// Records the first few values of a kind beyond its bound as issues, and counts them all.
    private mutating func check(_ kind: String, _ passed: Bool, _ message: @autoclosure () -> String) {
        guard !passed else { return }
        failures[kind, default: 0] += 1
        if failures[kind]! <= 3 { Issue.record(Comment(rawValue: message())) }
    }

    /// Fails the test when any value was beyond its bound, naming the kinds and their counts.
    func expectNoFailures() {
        let counts = order.compactMap { kind in failures[kind].map { "\(kind): \($0)" } }
        #expect(counts.isEmpty, "values beyond the bounds: \(counts.joined(separator: "; "))")
    }

    private mutating func record(_ kind: String, _ absolute: Double, scale: Double) -> Double {
        let absolute = absolute.isNaN ? .infinity : absolute
        let relative = absolute / scale
        if worst[kind] == nil { order.append(kind) }
        let old = worst[kind] ?? (0, 0, 0)
        worst[kind] = (max(old.relative, relative), max(old.absolute, absolute), old.count + 1)
        return relative
    }

    func summary(title: String) -> String {
        let rows = order.map { kind -> String in
            let w = worst[kind]!
            let name = kind.padding(toLength: 48, withPad: " ", startingAt: 0)
            let failed = failures[kind].map { "  \($0) beyond the bound" } ?? ""
            return "\(name) \(String(format: "%6d  worst relative %.2e  absolute %.2e", w.count, w.relative, w.absolute))\(failed)"
        }
        return (["\(title) (values compared, worst errors):"] + rows).joined(separator: "\n")
    }
}

/// |a - b| for angles in degrees, 180 and -180 being the same.
func geodesicAngleError(_ a: Double, _ b: Double) -> Double {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN ? 0 : .infinity }
    return abs(remainder(a - b, 360))
}
