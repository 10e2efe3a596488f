import Foundation

/// How far a vehicle goes between two stops of a trip: along shape_dist_traveled where the
/// trip's shape and both stop times give it (in the unit the feed's shapes show it is in),
/// else along the shape's points between the stops' nearest positions on it, else straight
/// from stop to stop. Every metre is measured by `TransitDistance.metres`.
struct ShapeDistances {
    /// How a segment's distance was measured, as the `measured` column says it.
    enum Method: String { case shapeDistTraveled = "shape_dist_traveled", shape, straight }

    struct Point { let lat: Double, lon: Double }

    /// A shape: its points in order, the metres along it at each, and its shape_dist_traveled
    /// at each where the feed gives it.
    struct Shape {
        let points: [Point]
        let along: [Double]
        let travelled: [Double?]
        var hasTravelled: Bool { travelled.count >= 2 && travelled.allSatisfy { $0 != nil } }
    }

    let shapes: [String: Shape]
    /// Metres per unit of shape_dist_traveled, and the unit's name; nil when the feed gives
    /// none or its unit cannot be told.
    let unit: (metres: Double, name: String)?

    /// The units shape_dist_traveled is written in by the feeds that exist.
    static let units: [(Double, String)] = [(1, "metres"), (1000, "kilometres"), (1609.344, "miles"), (0.3048, "feet")]

    init(shapes table: Table?) {
        var points: [String: [(Int64, Point, Double?)]] = [:]
        if let t = table, let ids = t.column("shape_id"), let seq = t.column("shape_pt_sequence"),
           let lat = t.column("shape_pt_lat"), let lon = t.column("shape_pt_lon") {
            let travelled = t.column("shape_dist_traveled")
            for i in 0..<t.rowCount {
                guard case .string(let id) = ids.value(at: i), case .int(let k) = seq.value(at: i),
                      let y = lat.value(at: i).doubleValue, let x = lon.value(at: i).doubleValue else { continue }
                points[id, default: []].append((k, Point(lat: y, lon: x), travelled?.value(at: i).doubleValue))
            }
        }
        var shapes: [String: Shape] = [:]
        for (id, rows) in points {
            let sorted = rows.sorted { $0.0 < $1.0 }
            var along = [0.0]
            for k in sorted.indices.dropFirst() {
                along.append(along[k - 1] + TransitDistance.metres(lat1: sorted[k - 1].1.lat, lon1: sorted[k - 1].1.lon, lat2: sorted[k].1.lat, lon2: sorted[k].1.lon))
            }
            shapes[id] = Shape(points: sorted.map(\.1), along: along, travelled: sorted.map(\.2))
        }
        self.shapes = shapes
        self.unit = Self.unit(of: shapes)
    }

    /// The unit of shape_dist_traveled: the median over shapes of their length along their
    /// points per unit of it, when that is within a quarter of metres, kilometres, miles or feet.
    static func unit(of shapes: [String: Shape]) -> (metres: Double, name: String)? {
        var ratios: [Double] = []
        for s in shapes.values where s.hasTravelled {
            let span = s.travelled.last!! - s.travelled.first!!
            if span > 0, s.along.last! > 0 { ratios.append(s.along.last! / span) }
        }
        guard !ratios.isEmpty else { return nil }
        ratios.sort()
        let median = ratios.count % 2 == 1 ? ratios[ratios.count / 2] : (ratios[ratios.count / 2 - 1] + ratios[ratios.count / 2]) / 2
        let best = units.min { abs(log(median / $0.0)) < abs(log(median / $1.0)) }!
        return abs(log(median / best.0)) < log(1.25) ? best : nil
    }

    /// The metres between each stop of a trip and the next, and how each was measured: `stops`
    /// are the trip's stops in order (nil where a stop has no position), `travelled` their
    /// shape_dist_traveled.
    func segments(shape id: String?, stops: [Point?], travelled: [Double?]) -> [(metres: Double?, method: Method)] {
        guard stops.count >= 2 else { return [] }
        let shape = id.flatMap { shapes[$0] }.flatMap { $0.points.count >= 2 ? $0 : nil }
        let positions = shape.map { along($0, stops) }
        return (0..<stops.count - 1).map { k in
            if let shape, shape.hasTravelled, let unit, let a = travelled[k], let b = travelled[k + 1], b >= a {
                return ((b - a) * unit.metres, .shapeDistTraveled)
            }
            if let positions, let a = positions[k], let b = positions[k + 1] { return (b - a, .shape) }
            guard let a = stops[k], let b = stops[k + 1] else { return (nil, .straight) }
            return (TransitDistance.metres(lat1: a.lat, lon1: a.lon, lat2: b.lat, lon2: b.lon), .straight)
        }
    }

    /// Each stop's metres along the shape: its nearest position on the shape at or after the
    /// previous stop's (a bus goes forward), the first such position on a tie. Nearness is
    /// measured to the point of each piece of the shape nearest the stop in a plane local to
    /// the piece (longitude scaled by the cosine of its latitude).
    func along(_ shape: Shape, _ stops: [Point?]) -> [Double?] {
        let p = shape.points
        var piece = 0, from = 0.0
        return stops.map { stop -> Double? in
            guard let s = stop else { return nil }
            var best: (d: Double, piece: Int, t: Double, at: Point)? = nil
            for j in piece..<(p.count - 1) {
                let k = cos(p[j].lat * .pi / 180)
                let dx = (p[j + 1].lon - p[j].lon) * k, dy = p[j + 1].lat - p[j].lat
                let length2 = dx * dx + dy * dy
                var t = length2 > 0 ? ((s.lon - p[j].lon) * k * dx + (s.lat - p[j].lat) * dy) / length2 : 0
                t = min(1, max(j == piece ? from : 0, t))
                let q = Point(lat: p[j].lat + t * (p[j + 1].lat - p[j].lat), lon: p[j].lon + t * (p[j + 1].lon - p[j].lon))
                let d = TransitDistance.metres(lat1: s.lat, lon1: s.lon, lat2: q.lat, lon2: q.lon)
                if best == nil || d < best!.d { best = (d, j, t, q) }
            }
            guard let best else { return nil }
            piece = best.piece; from = best.t
            return shape.along[best.piece] + TransitDistance.metres(lat1: p[best.piece].lat, lon1: p[best.piece].lon, lat2: best.at.lat, lon2: best.at.lon)
        }
    }
}
