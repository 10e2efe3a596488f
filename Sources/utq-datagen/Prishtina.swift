import Foundation
import UTQCore

/// U.T. Prishtina sample data. Line 1's name, colour, end points and first stop are the
/// thesis's; its other stops and lines 2–4 are illustrative (datasets/README.md says so).
enum PrishtinaData {
    struct Stop { let name: String; let lat: Double; let lng: Double }
    struct Line {
        let name: String, color: String
        let stops: [Stop]       // outbound order; the return direction runs backwards
        let price: Double, frequency: Int
        let weekday: (String, String), weekend: (String, String)
        let info: String
    }

    static let s = (
        technical: Stop(name: "Technical Faculty", lat: 42.649649981580964, lng: 21.16584703872968),
        university: Stop(name: "University Library", lat: 42.6566, lng: 21.1614),
        square: Stop(name: "Skanderbeg Square", lat: 42.6609, lng: 21.1633),
        grand: Stop(name: "Grand Hotel", lat: 42.6588, lng: 21.1579),
        station: Stop(name: "Bus Station", lat: 42.6529, lng: 21.1413),
        lakrishte: Stop(name: "Lakrishte", lat: 42.6497, lng: 21.1452),
        ulpiana: Stop(name: "Ulpiana", lat: 42.6523, lng: 21.1725),
        dardania: Stop(name: "Dardania", lat: 42.6561, lng: 21.1501),
        mati: Stop(name: "Mati 1", lat: 42.6414, lng: 21.1382),
        bregu: Stop(name: "Bregu i Diellit", lat: 42.6651, lng: 21.1839),
        hospital: Stop(name: "University Hospital", lat: 42.6476, lng: 21.1575),
        veternik: Stop(name: "Veternik", lat: 42.6291, lng: 21.1509),
        kalabria: Stop(name: "Kalabria", lat: 42.6445, lng: 21.1282),
        fushe: Stop(name: "Fushe Kosove", lat: 42.6342959385523, lng: 21.0817190276728),
        airport: Stop(name: "Airport", lat: 42.5728, lng: 21.0358),
        germia: Stop(name: "Germia Park", lat: 42.6708, lng: 21.1986)
    )

    static var lines: [Line] {
        [
            Line(name: "Line 1", color: "#e29d81",
                 stops: [s.technical, s.hospital, s.lakrishte, s.station, s.mati, s.kalabria, s.fushe],
                 price: 0.4, frequency: 12, weekday: ("05:30", "22:30"), weekend: ("06:30", "21:30"),
                 info: "Technical Faculty to Fushe Kosove through the bus station."),
            Line(name: "Line 2", color: "#7fb3d5",
                 stops: [s.bregu, s.ulpiana, s.square, s.grand, s.dardania, s.station],
                 price: 0.4, frequency: 15, weekday: ("06:00", "22:00"), weekend: ("07:00", "21:00"),
                 info: "Illustrative: Bregu i Diellit to the bus station through the centre."),
            Line(name: "Line 3", color: "#82c785",
                 stops: [s.germia, s.university, s.square, s.grand, s.hospital, s.veternik],
                 price: 0.4, frequency: 20, weekday: ("06:00", "21:30"), weekend: ("08:00", "20:00"),
                 info: "Illustrative: Germia Park to Veternik."),
            Line(name: "Line 4", color: "#c39bd3",
                 stops: [s.square, s.station, s.kalabria, s.fushe, s.airport],
                 price: 3.0, frequency: 60, weekday: ("04:30", "23:00"), weekend: ("04:30", "23:00"),
                 info: "Illustrative: the airport bus from the centre, hourly."),
        ]
    }

    /// Points between stops, so the polyline has the shape of a street rather than jumps.
    static func path(_ stops: [Stop]) -> [(lat: Double, lng: Double)] {
        var points: [(lat: Double, lng: Double)] = []
        for k in 0..<stops.count {
            let a = stops[k]
            points.append((a.lat, a.lng))
            if k + 1 < stops.count {
                let b = stops[k + 1]
                // An L-shaped turn halfway, as streets make.
                points.append(((a.lat + b.lat) / 2, a.lng))
                points.append(((a.lat + b.lat) / 2, b.lng))
            }
        }
        return points
    }

    static func stopJSON(_ stop: Stop) -> String {
        "{\"lat\": \(stop.lat), \"lng\": \(stop.lng), \"name\": \(Format.jsonString(stop.name))}"
    }

    static func routesJSON() -> String {
        var lineTexts: [String] = []
        for line in lines {
            let first = line.stops.first!, last = line.stops.last!
            let forward = line.stops, back = Array(line.stops.reversed())
            let polyline = Polyline.encode(path(forward))
            lineTexts.append("""
                  {
                    "name": \(Format.jsonString(line.name)),
                    "color": "\(line.color)",
                    "startLocationLat": \(line.name == "Line 1" ? "42.6495081925311" : String(first.lat)),
                    "startLocattionLng": \(line.name == "Line 1" ? "21.1660133836129" : String(first.lng)),
                    "endLocationLat": \(line.name == "Line 1" ? "42.6342959385523" : String(last.lat)),
                    "endLocationLng": \(line.name == "Line 1" ? "21.0817190276728" : String(last.lng)),
                    "directions": [
                      {"from": \(Format.jsonString(first.name)), "to": \(Format.jsonString(last.name)), "bus_stops": [
                        \(forward.map(stopJSON).joined(separator: ",\n            "))
                      ]},
                      {"from": \(Format.jsonString(last.name)), "to": \(Format.jsonString(first.name)), "bus_stops": [
                        \(back.map(stopJSON).joined(separator: ",\n            "))
                      ]}
                    ],
                    "polyline": \(Format.jsonString(polyline))
                  }
            """)
        }
        return "{\n  \"routes\": [\n    {\n      \"lines\": [\n" + lineTexts.joined(separator: ",\n") + "\n      ]\n    }\n  ]\n}\n"
    }

    static func itinerariesJSON() -> String {
        let items = lines.map { l in
            "    {\"line\": \(Format.jsonString(l.name)), \"price\": \(l.price), "
            + "\"weekday\": {\"first\": \"\(l.weekday.0)\", \"last\": \"\(l.weekday.1)\"}, "
            + "\"weekend\": {\"first\": \"\(l.weekend.0)\", \"last\": \"\(l.weekend.1)\"}, "
            + "\"frequency\": \(l.frequency), \"info\": \(Format.jsonString(l.info))}"
        }
        return "{\n  \"itineraries\": [\n" + items.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
