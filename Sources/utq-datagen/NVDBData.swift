import UTQCore
import Foundation

/// A small NVDB search response for speed limits (object type 105) on a few road links of
/// E18 near Drammen — the shape of the thesis's example (link 2172077, limit 100 from 0 to
/// 0.893485962539091, strekningslengde 8630) — and a drive along those links sampled
/// every few seconds, for "which limit applies here" and "was the car speeding".
enum NVDBData {
    struct Limit { let id: Int; let link: Int; let from: Double; let to: Double; let limit: Int; let length: Int }

    static let limits: [Limit] = [
        Limit(id: 87557714, link: 2172077, from: 0, to: 0.893485962539091, limit: 100, length: 8630),
        Limit(id: 87557715, link: 2172077, from: 0.893485962539091, to: 1, limit: 80, length: 1029),
        Limit(id: 87557902, link: 2172078, from: 0, to: 0.412, limit: 80, length: 1490),
        Limit(id: 87557903, link: 2172078, from: 0.412, to: 0.655, limit: 60, length: 879),
        Limit(id: 87557904, link: 2172078, from: 0.655, to: 1, limit: 50, length: 1248),
        Limit(id: 87558120, link: 2172101, from: 0, to: 1, limit: 70, length: 2310),
        Limit(id: 87558345, link: 2172120, from: 0, to: 0.5, limit: 90, length: 3120),
        Limit(id: 87558346, link: 2172120, from: 0.5, to: 1, limit: 110, length: 3120),
    ]
    /// Link lengths in metres, and where each starts (lat, lng) and runs (degrees per fraction).
    static let links: [Int: (length: Double, lat: Double, lng: Double, dLat: Double, dLng: Double)] = [
        2172077: (9659, 59.6257, 10.1988, 0.060, 0.110),
        2172078: (3617, 59.6857, 10.3088, 0.020, 0.050),
        2172101: (2310, 59.7057, 10.3588, 0.012, 0.030),
        2172120: (6240, 59.7177, 10.3888, 0.035, 0.080),
    ]

    static func responseJSON() -> String {
        var objects: [String] = []
        for l in limits {
            objects.append("""
                    {"objektid": \(l.id), "objekttypeid": 105, "objekttypenavn": "Fartsgrense",
                     "egenskaper": [
                       {"id": 2021, "navn": "Fartsgrense", "verdi": "\(l.limit)"},
                       {"id": 4368, "navn": "Gyldig fra dato", "verdi": "2012-05-01"}
                     ],
                     "strekningslengde": \(l.length),
                     "lokasjon": {"kommune": 602, "fylke": 6},
                     "veglenker": [{"id": \(l.link), "fra": \(l.from), "til": \(l.to), "direction": "WITH"}]}
            """)
        }
        return """
        {
          "sokeobjekt": {"lokasjon": {"veglenker": [\(links.keys.sorted().map { "{\"id\": \($0), \"fra\": 0, \"til\": 1}" }.joined(separator: ", "))]},
                         "objekttyper": [{"id": 105, "antall": 0, "filter": []}]},
          "totaltantallreturnert": \(limits.count),
          "resultater": [
            {"typeid": 105,
             "vegobjekter": [
        \(objects.joined(separator: ",\n"))
             ]}
          ]
        }

        """
    }

    /// Position samples of a drive along the links, every 5 seconds.
    static func positionsCSV(seed: UInt64 = 2013) -> String {
        var rng = SeededRandom(seed: seed)
        var out = "time,lat,lng,speed,heading,veglenke,veglenkeposisjon\n"
        var t = 0
        for link in links.keys.sorted() {
            let info = links[link]!
            var p = 0.0
            while p < 1 {
                let limit = limits.first { $0.link == link && p >= $0.from && p <= $0.to }?.limit ?? 80
                // Mostly at the limit, sometimes over it.
                let kmh = Double(limit) * rng.uniform(0.88, 1.12) + (rng.chance(0.08) ? rng.uniform(5, 18) : 0)
                let speed = kmh / 3.6
                let lat = info.lat + info.dLat * p + rng.normal(0, 0.00003)
                let lng = info.lng + info.dLng * p + rng.normal(0, 0.00003)
                let heading = (atan2(info.dLng * cos(lat * Double.pi / 180), info.dLat) * 180 / Double.pi + 360).truncatingRemainder(dividingBy: 360)
                let secs = 8 * 3600 + 12 * 60 + t
                out += "2013-05-14T\(Format.two(secs / 3600)):\(Format.two(secs % 3600 / 60)):\(Format.two(secs % 60))+02:00,"
                    + String(format: "%.6f,%.6f,%.1f,%.0f,%d,%.6f\n", lat, lng, speed, heading, link, p)
                p += speed * 5 / info.length
                t += 5
            }
        }
        return out
    }
}
