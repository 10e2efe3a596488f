import Foundation
import Testing
@testable import UTQCore

/// Geometries in and out: well-known text and binary, GeoJSON, text columns of a file read
/// as geometries, and `save .geojson`.
@Suite struct GeometryFormatTests {
    @Test func wktReadsEveryKindAndWritesItBack() throws {
        let texts = [
            "POINT (21.16 42.66)",
            "LINESTRING (0 0, 10 5, 20 0)",
            "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 2))",
            "MULTIPOINT ((1 2), (3 4))",
            "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3, 4 4))",
            "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5), (5.2 5.1, 5.8 5.1, 5.8 5.7, 5.2 5.1)))",
            "POINT (-122.40804255008698 47.580028655538705)",
        ]
        for text in texts {
            let g = try WKT.parse(text)
            #expect(WKT.text(g) == text)
            // Through GeoJSON and back, the same geometry.
            #expect(try GeoJSONGeometry.parse(GeoJSONGeometry.text(g)) == g)
        }
        let poly = try WKT.parse(texts[2])
        #expect(poly.kind == .polygon && poly.partCount == 1 && poly.ringCount == 2 && poly.pointCount == 9)
        let multi = try WKT.parse(texts[5])
        #expect(multi.partCount == 2 && multi.part(1).ringCount == 2 && multi.part(1).kind == .polygon)
    }

    @Test func wktAcceptsWhatOtherToolsWrite() throws {
        // PostGIS's EWKT, Z coordinates, MULTIPOINT without inner parentheses, any case.
        #expect(try WKT.parse("SRID=4326;POINT(1 2)") == .point(1, 2))
        #expect(try WKT.parse("POINT Z (1 2 3)") == .point(1, 2))
        #expect(try WKT.parse("multipoint (1 2, 3 4)") == WKT.parse("MULTIPOINT ((1 2), (3 4))"))
        #expect(try WKT.parse("POINT EMPTY").isEmpty)
        for bad in ["POINT (1)", "POLYGON ((0 0, 1 0, 1 1))", "POLYGON ((0 0, 1 0, 1 1, 0 1))", "CIRCLE (1 2)", "POINT (1 2) x", "LINESTRING (1 2)"] {
            #expect(throws: WKT.ParseError.self, "\(bad)") { try WKT.parse(bad) }
        }
    }

    @Test func wkbAsPostGISSendsIt() throws {
        // SELECT ST_SetSRID(ST_MakePoint(1, 2), 4326)::text, and a plane polygon (no SRID).
        let point = "0101000020E6100000000000000000F03F0000000000000040"
        let g = try Array(point.utf8).withUnsafeBytes { try WKB.parse(hex: $0) }
        #expect(g == .point(1, 2))
        // shapely.wkb.dumps(POLYGON((0 0,1 0,1 1,0 0)), hex=True)
        let polygon = "0103000000010000000400000000000000000000000000000000000000000000000000F03F0000000000000000000000000000F03F000000000000F03F00000000000000000000000000000000"
        let p = try Array(polygon.utf8).withUnsafeBytes { try WKB.parse(hex: $0, default: .plane) }
        #expect(WKT.text(p) == "POLYGON ((0 0, 1 0, 1 1, 0 0))")
        #expect(p.space == .plane)
        #expect(throws: WKT.ParseError.self) { try Array("0101000020E6100000".utf8).withUnsafeBytes { try WKB.parse(hex: $0) } }
    }

    @Test func aZoneFileLoadsAsPolygonsOnThePlan() throws {
        let s = makeSession()
        var notes: [String] = []
        s.run("load datasets/market-zones.csv as zones", name: "<test>") { _, outcome in
            for case .warning(let w) in outcome.outputs { notes.append(w) }
        }
        let zones = try s.table("zones")
        guard case .geometry(let g)? = zones.column("area")?.storage else { Issue.record("area is no geometry"); return }
        #expect(g.space == .plane)
        #expect(zones.rowCount == 5)
        #expect(notes.contains { $0.contains("read as geometries: area (x and y on a plan; load with crs=lnglat") }, "\(notes)")
    }

    @Test func pldpLocationsLoadTheirLines() throws {
        // Seattle's export: GeoJSON cut out of features, one with the feature's brace left on.
        let s = makeSession()
        let t = try s.table("load datasets/pldp-seattle/locations.csv as loc; loc")
        guard case .geometry(let g)? = t.column("Location_Geometry")?.storage else { Issue.record("no geometry column"); return }
        #expect(g.space == .lnglat)
        #expect(t.column("Location_Geometry")!.nullCount == 0)
        #expect((0..<g.count).allSatisfy { g.kinds[$0] == .lineString })
        #expect(t.strings("Location_ID").count == 108)
    }

    @Test func smallCoordinatesAreLngLatUnlessSaid() throws {
        let path = try temporaryFile("plan-zones.csv", "zone,area\nA,\"POLYGON ((0 0, 10 0, 10 10, 0 0))\"\n")
        let s = makeSession()
        let detected = try s.table("load \(path) as a; a")
        let said = try s.table("load \(path) as b with crs=plane; b")
        guard case .geometry(let g1)? = detected.column("area")?.storage, case .geometry(let g2)? = said.column("area")?.storage else {
            Issue.record("not geometries"); return
        }
        #expect(g1.space == .lnglat && g2.space == .plane)
        #expect(s.failure("load \(path) as c with crs=mercator")?.message.contains("neither lnglat nor plane") == true)
    }

    @Test func aColumnWithABadGeometryStaysTextAndSaysWhy() throws {
        let path = try temporaryFile("bad-zones.csv", "zone,area\nA,\"POLYGON ((0 0, 10 0, 10 10, 0 0))\"\nB,\"POLYGON ((0 0, 1 1))\"\n")
        let s = makeSession()
        var warnings: [String] = []
        s.run("load \(path) as z", name: "<test>") { _, outcome in
            for case .warning(let w) in outcome.outputs { warnings.append(w) }
        }
        #expect(warnings.contains { $0.contains("area looks like geometries but one is not read") && $0.contains("four points") }, "\(warnings)")
        #expect(try s.table("z").column("area")?.type == .string)
    }

    @Test func geoJSONRoundTrip() throws {
        let s = makeSession()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-stops-\(getpid()).geojson").path
        #expect(s.failure("load datasets/gtfs/demo-transit.zip as feed; feed.stops | let position = point(stop_lon, stop_lat) | save! \(path)") == nil)
        let back = try s.table("load \(path) as s; s")
        let stops = try s.table("feed.stops")
        #expect(back.rowCount == stops.rowCount)
        #expect(back.strings("stop_id") == stops.strings("stop_id"))
        // The geometry is the point of each stop's own coordinates.
        let expected = zip(stops.strings("stop_lon"), stops.strings("stop_lat")).map { "POINT (\($0) \($1))" }
        #expect(back.strings("geometry") == expected)
        // Without a geometry column, latitude and longitude columns are the position.
        let implied = FileManager.default.temporaryDirectory.appendingPathComponent("utq-stops2-\(getpid()).geojson").path
        #expect(s.failure("feed.stops | save! \(implied); load \(implied) as s2") == nil)
        #expect(try s.table("s2").strings("geometry") == expected)
    }

    @Test func aFeatureCollectionIsARowPerFeature() throws {
        let text = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": 7, "properties": {"name": "Torget", "people": 12}, "geometry": {"type": "Polygon", "coordinates": [[[5.73, 58.97], [5.74, 58.97], [5.74, 58.98], [5.73, 58.97]]]}},
          {"type": "Feature", "properties": {"name": "Kiosk", "people": null}, "geometry": {"type": "Point", "coordinates": [5.735, 58.972]}},
          {"type": "Feature", "properties": {"name": "Nowhere"}, "geometry": null}
        ]}
        """
        let path = try temporaryFile("square.geojson", text)
        let s = makeSession()
        let t = try s.table("load \(path) as square; square")
        #expect(t.columnNames == ["id", "name", "people", "geometry"])
        #expect(t.strings("name") == ["Torget", "Kiosk", "Nowhere"])
        #expect(t.strings("geometry") == ["POLYGON ((5.73 58.97, 5.74 58.97, 5.74 58.98, 5.73 58.97))", "POINT (5.735 58.972)", "null"])
    }

    @Test func savingGeoJSONWithoutPositionsTeaches() throws {
        let s = makeSession()
        let e = s.failure("load datasets/rides.csv; count by driver | save! /tmp/utq-no-position.geojson")
        #expect(e?.message.contains("no position") == true)
        #expect(e?.hint?.contains("point(lng, lat)") == true)
    }

    @Test func pointsOutsideTheEarthAreNullWithANote() throws {
        let s = makeSession()
        var notes: [String] = []
        s.run("load datasets/market.json; let p = point(x, y) | where p is null | count", name: "<test>") { _, outcome in
            for o in outcome.outputs { if case .warning(let w) = o { notes.append(w) } }
        }
        #expect(notes.contains { $0.contains("no place on the Earth") && $0.contains("xy(x, y)") }, "\(notes)")
    }

    @Test func aColumnOfGeometriesGathersItsRowsWhole() throws {
        let shapes = try ["POLYGON ((0 0, 10 0, 10 10, 0 0), (2 1, 4 1, 4 2, 2 1))", "LINESTRING (1 1, 2 2, 3 1)",
                          "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))", "POINT (7 8)"].map { try WKT.parse($0) }
        var b = GeometryBuilder(space: .plane)
        b.append(shapes[0]); b.appendNull(); b.append(shapes[1]); b.append(shapes[2]); b.append(shapes[3])
        let column = b.storage
        let picked = column.gather([3, -1, 0, 0, 2, 4, 1])
        #expect(picked.count == 7)
        for (k, r) in [3, -1, 0, 0, 2, 4, 1].enumerated() where r >= 0 && r != 1 {
            var want = column[r]
            want.space = .plane
            #expect(picked[k] == want, "row \(k) from \(r): \(WKT.text(picked[k])) against \(WKT.text(want))")
        }
        #expect(picked[1].isEmpty && picked[6].isEmpty)
        #expect(WKT.text(picked[0]) == WKT.text(shapes[2]) && WKT.text(picked[5]) == "POINT (7 8)")
    }
}
