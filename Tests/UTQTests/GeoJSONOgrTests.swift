import Foundation
import Testing
@testable import UTQCore

/// What `save F.geojson` writes is what GIS tools read: GDAL's `ogrinfo` (gdal-bin, as QGIS
/// reads through it) finds the same features, kinds, properties and values. Runs wherever
/// ogrinfo is installed, and always in CI, which installs it.
@Suite(.serialized) struct GeoJSONOgrTests {
    static let ogrinfo = "/usr/bin/ogrinfo"
    static var runs: Bool { FileManager.default.isExecutableFile(atPath: ogrinfo) || ProcessInfo.processInfo.environment["CI"] == "true" }

    static func ogr(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ogrinfo)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "ogrinfo \(arguments.joined(separator: " ")) failed")
        return text
    }

    /// ogrinfo's summary of a layer: its geometry kind, feature count and fields.
    static func summary(_ path: String) throws -> (kind: String, count: Int, fields: [String]) {
        let text = try ogr(["-al", "-so", path])
        var kind = "", count = -1, fields: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("Geometry: ") { kind = String(line.dropFirst(10)) }
            if line.hasPrefix("Feature Count: ") { count = Int(line.dropFirst(15)) ?? -1 }
            if let colon = line.range(of: ": "), !line.hasPrefix(" "), ["String", "Real", "Integer", "Integer64", "Date", "DateTime"].contains(where: { line[colon.upperBound...].hasPrefix($0) }) {
                fields.append(String(line[..<colon.lowerBound]))
            }
        }
        return (kind, count, fields)
    }

    static func saved(_ s: Session, _ pipeline: String, _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-ogr-\(getpid())-\(name).geojson").path
        #expect(s.failure("\(pipeline) | save! \(path)") == nil)
        return path
    }

    @Test(.enabled(if: runs)) func stopsAndShapesAreReadByGDAL() throws {
        let s = makeSession()
        #expect(s.failure("load datasets/gtfs/demo-transit.zip as feed; load Tests/Fixtures/gtfs-transitfeed/flatten_feed as flat") == nil)
        let stops = try s.table("feed.stops")
        let stopsFile = try Self.saved(s, "feed.stops", "stops")
        let a = try Self.summary(stopsFile)
        #expect(a.kind == "Point" && a.count == stops.rowCount)
        #expect(a.fields == stops.columnNames)
        // Every feature's values: the stop's id and its coordinates as the geometry.
        let features = try Self.ogr(["-al", "-q", stopsFile])
        for (id, (lon, lat)) in zip(stops.strings("stop_id"), zip(stops.strings("stop_lon"), stops.strings("stop_lat"))) {
            #expect(features.contains("stop_id (String) = \(id)\n"))
            #expect(features.contains("POINT (\(lon) \(lat))"), "\(id) at \(lon) \(lat)")
        }
        // The shapes as a line each, their points in sequence order.
        let lines = try s.table("flat.shapes | sort shape_pt_sequence | path point(shape_pt_lon, shape_pt_lat), count by shape_id")
        let shapesFile = try Self.saved(s, "flat.shapes | sort shape_pt_sequence | path point(shape_pt_lon, shape_pt_lat), count by shape_id", "shapes")
        let b = try Self.summary(shapesFile)
        #expect(b.kind == "Line String" && b.count == lines.rowCount && b.count == 3)
        #expect(b.fields == ["shape_id", "count"])
        let shapes = try Self.ogr(["-al", "-q", shapesFile])
        #expect(shapes.contains("LINESTRING (1 1,4 2,9 3,16 4)"), "\(shapes)")
        // Zones on the market's plan are written as they are (x and y), polygons.
        let zonesFile = try Self.saved(s, "load datasets/market-zones.csv as zones; zones", "zones")
        let c = try Self.summary(zonesFile)
        #expect(c.kind == "Polygon" && c.count == 5 && c.fields == ["zone"])
    }
}
