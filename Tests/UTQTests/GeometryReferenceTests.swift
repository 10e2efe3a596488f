import Foundation
import Testing
@testable import UTQCore

/// utq's geometry functions and spatial joins, run as a user writes them, against an
/// independent computation (Tests/Support/geometry_reference.py): shapely (GEOS) on the
/// plane, geographiclib (Karney) in lng/lat; on generated geometries (concave polygons with
/// holes, points on their edges and corners) and on real ones: the market square and its
/// zones, the demo GTFS feed's stops, the Prishtina lines and stops, Seattle's PLDP locations.
/// Measures agree within 1e-9 relative, geodesic distances within a millimetre.
@Suite(.serialized) struct GeometryReferenceTests {
    // MARK: the reference

    static func reference(_ cases: [[String: Any]]) throws -> [Any] {
        let python = try #require(Oracle.python(with: "shapely, geographiclib"), "no Python with shapely and geographiclib (make oracle-deps installs one)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-geometry-cases-\(getpid()).json").path
        try JSONSerialization.data(withJSONObject: ["cases": cases]).write(to: URL(fileURLWithPath: path))
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/geometry_reference.py"), path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "geometry_reference.py: \(errors)")
        return try JSONSerialization.jsonObject(with: data) as! [Any]
    }

    /// Within `relative` of the reference, or within `absolute` of it near zero.
    static func close(_ a: Double, _ b: Double, relative: Double = 1e-9, absolute: Double = 1e-9) -> Bool {
        abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
    }

    static func number(_ any: Any) -> Double { (any as? NSNumber)?.doubleValue ?? .nan }

    // MARK: generated geometries on a plane

    /// Star-shaped polygons (concave), a third with a hole; points at random, on corners, and
    /// at the middle of axis-aligned edges, where within and intersects part ways.
    static func generated(seed: UInt64) -> (points: [(Int, String)], polygons: [(Int, String)]) {
        var rng = SeededRandom(seed: seed)
        func n(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53) }
        func ring(_ cx: Double, _ cy: Double, _ r: Double, _ k: Int, clockwise: Bool) -> [(Double, Double)] {
            var pts: [(Double, Double)] = []
            for i in 0..<k {
                let a = Double(clockwise ? k - i : i) / Double(k) * 2 * .pi
                let rr = r * n(0.55, 1.0)
                pts.append(((cx + rr * cos(a) * 64).rounded() / 64, (cy + rr * sin(a) * 64).rounded() / 64))
            }
            return pts + [pts[0]]
        }
        func text(_ r: [(Double, Double)]) -> String { "(" + r.map { "\(NumberText.double($0.0)) \(NumberText.double($0.1))" }.joined(separator: ", ") + ")" }
        var polygons: [(Int, String)] = []
        var corners: [(Double, Double)] = []
        for q in 0..<40 {
            let cx = n(0, 200), cy = n(0, 200), r = n(8, 30)
            let outer = ring(cx, cy, r, 5 + Int(Double(rng.next() >> 11) / Double(1 << 53) * 8), clockwise: q % 2 == 0)
            corners += outer.prefix(2)
            var rings = [text(outer)]
            if q % 3 == 0 { rings.append(text(ring(cx, cy, r * 0.3, 5, clockwise: q % 2 == 1))) }
            polygons.append((q, "POLYGON (" + rings.joined(separator: ", ") + ")"))
        }
        // Squares whose edges are exactly representable, with points on their edges' middles.
        var edges: [(Double, Double)] = []
        for q in 0..<10 {
            let x = (n(0, 180) * 4).rounded() / 4, y = (n(0, 180) * 4).rounded() / 4, s = 10.0
            polygons.append((40 + q, "POLYGON ((\(x) \(y), \(x + s) \(y), \(x + s) \(y + s), \(x) \(y + s), \(x) \(y)))"))
            edges.append((x + s / 2, y)); edges.append((x, y + s / 2))
        }
        var points: [(Int, String)] = []
        for p in 0..<400 { points.append((p, "POINT (\(NumberText.double(n(-10, 210))) \(NumberText.double(n(-10, 210))))")) }
        for (k, c) in (corners + edges).enumerated() { points.append((400 + k, "POINT (\(NumberText.double(c.0)) \(NumberText.double(c.1)))")) }
        return (points, polygons)
    }

    static func csv(_ name: String, _ rows: [(Int, String)], id: String) throws -> String {
        try temporaryFile(name, "\(id),geom\n" + rows.map { "\($0.0),\"\($0.1)\"" }.joined(separator: "\n") + "\n")
    }

    /// The same pairs; else the first few that only one side has.
    static func same<T: Hashable>(_ mine: Set<T>, _ theirs: Set<T>, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(mine == theirs, "\(what): utq alone \(Array(mine.subtracting(theirs).prefix(5))), the reference alone \(Array(theirs.subtracting(mine).prefix(5)))",
                sourceLocation: sourceLocation)
    }

    static func pairs(_ t: Table, _ a: String, _ b: String) -> Set<[Int]> {
        Set(zip(t.strings(a), t.strings(b)).map { [Int($0)!, Int($1)!] })
    }

    @Test func planeJoinsAndMeasuresAgreeWithShapely() throws {
        let (points, polygons) = Self.generated(seed: 11)
        let s = makeSession()
        let pp = try Self.csv("gen-points.csv", points, id: "pid"), qq = try Self.csv("gen-polygons.csv", polygons, id: "qid")
        _ = try s.table("load \(pp) as pts with crs=plane; load \(qq) as polys with crs=plane; pts")
        let within = try s.table("pts | join polys on within | select pid, qid")
        let contains = try s.table("polys | join pts on contains | select qid, pid")
        let touching = try s.table("pts | join polys on intersects | select pid, qid")
        let overlaps = try s.table("polys | join polys on intersects | select qid, other = polys.qid")
        let measured = try s.table("polys | select qid, a = area(geom), l = length(geom), cx = x(centroid(geom)), cy = y(centroid(geom))")
        let nearest = try s.table("pts | join polys nearest 3 | select pid, distance")
        let buffered = try s.table("polys | select qid, b = area(buffer(geom, 2.5))")
        let p = points.map { [$0.0, $0.1] as [Any] }, q = polygons.map { [$0.0, $0.1] as [Any] }
        let answers = try Self.reference([
            ["op": "pairs", "left": p, "right": q, "test": "within"],
            ["op": "pairs", "left": q, "right": p, "test": "contains"],
            ["op": "pairs", "left": p, "right": q, "test": "intersects"],
            ["op": "pairs", "left": q, "right": q, "test": "intersects"],
            ["op": "measures", "geometries": q],
            ["op": "nearest", "left": p, "right": q, "k": 3],
            ["op": "buffers", "geometries": q, "d": 2.5],
        ])
        func expected(_ k: Int) -> Set<[Int]> { Set((answers[k] as! [[Int]])) }
        Self.same(Self.pairs(within, "pid", "qid"), expected(0), "within")
        Self.same(Self.pairs(contains, "qid", "pid"), expected(1), "contains")
        Self.same(Self.pairs(touching, "pid", "qid"), expected(2), "intersects")
        Self.same(Self.pairs(overlaps, "qid", "other"), expected(3), "polygons intersecting polygons")
        // The edge points make within and intersects differ: the test would not see a mix-up.
        #expect(expected(0) != expected(2))
        for row in answers[4] as! [[Any]] {
            let k = measured.strings("qid").firstIndex(of: String(Self.number(row[0]).rounded()).replacingOccurrences(of: ".0", with: ""))!
            for (column, r) in [("a", 1), ("l", 2), ("cx", 3), ("cy", 4)] {
                let mine = Double(measured.strings(column)[k])!
                #expect(Self.close(mine, Self.number(row[r])), "\(column) of polygon \(k): utq \(mine), shapely \(row[r])")
            }
        }
        var theirs: [Int: [Double]] = [:]
        for row in answers[5] as! [[Any]] { theirs[Int(Self.number(row[0]))] = (row[1] as! [Any]).map(Self.number) }
        var mine: [Int: [Double]] = [:]
        for (id, d) in zip(nearest.strings("pid"), nearest.strings("distance")) { mine[Int(id)!, default: []].append(Double(d)!) }
        #expect(mine.count == points.count)
        for (id, d) in mine {
            #expect(d.count == 3 && zip(d, theirs[id]!).allSatisfy { Self.close($0, $1, absolute: 1e-12) }, "nearest of point \(id): \(d) against \(theirs[id]!)")
        }
        // Arcs of 8 segments a quadrant, as shapely's with quad_segs=8 (PostGIS's default); GEOS
        // spaces a corner's arc from the corner's own angle, so the areas differ by about 1e-5.
        for (k, row) in (answers[6] as! [[Any]]).enumerated() {
            let b = Double(buffered.strings("b")[k])!
            #expect(Self.close(b, Self.number(row[1]), relative: 1e-4), "buffer of polygon \(k): \(b) against \(row[1])")
        }
    }

    @Test func marketEntriesFallInTheZonesShapelyFindsThemIn() throws {
        let s = makeSession()
        let joined = try s.table("load datasets/market.json; load datasets/market-zones.csv as zones; market | join zones on within | select tag, zone")
        let market = try s.table("market | select tag, p = wkt(xy(x, y))")
        let zones = try s.table("zones | select zone, z = wkt(area)")
        let names = zones.strings("zone")
        let answers = try Self.reference([["op": "pairs", "left": zip(market.strings("tag"), market.strings("p")).map { [Int($0)!, $1] },
                                           "right": zones.strings("z").enumerated().map { [$0.offset, $0.element] }, "test": "within"]])
        let expected = Set((answers[0] as! [[Int]]).map { "\($0[0]) \(names[$0[1]])" })
        Self.same(Set(zip(joined.strings("tag"), joined.strings("zone")).map { "\($0) \($1)" }), expected, "entries in zones")
        #expect(joined.rowCount > 400)
    }

    @Test func dissolvedBuffersHaveTheAreaOfShapelysUnion() throws {
        // Each legend's entries buffered by 40 and merged: overlapping discs, some chains of them.
        let s = makeSession()
        let mine = try s.table("load datasets/market.json; market | dissolve buffer(xy(x, y), 40) by legend | select legend, a = area(dissolve)")
        let points = try s.table("market | where x is not null | select legend, p = wkt(xy(x, y))")
        var groups: [String: [String]] = [:]
        for (legend, p) in zip(points.strings("legend"), points.strings("p")) { groups[legend, default: []].append(p) }
        let names = groups.keys.sorted()
        let answers = try Self.reference([["op": "dissolves", "groups": names.enumerated().map { [$0.offset, groups[$0.element]!] as [Any] }, "d": 40]])
        #expect(mine.rowCount == names.count)
        for row in answers[0] as! [[Any]] {
            let legend = names[Int(Self.number(row[0]))]
            let a = Double(mine.strings("a")[mine.strings("legend").firstIndex(of: legend)!])!
            #expect(Self.close(a, Self.number(row[1]), relative: 1e-9), "\(legend): utq \(a), shapely \(row[1])")
        }
        // Overlaps merged: the union is smaller than the discs' sum for the legends with many entries.
        #expect(Double(mine.strings("a")[mine.strings("legend").firstIndex(of: "Walking")!])! < 0.5 * 451 * 4994)
    }

    // MARK: lng/lat, geodesic

    @Test func stopsNearStopsAgreeWithGeographicLib() throws {
        let s = makeSession()
        _ = try s.table("load datasets/gtfs/demo-transit.zip as feed; feed.stops")
        let near = try s.table("feed.stops | join feed.stops within 60 km | select a = stop_id, b = stops.stop_id, distance")
        let nearest = try s.table("feed.stops | join feed.stops nearest 3 | select stop_id, distance")
        let bearings = try s.table("feed.stops | join feed.stops within 60 km | where distance > 0 | select a = stop_id, b = stops.stop_id, deg = bearing(point(stop_lon, stop_lat), point(stops.stop_lon, stops.stop_lat))")
        let stops = try s.table("feed.stops | select stop_id, stop_lon, stop_lat")
        let ids = stops.strings("stop_id")
        let coordinates = zip(stops.strings("stop_lon"), stops.strings("stop_lat")).enumerated().map { [$0.offset, Double($0.element.0)!, Double($0.element.1)!] as [Any] }
        var pairs: [[Any]] = []
        for (a, b) in zip(bearings.strings("a"), bearings.strings("b")) {
            let i = ids.firstIndex(of: a)!, j = ids.firstIndex(of: b)!
            pairs.append([pairs.count, coordinates[i][1], coordinates[i][2], coordinates[j][1], coordinates[j][2]])
        }
        let answers = try Self.reference([
            ["op": "near_geodesic", "left": coordinates, "right": coordinates, "d": 60_000],
            ["op": "nearest_geodesic", "left": coordinates, "right": coordinates, "k": 3],
            ["op": "bearings_geodesic", "pairs": pairs],
        ])
        var expected: [String: Double] = [:]
        for row in answers[0] as! [[Any]] { expected["\(ids[Int(Self.number(row[0]))]) \(ids[Int(Self.number(row[1]))])"] = Self.number(row[2]) }
        var found: [String: Double] = [:]
        for (k, (a, b)) in zip(near.strings("a"), near.strings("b")).enumerated() { found["\(a) \(b)"] = Double(near.strings("distance")[k])! }
        Self.same(Set(found.keys), Set(expected.keys), "stops within 60 km")
        for (pair, d) in found { #expect(abs(d - expected[pair]!) < 0.001, "\(pair): utq \(d) m, geographiclib \(expected[pair]!) m") }
        // More than one pair, some far apart: the test sees long lines as well as short ones.
        #expect(found.values.contains { $0 > 10_000 } && found.values.contains { $0 > 0 && $0 < 1_000 })
        var mine: [String: [Double]] = [:]
        for (id, d) in zip(nearest.strings("stop_id"), nearest.strings("distance")) { mine[id, default: []].append(Double(d)!) }
        for row in answers[1] as! [[Any]] {
            let id = ids[Int(Self.number(row[0]))], theirs = (row[1] as! [Any]).map(Self.number)
            #expect(mine[id]!.count == 3 && zip(mine[id]!, theirs).allSatisfy { abs($0 - $1) < 0.001 }, "\(id): \(mine[id]!) against \(theirs)")
        }
        for (k, row) in (answers[2] as! [[Any]]).enumerated() {
            let deg = Double(bearings.strings("deg")[k])!
            #expect(Self.close(deg, Self.number(row[1])), "bearing \(k): \(deg) against \(row[1])")
        }
    }

    @Test func linesMeasureAsGeographicLibMeasuresThem() throws {
        let s = makeSession()
        let seattle = try s.table("load datasets/pldp-seattle/locations.csv as loc; loc | select Location_ID, metres = length(Location_Geometry), w = wkt(Location_Geometry)")
        let routes = try s.table("load datasets/prishtina/routes.json as pr; pr.lines | select line, metres = length(polyline(polyline)), w = wkt(polyline(polyline))")
        let stopsNear = try s.table("pr.stops | join (pr.lines | select route = line, shape = polyline(polyline)) within 400 m | select stop, route, distance")
        let stops = try s.table("pr.stops | distinct stop, lng, lat")
        let lines = seattle.strings("w").enumerated().map { [$0.offset, $0.element] as [Any] } + routes.strings("w").enumerated().map { [1000 + $0.offset, $0.element] as [Any] }
        let routeLines = routes.strings("w").enumerated().map { [$0.offset, $0.element] as [Any] }
        let points = zip(stops.strings("lng"), stops.strings("lat")).enumerated().map { [$0.offset, Double($0.element.0)!, Double($0.element.1)!] as [Any] }
        let answers = try Self.reference([
            ["op": "lengths_geodesic", "geometries": lines],
            ["op": "point_line_geodesic", "points": points, "lines": routeLines],
        ])
        let lengths = seattle.strings("metres").map { Double($0)! } + routes.strings("metres").map { Double($0)! }
        for (k, row) in (answers[0] as! [[Any]]).enumerated() {
            #expect(abs(lengths[k] - Self.number(row[1])) < 0.001 && Self.close(lengths[k], Self.number(row[1]), relative: 1e-9, absolute: 1e-3),
                    "line \(k): utq \(lengths[k]) m, geographiclib \(row[1]) m")
        }
        #expect(seattle.rowCount == 108 && routes.rowCount == 4)
        // Each stop near each route: the same set within 400 m, the same distance to a millimetre.
        let names = routes.strings("line"), stopNames = stops.strings("stop")
        var expected: [String: Double] = [:]
        for row in answers[1] as! [[Any]] where Self.number(row[2]) <= 400 {
            expected["\(stopNames[Int(Self.number(row[0]))]) \(names[Int(Self.number(row[1]))])"] = Self.number(row[2])
        }
        var found: [String: Double] = [:]
        for (k, (stop, route)) in zip(stopsNear.strings("stop"), stopsNear.strings("route")).enumerated() {
            found["\(stop) \(route)"] = Double(stopsNear.strings("distance")[k])!
        }
        Self.same(Set(found.keys), Set(expected.keys), "stops within 400 m of a route")
        for (key, d) in found { #expect(abs(d - expected[key]!) < 0.001, "\(key): utq \(d) m, geographiclib \(expected[key]!) m") }
        #expect(found.values.contains { $0 > 1 })
    }

    @Test func buffersAndCellsOnTheEarth() throws {
        let s = makeSession()
        let t = try s.table("""
            load datasets/gtfs/demo-transit.zip as feed
            feed.stops | select stop_id, lon = stop_lon, lat = stop_lat, w = wkt(buffer(point(stop_lon, stop_lat), 400)), a = area(buffer(point(stop_lon, stop_lat), 400)), inside = intersects(cell(point(stop_lon, stop_lat), 50), point(stop_lon, stop_lat)), c = area(cell(point(stop_lon, stop_lat), 50))
            """)
        let answers = try Self.reference([["op": "areas_geodesic", "geometries": t.strings("w").enumerated().map { [$0.offset, $0.element] as [Any] }]])
        for (k, row) in (answers[0] as! [[Any]]).enumerated() {
            let a = Double(t.strings("a")[k])!
            #expect(Self.close(a, Self.number(row[1])), "area of buffer \(k): utq \(a), geographiclib \(row[1])")
            // 32 vertices on a 400 m circle: the area of that polygon, a little under π r².
            #expect(a < .pi * 400 * 400 && a > 0.99 * .pi * 400 * 400)
        }
        // Every vertex of a buffer is 400 m from its stop.
        let ring = try WKT.parse(t.strings("w")[0])
        let (lon, lat) = (Double(t.strings("lon")[0])!, Double(t.strings("lat")[0])!)
        for i in ring.xs.indices {
            let d = Geodesic.wgs84.inverse(lat1: lat, lon1: lon, lat2: ring.ys[i], lon2: ring.xs[i]).distance
            #expect(abs(d - 400) < 0.001)
        }
        #expect(t.strings("inside").allSatisfy { $0 == "true" })
        #expect(t.strings("c").allSatisfy { abs(Double($0)! - 2500) < 25 })
    }
}
