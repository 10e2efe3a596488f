import Foundation
@testable import UTQCore

/// Geometries read from text and bytes: the input as well-known text, as GeoJSON (a geometry,
/// and a file loaded as a user does), as hex and plain WKB, and as a CSV column of geometry
/// text. Each reads or says why; what reads writes back as text that reads the same, and is
/// measured, tested against itself and buffered without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeometry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    var read: [Geometry] = []
    if let g = try? WKT.parse(text) { read.append(g) }
    if let g = try? GeoJSONGeometry.parse(text), let g { read.append(g) }
    if let g = try? WKB.parse(bytes) { read.append(g) }
    if let g = try? bytes.withUnsafeBytes({ try WKB.parse(hex: $0) }) { read.append(g) }
    for g in read {
        // Written and read again, the same geometry.
        guard let again = try? WKT.parse(WKT.text(g)), again == g else { fatalError("WKT of \(g) does not read back") }
        guard let back = try? GeoJSONGeometry.parse(GeoJSONGeometry.text(g)), back == g else {
            if g.xs.allSatisfy(\.isFinite) { fatalError("GeoJSON of \(WKT.text(g)) does not read back") }
            continue
        }
        guard g.xs.count < 2_000 else { continue }
        for space in [GeoSpace.plane, .lnglat] {
            var h = g
            h.space = space
            _ = GeoMeasure.area(h); _ = GeoMeasure.length(h); _ = Planar.centroid(h)
            _ = Planar.intersects(h, h); _ = Planar.within(h, h)
            if let b = h.bounds, b.width.isFinite, b.height.isFinite, max(b.width, b.height) < 1e6 {
                _ = GeoMeasure.buffer(h, max(1e-3, max(b.width, b.height) / 10))
            }
        }
    }
    // A GeoJSON file, and a CSV whose one column is the input, loaded as a user loads them.
    let geojson = Fuzz.file("input.geojson", data, size)
    if let loaded = Fuzz.expectingUserErrors("load GeoJSON", { try Loaders.load(LoadRequest(path: geojson, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    let quoted = "g\n\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"\n"
    let csv = Fuzz.file("input.csv", Array(quoted.utf8), quoted.utf8.count)
    if let loaded = Fuzz.expectingUserErrors("load CSV", { try Loaders.load(LoadRequest(path: csv, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    return 0
}
