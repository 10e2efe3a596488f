import UTQCore
import Foundation

/// Trips planned with the green-transport app in Tromsø: origin and destination as
/// "lat,lon" text, the mode, Google's distance and duration texts ("45 mins",
/// "1 hour 5 mins"), the time the user says the trip really took, and the calendar
/// event it was for (a reminder fires two hours before).
enum TripsData {
    static let places: [(name: String, lat: Double, lon: Double)] = [
        ("UiT campus", 69.6812, 18.9776), ("City centre", 69.6496, 18.9553), ("Tromsø airport", 69.6833, 18.9189),
        ("Prestvannet", 69.6611, 18.9430), ("Arctic Cathedral", 69.6480, 19.0008), ("Breivika", 69.6906, 18.9811),
        ("Kroken", 69.6935, 19.0414), ("Stakkevollan", 69.6866, 19.0064), ("Telegrafbukta", 69.6321, 18.9251),
    ]
    static let modes = ["walking", "bicycling", "driving"]
    static let speedKmh = ["walking": 5.2, "bicycling": 14.0, "driving": 32.0]
    /// How much longer people really take than Google says, by mode (the thesis's own walk
    /// from campus to town took about 60 minutes against 45 estimated).
    static let slower = ["walking": 1.33, "bicycling": 1.12, "driving": 1.18]

    static func googleDuration(_ minutes: Int) -> String {
        if minutes < 60 { return minutes == 1 ? "1 min" : "\(minutes) mins" }
        let h = minutes / 60, m = minutes % 60
        let hours = h == 1 ? "1 hour" : "\(h) hours"
        return m == 0 ? hours : "\(hours) \(m) min\(m == 1 ? "" : "s")"
    }

    static func csv(trips: Int = 320, seed: UInt64 = 2021) -> String {
        var rng = SeededRandom(seed: seed)
        let users = ["ingrid", "ola", "sara", "jonas", "emma", "mats", "nora", "henrik", "aud", "eirik"]
        var out = "trip_id,user,mode,origin,origin_name,destination,destination_name,distance,distance_m,estimated,actual,event_at,leave_by,reminder_at\n"
        let firstDay = Civil.days(2021, 1, 11)
        var rows: [(Int64, String)] = []
        for _ in 0..<trips {
            let user = rng.pick(users)
            // Most trips are to and from campus and the centre.
            let a = rng.chance(0.45) ? 0 : rng.int(places.count)
            var b = rng.chance(0.5) ? 1 : rng.int(places.count)
            if a == b { b = (b + 1 + rng.int(places.count - 1)) % places.count }
            let mode = modes[rng.weighted([0.58, 0.22, 0.20])]
            let from = places[a], to = places[b]
            let km = haversineKm(from.lat, from.lon, to.lat, to.lon) * rng.uniform(1.05, 1.15) + 0.2
            let minutes = max(2, Int((km / speedKmh[mode]! * 60).rounded()))
            let actual = rng.chance(0.6) ? Int((Double(minutes) * slower[mode]! * rng.uniform(0.9, 1.1)).rounded()) : nil
            let day = firstDay + rng.int(16 * 7)
            let weekday = ((day + 3) % 7 + 7) % 7 + 1
            let hour = weekday >= 6 ? 11 + rng.int(9) : rng.pick([8, 9, 10, 10, 12, 14, 16, 17, 18, 19])
            let event = Int64(day) * 86400 + Int64(hour * 3600 + rng.pick([0, 15, 30, 45]) * 60)
            let leave = event - Int64((actual ?? minutes) * 60)
            let reminder = event - 2 * 3600
            let distance = km < 1 ? "\(Int((km * 1000 / 10).rounded()) * 10) m" : String(format: "%.1f km", km)
            func t(_ s: Int64) -> String {
                let days = Int(floor(Double(s) / 86400))
                let (y, m, d) = Civil.date(days)
                let r = Int(s - Int64(days) * 86400)
                // Norway was on winter time (UTC+1) until 28 March 2021.
                let offset = days >= Civil.days(2021, 3, 28) && r >= 2 * 3600 || days > Civil.days(2021, 3, 28) ? "+02:00" : "+01:00"
                return "\(y)-\(Format.two(m))-\(Format.two(d))T\(Format.two(r / 3600)):\(Format.two(r % 3600 / 60)):00\(offset)"
            }
            let coords = { (p: (name: String, lat: Double, lon: Double)) in "\"\(p.lat),\(p.lon)\"" }
            let line = "\(user),\(mode),\(coords(from)),\(from.name),\(coords(to)),\(to.name),\(distance),\(Int(km * 1000)),"
                + "\(googleDuration(minutes)),\(actual.map(googleDuration) ?? ""),\(t(event)),\(t(leave)),\(t(reminder))"
            rows.append((event, line))
        }
        rows.sort { $0.0 < $1.0 }
        for (i, r) in rows.enumerated() { out += "\(i + 1),\(r.1)\n" }
        return out
    }

    static func haversineKm(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        let r = Double.pi / 180
        let x = sin((c - a) * r / 2), y = sin((d - b) * r / 2)
        let h = x * x + cos(a * r) * cos(c * r) * y * y
        return 2 * 6371 * asin(min(1, h.squareRoot()))
    }
}
