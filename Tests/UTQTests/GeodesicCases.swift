// Seeded random cases for the differential tests of Geodesic against GeographicLib.

import Foundation
@testable import UTQCore

/// Seeded random cases (worldwide, short, nearly antipodal, polar, equatorial, across the
/// antimeridian, coincident; small to continental rings either way round), as the JSON the
/// reference script reads, with the kind of each case kept beside it for the report.
struct GeodesicCases {
    struct JSON: Codable {
        var inverse: [[Double]] = []
        var direct: [[Double]] = []
        var length: [[[Double]]] = []
        var ring: [[[Double]]] = []
        var waypoints: [[Double]] = []
    }

    var json = JSON()
    var inverseKinds: [String] = []
    var directKinds: [String] = []
    var ringKinds: [String] = []
    private var random: GeodesicRandom

    init(seed: UInt64) {
        random = GeodesicRandom(seed: seed)
        addInverseCases()
        addDirectCases()
        addRings()
        addLengthsAndWaypoints()
    }

    private mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * random.unit() }
    /// A latitude uniform over the sphere's area.
    private mutating func latitude() -> Double { asin(uniform(-1, 1)) * 180 / .pi }
    private mutating func sign() -> Double { random.unit() < 0.5 ? -1 : 1 }

    /// The point about `metres` away from (lat, lon) at bearing `bearing` (a flat-earth offset;
    /// the exact distance does not matter, only the scale).
    private func offset(_ lat: Double, _ lon: Double, metres: Double, bearing: Double) -> (Double, Double) {
        let dlat = metres * cos(bearing * .pi / 180) / 111_320
        let dlon = metres * sin(bearing * .pi / 180) / (111_320 * max(cos(lat * .pi / 180), 1e-3))
        return (min(90, max(-90, lat + dlat)), lon + dlon)
    }

    private mutating func inverse(_ kind: String, _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) {
        json.inverse.append([lat1, lon1, lat2, lon2])
        inverseKinds.append(kind)
    }

    private mutating func addInverseCases() {
        for i in 0..<3000 {
            let lat1 = i.isMultiple(of: 2) ? latitude() : uniform(-90, 90)
            inverse("random", lat1, uniform(-180, 180), latitude(), uniform(-180, 180))
        }
        for _ in 0..<3000 {
            let lat = uniform(-89.9, 89.9), lon = uniform(-180, 180)
            let (lat2, lon2) = offset(lat, lon, metres: pow(10, uniform(0, 4)), bearing: uniform(-180, 180))
            inverse("short 1 m-10 km", lat, lon, lat2, lon2)
        }
        for _ in 0..<300 {
            let lat = uniform(-90, 90), lon = uniform(-180, 180)
            let (lat2, lon2) = offset(lat, lon, metres: pow(10, uniform(-3, 0)), bearing: uniform(-180, 180))
            inverse("very short 1 mm-1 m", lat, lon, lat2, lon2)
        }
        for i in 0..<1500 {
            let lat = uniform(-90, 90), lon = uniform(-180, 180)
            let exact = i < 100
            let dlat = exact ? 0 : sign() * pow(10, uniform(-7, 0))
            let dlon = exact ? 0 : sign() * pow(10, uniform(-7, 0.3))
            inverse("nearly antipodal", lat, lon, min(90, max(-90, -lat + dlat)), lon + 180 + dlon)
        }
        for _ in 0..<400 {
            let pole = sign() * 90
            let other = [latitude(), -pole, pole, pole - copysign(1e-7, pole), uniform(-1, 1)][Int(random.next() % 5)]
            inverse("poles", pole, uniform(-180, 180), other, uniform(-180, 180))
        }
        for _ in 0..<400 {
            let lon2: Double = [uniform(-180, 180), uniform(179, 180), 180, 179.5, uniform(179.4, 179.7)][Int(random.next() % 5)]
            let lat2: Double = [0, 0, 1e-10, -1e-7, uniform(-0.5, 0.5)][Int(random.next() % 5)]
            inverse("equator", 0, 0, lat2, sign() * lon2)
        }
        for _ in 0..<500 {
            let lon1 = uniform(179, 180), lon2 = uniform(-180, -179)
            let lons: [(Double, Double)] = [(lon1, lon2), (180, -180), (lon1 + 360, lon2), (-lon1, -lon2)]
            let (a, b) = lons[Int(random.next() % 4)]
            inverse("antimeridian", latitude(), a, latitude(), b)
        }
        for _ in 0..<300 {
            let lat: Double = [latitude(), 90, -90, 0][Int(random.next() % 4)]
            let lon = uniform(-540, 540)
            inverse("coincident", lat, lon, lat, lon + [0, 360, -360, 1e-12][Int(random.next() % 4)])
        }
    }

    private mutating func direct(_ kind: String, _ lat1: Double, _ lon1: Double, _ azimuth: Double, _ distance: Double) {
        json.direct.append([lat1, lon1, azimuth, distance])
        directKinds.append(kind)
    }

    private mutating func addDirectCases() {
        for _ in 0..<3000 {
            direct("random ≤ 20,000 km", latitude(), uniform(-180, 180), uniform(-180, 180), uniform(0, 2e7))
        }
        for _ in 0..<1000 {
            direct("short", uniform(-90, 90), uniform(-180, 180), uniform(-180, 180), pow(10, uniform(-3, 4)))
        }
        for _ in 0..<500 {
            let lat: Double = [90, -90, 0, 0, latitude()][Int(random.next() % 5)]
            let azimuth: Double = [0, 90, -90, 180, -180, uniform(-180, 180)][Int(random.next() % 6)]
            let distance: Double = [0, 1, uniform(0, 2e7), 2.0003931e7, 4e7][Int(random.next() % 5)]
            direct("poles, equator, meridians", lat, uniform(-180, 180), azimuth, distance)
        }
    }

    private mutating func ring(_ kind: String, _ points: [(Double, Double)], clockwise: Bool, closed: Bool) {
        var points = clockwise ? points.reversed() : points
        if closed { points.append(points[0]) }
        json.ring.append([points.map(\.0), points.map(\.1)])
        ringKinds.append(kind)
    }

    private mutating func addRings() {
        for i in 0..<400 {
            // A square 100 m across or a 80 m × 250 m block, anywhere up to 85°.
            let lat = uniform(-85, 85), lon = uniform(-180, 180)
            let (w, h) = i.isMultiple(of: 2) ? (100.0, 100.0) : (80.0, 250.0)
            let turn = uniform(0, 90)
            let corners = [(-w, -h), (w, -h), (w, h), (-w, h)].map { (x, y) in
                offset(lat, lon, metres: hypot(x, y) / 2, bearing: atan2(x, y) * 180 / .pi + turn)
            }
            ring(i.isMultiple(of: 2) ? "square 100 m" : "city block", corners.reversed(),
                 clockwise: random.unit() < 0.5, closed: random.unit() < 0.5)
        }
        for _ in 0..<400 {
            let lat = uniform(-89, 89), lon = uniform(-180, 180), radius = pow(10, uniform(1, 3.7))
            let count = 3 + Int(random.next() % 6)
            let bearings = (0..<count).map { _ in uniform(0, 360) }.sorted()
            let points = bearings.map { offset(lat, lon, metres: radius * uniform(0.5, 1), bearing: $0) }
            ring("small polygon", points, clockwise: random.unit() < 0.5, closed: random.unit() < 0.5)
        }
        for _ in 0..<300 {
            let lat = uniform(-70, 70), lon = uniform(-180, 180), dlat = uniform(2, 8), dlon = uniform(2, 10)
            let points = [(lat - dlat, lon - dlon), (lat - dlat * uniform(0.7, 1), lon + dlon),
                          (lat + dlat, lon + dlon * uniform(0.7, 1)), (lat + dlat * uniform(0.7, 1), lon - dlon)]
            ring("country quadrilateral", points, clockwise: random.unit() < 0.5, closed: random.unit() < 0.5)
        }
        for _ in 0..<300 {
            let lat = sign() * uniform(45, 89.99), count = 3 + Int(random.next() % 10), start = uniform(-180, 180)
            let points = (0..<count).map { k in
                (lat + uniform(-0.005, 0.005) * (90 - abs(lat)), start + 360 * (Double(k) + uniform(0, 0.4)) / Double(count))
            }
            ring("round a pole", points, clockwise: random.unit() < 0.5, closed: random.unit() < 0.5)
        }
        for _ in 0..<200 {
            let lat = uniform(-80, 80), half = pow(10, uniform(-3, 1))
            let points = [(lat - half, 180 - half), (lat - half, -180 + half), (lat + half, -180 + half), (lat + half, 180 - half)]
            ring("across the antimeridian", points, clockwise: random.unit() < 0.5, closed: random.unit() < 0.5)
        }
        for _ in 0..<100 {
            let lat = uniform(-40, 40), lon = uniform(-180, 180), count = 4 + Int(random.next() % 8)
            let bearings = (0..<count).map { _ in uniform(0, 360) }.sorted()
            let points = bearings.map { offset(lat, lon, metres: uniform(1e6, 3e6), bearing: $0) }
            ring("continent", points, clockwise: random.unit() < 0.5, closed: false)
        }
    }

    private mutating func addLengthsAndWaypoints() {
        for i in 0..<400 {
            var lat = uniform(-80, 80), lon = uniform(-180, 180)
            var lats = [lat], lons = [lon]
            for _ in 0..<(1 + Int(random.next() % 12)) {
                (lat, lon) = i.isMultiple(of: 2)
                    ? offset(lat, lon, metres: uniform(10, 2000), bearing: uniform(-180, 180))
                    : (latitude(), uniform(-180, 180))
                lats.append(lat)
                lons.append(lon)
            }
            json.length.append([lats, lons])
        }
        for i in 0..<100 {
            let lat = uniform(-85, 85), lon = uniform(-180, 180)
            switch i % 5 {
            case 0:
                let (lat2, lon2) = offset(lat, lon, metres: uniform(1e3, 5e4), bearing: uniform(-180, 180))
                json.waypoints.append([lat, lon, lat2, lon2, uniform(100, 1000)])
            case 1: json.waypoints.append([lat, lon, latitude(), uniform(-180, 180), uniform(1e5, 1e6)])
            case 2: json.waypoints.append([lat, uniform(170, 180), uniform(-85, 85), uniform(-180, -170), uniform(1e4, 1e5)])
            case 3: json.waypoints.append([lat, lon, lat, lon, 100])
            default: json.waypoints.append([sign() * 90, lon, latitude(), uniform(-180, 180), 2.5e6])
            }
        }
    }
}

/// The project's seeded generator (SplitMix64), so that every run draws the same cases.
struct GeodesicRandom {
    private var source: SeededRandom
    init(seed: UInt64) { source = SeededRandom(seed: seed) }
    mutating func next() -> UInt64 { source.next() }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
