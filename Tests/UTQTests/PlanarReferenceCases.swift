import Foundation
@testable import UTQCore

/// The cases sent to shapely: geometries, and which measures, pairs, buffers and unions of
/// them to compute.
struct PlanarCases: Sendable {
    struct BufferCase: Sendable { var geometry: Int; var distance: Double; var quadrantSegments: Int; var probes: [[Double]] }
    struct UnionCase: Sendable { var geometries: [Int]; var probes: [[Double]] }

    var geometries: [Geometry] = []
    var labels: [String] = []
    var unary: [Int] = []
    var pairs: [[Int]] = []
    var buffers: [BufferCase] = []
    var unions: [UnionCase] = []

    @discardableResult
    mutating func add(_ g: Geometry, _ label: String) -> Int {
        geometries.append(g); labels.append(label); unary.append(geometries.count - 1)
        return geometries.count - 1
    }

    /// Every ordered pair of the given geometries, each with itself too.
    mutating func pairAll(_ ids: [Int]) {
        for i in ids { for j in ids { pairs.append([i, j]) } }
    }

    var json: Data {
        let object: [String: Any] = [
            "geometries": geometries.map(planarWKT),
            "unary": unary,
            "pairs": pairs,
            "buffers": buffers.map { ["g": $0.geometry, "d": $0.distance, "quad_segs": $0.quadrantSegments, "probes": $0.probes] as [String: Any] },
            "unions": unions.map { ["gs": $0.geometries, "probes": $0.probes] as [String: Any] },
        ]
        return try! JSONSerialization.data(withJSONObject: object)
    }
}

/// shapely's answers, as `planar_reference.py` prints them.
struct PlanarReference: Sendable {
    struct Unary: Sendable { var area: Double; var length: Double; var centroid: [Double]?; var valid: Bool }
    struct Pair: Sendable {
        var distance: Double?; var nearest: [[Double]]?
        var intersects, contains, within, covers, touches, disjoint: Bool
        var relate: String
    }
    struct Buffer: Sendable { var area: Double; var exterior: [[Double]]?; var polygons: Int; var holes: Int; var probeDistances: [Double] }
    struct Union: Sendable { var area: Double; var polygons: Int; var holes: Int; var probeInside: [Bool]; var probeBoundaryDistance: [Double?] }

    var unary: [Unary] = [], pairs: [Pair] = [], buffers: [Buffer] = [], unions: [Union] = []

    /// Runs Tests/Support/planar_reference.py on the cases with a Python that has shapely (the
    /// one `make test` keeps in .build, or one on the PATH).
    static func compute(_ cases: PlanarCases) throws -> PlanarReference {
        guard let python = Oracle.python(with: "shapely") else {
            throw ReferenceError.scriptFailed("no Python with shapely (make oracle-deps installs one)")
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("planar-cases-\(UUID().uuidString).json")
        try cases.json.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let parts = python.split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: parts[0])
        process.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/planar_reference.py"), input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Errors are few lines; reading them after the results cannot block the script.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ReferenceError.scriptFailed("\(python) planar_reference.py exited \(process.terminationStatus) (shapely installed?): \(message)")
        }
        return try parse(data)
    }

    enum ReferenceError: Error { case scriptFailed(String), malformed }

    static func parse(_ data: Data) throws -> PlanarReference {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw ReferenceError.malformed }
        func double(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
        func points(_ v: Any?) -> [[Double]]? { (v as? [[Any]])?.map { $0.compactMap(double) } }
        var r = PlanarReference()
        for u in root["unary"] as? [[String: Any]] ?? [] {
            r.unary.append(Unary(area: double(u["area"]) ?? .nan, length: double(u["length"]) ?? .nan,
                                 centroid: (u["centroid"] as? [Any])?.compactMap(double), valid: u["valid"] as? Bool ?? false))
        }
        for p in root["pairs"] as? [[String: Any]] ?? [] {
            func flag(_ k: String) -> Bool { p[k] as? Bool ?? false }
            r.pairs.append(Pair(distance: double(p["distance"]), nearest: points(p["nearest"]),
                                intersects: flag("intersects"), contains: flag("contains"), within: flag("within"),
                                covers: flag("covers"), touches: flag("touches"), disjoint: flag("disjoint"),
                                relate: p["relate"] as? String ?? ""))
        }
        for b in root["buffers"] as? [[String: Any]] ?? [] {
            r.buffers.append(Buffer(area: double(b["area"]) ?? .nan, exterior: points(b["exterior"]),
                                    polygons: b["polygons"] as? Int ?? -1, holes: b["holes"] as? Int ?? -1,
                                    probeDistances: (b["probeDistances"] as? [Any] ?? []).compactMap(double)))
        }
        for u in root["unions"] as? [[String: Any]] ?? [] {
            r.unions.append(Union(area: double(u["area"]) ?? .nan, polygons: u["polygons"] as? Int ?? -1, holes: u["holes"] as? Int ?? -1,
                                  probeInside: u["probeInside"] as? [Bool] ?? [],
                                  probeBoundaryDistance: (u["probeBoundaryDistance"] as? [Any] ?? []).map(double)))
        }
        return r
    }
}
