// Geodesic against GeographicLib: its published test values, and differential runs against the
// geographiclib Python package (Tests/Support/geodesic_reference.py) on seeded random cases.

@testable import UTQCore
import Foundation
import Testing

@Suite("Geodesic")
struct GeodesicTests {
    let wgs84 = Geodesic.wgs84

    // MARK: GeographicLib's published values

    /// GeographicLib's test set (test_geodesic.py, testcases): lat1 lon1 azi1 lat2 lon2 azi2 s12,
    /// longitudes unrolled.
    static let karneyCases: [[Double]] = [
        [35.60777, -139.44815, 111.098748429560326, -11.17491, -69.95921, 129.289270889708762, 8935244.5604818305],
        [55.52454, 106.05087, 22.020059880982801, 77.03196, 197.18234, 109.112041110671519, 4105086.1713924406],
        [-21.97856, 142.59065, -32.44456876433189, 41.84138, 98.56635, -41.84359951440466, 8394328.894657671],
        [-66.99028, 112.2363, 173.73491240878403, -12.70631, 285.90344, 2.512956620913668, 11150344.2312080241],
        [-17.42761, 173.34268, -159.033557661192928, -15.84784, 5.93557, -20.787484651536988, 16076603.1631180673],
        [32.84994, 48.28919, 150.492927788121982, -56.28556, 202.29132, 48.113449399816759, 16727068.9438164461],
        [6.96833, 52.74123, 92.581585386317712, -7.39675, 206.17291, 90.721692165923907, 17102477.2496958388],
        [-50.56724, -16.30485, -105.439679907590164, -33.56571, -94.97412, -47.348547835650331, 6455670.5118668696],
        [-58.93002, -8.90775, 140.965397902500679, -8.91104, 133.13503, 19.255429433416599, 11756066.0219864627],
        [-68.82867, -74.28391, 93.774347763114881, -50.63005, -8.36685, 34.65564085411343, 3956936.926063544],
        [-10.62672, -32.0898, -86.426713286747751, 5.883, -134.31681, -80.473780971034875, 11470869.3864563009],
        [-21.76221, 166.90563, 29.319421206936428, 48.72884, 213.97627, 43.508671946410168, 9098627.3986554915],
        [-19.79938, -174.47484, 71.167275780171533, -11.99349, -154.35109, 65.589099775199228, 2319004.8601169389],
        [-11.95887, -116.94513, 92.712619830452549, 4.57352, 7.16501, 78.64960934409585, 13834722.5801401374],
        [-87.85331, 85.66836, -65.120313040242748, 66.48646, 16.09921, -4.888658719272296, 17286615.3147144645],
        [1.74708, 128.32011, -101.584843631173858, -11.16617, 11.87109, -86.325793296437476, 12942901.1241347408],
        [-25.72959, -144.90758, -153.647468693117198, -57.70581, -269.17879, -48.343983158876487, 9413446.7452453107],
        [-41.22777, 122.32875, 14.285113402275739, -7.57291, 130.37946, 10.805303085187369, 3812686.035106021],
        [11.01307, 138.25278, 79.43682622782374, 6.62726, 247.05981, 103.708090215522657, 11911190.819018408],
        [-29.47124, 95.14681, -163.779130441688382, -27.46601, -69.15955, -15.909335945554969, 13487015.8381145492],
    ]

    @Test("GeographicLib's test set, inverse and direct")
    func karneyTestSet() {
        for c in Self.karneyCases {
            let (lat1, lon1, azi1, lat2, lon2, azi2, s12) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
            let inv = wgs84.inverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            #expect(abs(inv.azimuth1 - azi1) <= 1e-13, "azi1 \(c)")
            #expect(abs(inv.azimuth2 - azi2) <= 1e-13, "azi2 \(c)")
            #expect(abs(inv.distance - s12) <= 1e-8, "s12 \(c)")
            let dir = wgs84.direct(lat1: lat1, lon1: lon1, azimuth: azi1, distance: s12)
            #expect(abs(dir.lat - lat2) <= 1e-13, "lat2 \(c)")
            #expect(geodesicAngleError(dir.lon, lon2) <= 1e-13, "lon2 \(c)")
            #expect(abs(dir.azimuth - azi2) <= 1e-13, "azi2 \(c)")
        }
    }

    @Test("GeodSolve cases from GeographicLib's test suite")
    func geodSolveCases() {
        // GeodSolve0, JFK to CDG (the example of the GeodSolve manual).
        var inv = wgs84.inverse(lat1: 40.6, lon1: -73.8, lat2: 49.01666667, lon2: 2.55)
        #expect(abs(inv.azimuth1 - 53.47022) <= 0.5e-5)
        #expect(abs(inv.azimuth2 - 111.59367) <= 0.5e-5)
        #expect(abs(inv.distance - 5853226) <= 0.5)
        // GeodSolve1
        let dir = wgs84.direct(lat1: 40.63972222, lon1: -73.77888889, azimuth: 53.5, distance: 5850e3)
        #expect(abs(dir.lat - 49.01467) <= 0.5e-5)
        #expect(abs(dir.lon - 2.56106) <= 0.5e-5)
        #expect(abs(dir.azimuth - 111.62947) <= 0.5e-5)
        // GeodSolve2: nearly antipodal on a prolate ellipsoid.
        let prolate = Geodesic(a: 6.4e6, f: -1 / 150.0)
        inv = prolate.inverse(lat1: 0.07476, lon1: 0, lat2: -0.07476, lon2: 180)
        #expect(abs(inv.azimuth1 - 90.00078) <= 0.5e-5)
        #expect(abs(inv.azimuth2 - 90.00078) <= 0.5e-5)
        #expect(abs(inv.distance - 20106193) <= 0.5)
        inv = prolate.inverse(lat1: 0.1, lon1: 0, lat2: -0.1, lon2: 180)
        #expect(abs(inv.azimuth1 - 90.00105) <= 0.5e-5)
        #expect(abs(inv.distance - 20106193) <= 0.5)
        // GeodSolve4: a 7 cm line.
        inv = wgs84.inverse(lat1: 36.493349428792, lon1: 0, lat2: 36.49334942879201, lon2: 0.0000008)
        #expect(abs(inv.distance - 0.072) <= 0.5e-3)
        // GeodSolve5: to the pole.
        let pole = wgs84.direct(lat1: 0.01777745589997, lon1: 30, azimuth: 0, distance: 10e6)
        #expect(abs(pole.lat - 90) <= 0.5e-5)
        if pole.lon < 0 {
            #expect(abs(pole.lon + 150) <= 0.5e-5)
            #expect(abs(abs(pole.azimuth) - 180) <= 0.5e-5)
        } else {
            #expect(abs(pole.lon - 30) <= 0.5e-5)
            #expect(abs(pole.azimuth) <= 0.5e-5)
        }
        // GeodSolve6, 9, 10, 11: nearly antipodal cases that once failed.
        let antipodal: [(Double, Double, Double, Double)] = [
            (88.202499451857, -88.202499451857, 179.981022032992859592, 20003898.214),
            (89.262080389218, -89.262080389218, 179.992207982775375662, 20003925.854),
            (89.333123580033, -89.333123580032997687, 179.99295812360148422, 20003926.881),
            (56.320923501171, -56.320923501171, 179.664747671772880215, 19993558.287),
            (52.784459512564, -52.784459512563990912, 179.634407464943777557, 19991596.095),
            (48.522876735459, -48.52287673545898293, 179.599720456223079643, 19989144.774),
        ]
        for (lat1, lat2, lon2, s12) in antipodal {
            #expect(abs(wgs84.inverse(lat1: lat1, lon1: 0, lat2: lat2, lon2: lon2).distance - s12) <= 0.5e-3)
        }
        // GeodSolve12: an extreme prolate ellipsoid.
        inv = Geodesic(a: 89.8, f: -1.83).inverse(lat1: 0, lon1: 0, lat2: -10, lon2: 160)
        #expect(abs(inv.azimuth1 - 120.27) <= 1e-2)
        #expect(abs(inv.azimuth2 - 105.15) <= 1e-2)
        #expect(abs(inv.distance - 266.7) <= 1e-1)
        // GeodSolve14, 55, 94: NaN in, NaN out.
        for (lat1, lon1, lat2, lon2) in [(0.0, 0.0, 1.0, Double.nan), (.nan, 0, 0, 90), (.nan, 0, 90, 9), (0, 0, .nan, 90)] {
            inv = wgs84.inverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            #expect(inv.distance.isNaN && inv.azimuth1.isNaN && inv.azimuth2.isNaN)
        }
        // GeodSolve29: longitudes outside [-180, 180].
        #expect(abs(wgs84.inverse(lat1: 0, lon1: 539, lat2: 0, lon2: 181).distance - 222639) <= 0.5)
        // GeodSolve33: along and near the equator, on WGS 84 and on a sphere.
        let equatorial: [(Geodesic, Double, Double, Double, Double, Double)] = [
            (wgs84, 0, 179, 90, 90, 19926189), (wgs84, 0, 179.5, 55.96650, 124.03350, 19980862),
            (wgs84, 0, 180, 0, 180, 20003931), (wgs84, 1, 180, 0, 180, 19893357),
            (Geodesic(a: 6.4e6, f: 0), 0, 179, 90, 90, 19994492), (Geodesic(a: 6.4e6, f: 0), 0, 180, 0, 180, 20106193),
            (Geodesic(a: 6.4e6, f: -1 / 300.0), 0.5, 180, 33.02493, 146.97364, 20082617),
        ]
        for (geodesic, lat2, lon2, azi1, azi2, s12) in equatorial {
            inv = geodesic.inverse(lat1: 0, lon1: 0, lat2: lat2, lon2: lon2)
            #expect(abs(inv.azimuth1 - azi1) <= 0.5e-5, "\(lat2) \(lon2)")
            #expect(abs(abs(inv.azimuth2) - azi2) <= 0.5e-5, "\(lat2) \(lon2)")
            #expect(abs(inv.distance - s12) <= 0.5, "\(lat2) \(lon2)")
        }
        // GeodSolve59: longitudes nearly 180° apart.
        inv = wgs84.inverse(lat1: 5, lon1: 0.00000000000001, lat2: 10, lon2: 180)
        #expect(abs(inv.azimuth1 - 0.000000000000035) <= 1.5e-14)
        #expect(abs(inv.azimuth2 - 179.99999999999996) <= 1.5e-14)
        #expect(abs(inv.distance - 18345191.174332713) <= 5e-9)
        // GeodSolve61: a tiny negative azimuth goes west.
        let west = wgs84.direct(lat1: 45, lon1: 0, azimuth: -0.000000000000000003, distance: 1e7)
        #expect(abs(west.lat - 45.30632) <= 0.5e-5)
        #expect(abs(abs(west.lon) - 180) <= 0.5e-5)
        #expect(abs(abs(west.azimuth) - 180) <= 0.5e-5)
        // GeodSolve92: a 26 cm line.
        inv = wgs84.inverse(lat1: 37.757540000000006, lon1: -122.47018, lat2: 37.75754, lon2: -122.470177)
        #expect(abs(inv.azimuth1 - 89.99999923) <= 1e-7)
        #expect(abs(inv.azimuth2 - 90.00000106) <= 1e-7)
        #expect(abs(inv.distance - 0.264) <= 0.5e-3)
        // GeodSolve99
        inv = wgs84.inverse(lat1: 45, lon1: 0, lat2: -45, lon2: 179.572719)
        #expect(abs(inv.azimuth1 - 90.00000028) <= 1e-8)
        #expect(abs(inv.azimuth2 - 90.00000028) <= 1e-8)
        #expect(abs(inv.distance - 19987083.007) <= 0.5e-3)
        // Direct with infinite or NaN input gives NaN (GeodSolve84).
        for (azimuth, distance) in [(90.0, Double.infinity), (90, .nan), (.infinity, 1000), (.nan, 1000)] {
            let p = wgs84.direct(lat1: 0, lon1: 0, azimuth: azimuth, distance: distance)
            #expect(p.lat.isNaN && p.lon.isNaN && p.azimuth.isNaN)
        }
    }

    @Test("Planimeter cases from GeographicLib's test suite")
    func planimeterCases() {
        // (points, perimeter, area, tolerance of the perimeter)
        let cases: [([(Double, Double)], Double, Double, Double)] = [
            ([(89, 0), (89, 90), (89, 180), (89, 270)], 631819.8745, 24952305678.0, 1e-4),   // round the north pole
            ([(-89, 0), (-89, 90), (-89, 180), (-89, 270)], 631819.8745, 24952305678.0, 1e-4), // and the south one
            ([(0, -1), (-1, 0), (0, 1), (1, 0)], 627598.2731, 24619419146.0, 1e-4),
            ([(90, 0), (0, 0), (0, 90)], 30022685, 63758202715511.0, 1),
            ([(89, 0.1), (89, 90.1), (89, -179.9)], 539297, 12476152838.5, 1),               // Planimeter5
            ([(9, -0.00000000000001), (9, 180), (9, 0)], 36026861, 0, 1),                  // Planimeter6
            ([(9, 0.00000000000001), (9, 0), (9, 180)], 36026861, 0, 1),
            ([(66.562222222, 0), (66.562222222, 180), (66.562222222, 360)], 10465729, 0, 1), // Planimeter12
            ([(89, -360), (89, -240), (89, -120), (89, 0), (89, 120), (89, 240)], 1160741, 32415230256.0, 1), // twice round
            ([(2, 1), (1, 2), (3, 3)], 0, 18454562325.45119, .infinity),                   // Planimeter15
        ]
        for (points, perimeter, area, perimeterTolerance) in cases {
            let ring = wgs84.ringArea(lats: points.map(\.0), lons: points.map(\.1))
            #expect(abs(ring.area - area) <= 1, "\(points)")
            #expect(abs(ring.perimeter - perimeter) <= perimeterTolerance, "\(points)")
        }
        // The polyline of the right triangle above (Planimeter0).
        #expect(abs(wgs84.length(lats: [90, 0, 0], lons: [0, 0, 90]) - 20020719) <= 1)
        // Three times round a circle of latitude (Planimeter21): three times the area of one.
        let lats = [Double](repeating: 45, count: 9)
        let lons: [Double] = [60, 180, -60, 60, 180, -60, 60, 180, -60]
        #expect(abs(wgs84.ringArea(lats: lats, lons: lons).area - 3 * 39433884866571.4277) <= 0.5)
    }

    @Test("A ring has the same area either way round, with or without its closing point")
    func ringDirectionAndClosure() {
        let lats = [47.3700, 47.3700, 47.3709, 47.3709]
        let lons = [8.5400, 8.5413, 8.5413, 8.5400]
        let open = wgs84.ringArea(lats: lats, lons: lons)
        let closed = wgs84.ringArea(lats: lats + [lats[0]], lons: lons + [lons[0]])
        let reversed = wgs84.ringArea(lats: lats.reversed(), lons: lons.reversed())
        #expect(open.area > 9_000 && open.area < 10_000)  // about 100 m by 100 m
        #expect(abs(closed.area - open.area) <= 1e-9 * open.area)
        #expect(abs(reversed.area - open.area) <= 1e-9 * open.area)
        #expect(abs(closed.perimeter - open.perimeter) <= 1e-9)
        #expect(wgs84.ringArea(lats: [1], lons: [2]) == (area: 0, perimeter: 0))
        #expect(wgs84.length(lats: [1], lons: [2]) == 0)
    }

    @Test("Waypoints: the ends exactly, the steps between them")
    func waypointSpacing() {
        let points = wgs84.waypoints(lat1: 52.52, lon1: 13.40, lat2: 48.14, lon2: 11.58, step: 10_000)
        let total = wgs84.inverse(lat1: 52.52, lon1: 13.40, lat2: 48.14, lon2: 11.58).distance
        #expect(points.count == Int((total / 10_000).rounded(.up)) + 1)
        #expect(points.first! == (lat: 52.52, lon: 13.40) && points.last! == (lat: 48.14, lon: 11.58))
        for k in 1..<(points.count - 1) {
            let step = wgs84.inverse(lat1: points[k - 1].lat, lon1: points[k - 1].lon, lat2: points[k].lat, lon2: points[k].lon)
            #expect(abs(step.distance - 10_000) <= 1e-6)
        }
        #expect(wgs84.waypoints(lat1: 1, lon1: 2, lat2: 1, lon2: 2, step: 10).count == 2)
        #expect(wgs84.waypoints(lat1: 1, lon1: 2, lat2: 3, lon2: 4, step: 0).count == 2)
        #expect(wgs84.waypoints(lat1: 1, lon1: 179.5, lat2: 1, lon2: -179.5, step: 1_000_000).count == 2)
        #expect(wgs84.waypoints(lat1: 1, lon1: 2, lat2: 3, lon2: 4, step: .infinity).count == 2)
        #expect(wgs84.waypoints(lat1: 91, lon1: 2, lat2: 3, lon2: 4, step: 10).count == 2)
    }

    // MARK: Differential against the geographiclib package

    /// geographiclib made to call the C library's hypot, as GeographicLib's C code does: then the
    /// two compute the same operations on the same values, and agree to round-off.
    @Test("Computes what GeographicLib computes, to 1e-11 (geographiclib with C's hypot)")
    func sameComputationAsGeographicLib() throws {
        let cases = GeodesicCases(seed: 0x6765_6F64_6573_6963)
        let reference = try GeodesicReference.results(for: cases.json, cHypot: true)
        var report = GeodesicErrorReport(bounds: .roundOff)
        compare(cases, reference, &report)
        print(report.summary(title: "Geodesic against geographiclib with the C library's hypot"))
        report.expectNoFailures()
    }

    /// geographiclib as installed, whose own hypot rounds differently from the C library's about
    /// once in a thousand: the results then differ by what a last-bit change of the inputs does.
    @Test("Agrees with the geographiclib package as installed, to 1e-9")
    func agreesWithGeographicLibPackage() throws {
        let cases = GeodesicCases(seed: 0x6765_6F64_6573_6963)
        let reference = try GeodesicReference.results(for: cases.json, cHypot: false)
        var report = GeodesicErrorReport(bounds: .inputSensitive)
        compare(cases, reference, &report)
        print(report.summary(title: "Geodesic against the geographiclib package as installed"))
        report.expectNoFailures()
    }

    private func compare(_ cases: GeodesicCases, _ reference: GeodesicReference.Results, _ report: inout GeodesicErrorReport) {
        for (i, c) in cases.json.inverse.enumerated() {
            let ours = wgs84.inverse(lat1: c[0], lon1: c[1], lat2: c[2], lon2: c[3])
            let theirs = reference.inverse[i]
            let kind = "inverse \(cases.inverseKinds[i])", label = "\(kind) \(c)"
            report.distance("\(kind): distance", ours.distance, theirs[0], label)
            report.azimuth("\(kind): azimuths", ours.azimuth1, theirs[1], lineLength: theirs[0], label)
            report.azimuth("\(kind): azimuths", ours.azimuth2, theirs[2], lineLength: theirs[0], label)
        }
        for (i, c) in cases.json.direct.enumerated() {
            let ours = wgs84.direct(lat1: c[0], lon1: c[1], azimuth: c[2], distance: c[3])
            let theirs = reference.direct[i]
            let kind = "direct \(cases.directKinds[i])", label = "\(kind) \(c)"
            report.angle("\(kind): lat, lon", ours.lat, theirs[0], label)
            report.angle("\(kind): lat, lon", ours.lon, theirs[1], label)
            report.angle("\(kind): azimuth", ours.azimuth, theirs[2], label)
        }
        for (i, c) in cases.json.length.enumerated() {
            report.distance("length", wgs84.length(lats: c[0], lons: c[1]), reference.length[i], "length \(c)")
        }
        for (i, c) in cases.json.ring.enumerated() {
            let ours = wgs84.ringArea(lats: c[0], lons: c[1])
            let kind = "ring \(cases.ringKinds[i])", label = "\(kind) \(c)"
            report.area("\(kind): area", ours.area, reference.ring[i][0], edges: c[0].count, label)
            report.distance("\(kind): perimeter", ours.perimeter, reference.ring[i][1], label)
        }
        for (i, c) in cases.json.waypoints.enumerated() {
            let ours = wgs84.waypoints(lat1: c[0], lon1: c[1], lat2: c[2], lon2: c[3], step: c[4])
            let theirs = reference.waypoints[i]
            #expect(ours.count == theirs.count, "waypoints \(c)")
            for (p, q) in zip(ours, theirs) {
                report.angle("waypoints: lat, lon", p.lat, q[0], "waypoints \(c)")
                report.angle("waypoints: lat, lon", p.lon, q[1], "waypoints \(c)")
            }
        }
    }
}
