import UTQCore
import Foundation

/// Ride histories of the friends' lift-sharing app, in the schema utq defines for it
/// (docs/rides.md): users, friend requests and rides in one small English town, with
/// evening, night and weekend peaks. Any size: the benchmarks ask for millions of rides.
struct RidesData {
    var users = 40
    var rides = 3200
    var weeks = 7
    var seed: UInt64 = 2020
    /// The first day (a Monday); the default period crosses the change to summer time.
    var start = (year: 2020, month: 2, day: 17)
    static let feePercent = 10.0
    static let town = (lat: 52.3985, lng: -0.7262)

    static let givenNames = ["Amy", "Ben", "Chloe", "Dan", "Ella", "Finn", "Grace", "Harry", "Isla", "Jack",
                             "Kate", "Liam", "Mia", "Noah", "Olivia", "Priya", "Quinn", "Ruby", "Sam", "Tom",
                             "Una", "Vik", "Will", "Xena", "Yusuf", "Zoe", "Alfie", "Bea", "Callum", "Daisy",
                             "Ethan", "Freya", "George", "Holly", "Ivan", "Jess", "Kai", "Lily", "Max", "Nina"]
    static let familyNames = ["Smith", "Jones", "Patel", "Brown", "Taylor", "Wilson", "Evans", "Khan", "Walker", "Wright",
                              "Hughes", "Green", "Hall", "Clarke", "Lewis", "Young"]
    static let places: [(name: String, lat: Double, lng: Double, weight: Double)] = [
        ("Town centre", 52.3985, -0.7262, 4), ("Railway station", 52.3936, -0.7318, 2), ("College", 52.4051, -0.7139, 2),
        ("Leisure centre", 52.3902, -0.7101, 1.5), ("Retail park", 52.4110, -0.7420, 1.5), ("Hospital", 52.4044, -0.7390, 1),
        ("Cinema", 52.3968, -0.7211, 1.5), ("Nightclub", 52.3991, -0.7279, 2), ("Football ground", 52.3869, -0.7354, 1),
        ("Barton Seagrave", 52.3919, -0.6890, 1), ("Burton Latimer", 52.3641, -0.6780, 1), ("Rothwell", 52.4237, -0.8028, 1),
        ("Desborough", 52.4412, -0.8200, 0.7), ("Corby", 52.4914, -0.6965, 0.8),
    ]

    struct User { let username: String, given: String, family: String; let drives: Bool; let rate: Double?; let available: Bool }

    func makeUsers(_ rng: inout SeededRandom) -> [User] {
        (0..<users).map { i in
            let given = RidesData.givenNames[i % RidesData.givenNames.count]
            let family = RidesData.familyNames[(i * 7 + i / RidesData.givenNames.count) % RidesData.familyNames.count]
            let suffix = i < RidesData.givenNames.count ? "" : String(i / RidesData.givenNames.count + 1)
            let username = (given + "." + String(family.prefix(1))).lowercased() + suffix
            let drives = rng.chance(0.55)
            let rate = drives ? (rng.uniform(0.35, 1.10) * 20).rounded() / 20 : nil
            return User(username: username, given: given, family: family, drives: drives, rate: rate, available: rng.chance(0.4))
        }
    }

    /// Weight of a request at local hour h on weekday w (1 = Monday): evenings, late nights on
    /// Fridays and Saturdays, and weekend afternoons are busy.
    static func weight(hour h: Int, weekday w: Int) -> Double {
        let weekend = w >= 6
        let lateNight = (w == 5 || w == 6) && (h >= 22)  || (w == 6 || w == 7) && h <= 2
        switch h {
        case 0...2: return lateNight ? 5 : 0.4
        case 3...5: return 0.1
        case 6...9: return weekend ? 0.3 : 1.2
        case 10...15: return weekend ? 1.6 : 0.6
        case 16...17: return 1.2
        case 18...21: return weekend ? 2.8 : 3.0
        default: return lateNight ? 4.5 : 1.8
        }
    }

    /// An instant (UTC seconds) written as local time with its offset.
    func iso(_ utc: Int64, _ zone: ZoneRulesLite) -> String {
        let offset = zone.offset(utc: utc)
        let localSeconds = utc + offset
        let days = Int(floor(Double(localSeconds) / 86400))
        let (y, m, d) = Civil.date(days)
        let s = Int(localSeconds - Int64(days) * 86400)
        let sign = offset >= 0 ? "+" : "-"
        return "\(y)-\(Format.two(m))-\(Format.two(d))T\(Format.two(s / 3600)):\(Format.two(s % 3600 / 60)):\(Format.two(s % 60))\(sign)\(Format.two(Int(abs(offset)) / 3600)):00"
    }

    func write(to dir: String, writer: (String, String) -> Void) {
        var rng = SeededRandom(seed: seed)
        let people = makeUsers(&rng)
        let drivers = people.indices.filter { people[$0].drives }
        // Friendships: each user knows about a third of the others.
        var friends = [Set<Int>](repeating: [], count: people.count)
        var requests = "FromUser,RequestedUser,accepted,created_at\n"
        let zone = ZoneRulesLite()
        let firstDay = Civil.days(start.year, start.month, start.day)
        for a in people.indices {
            for b in people.indices where b > a && rng.chance(0.33) {
                let accepted = rng.chance(0.9)
                if accepted { friends[a].insert(b); friends[b].insert(a) }
                let when = Int64(firstDay - 30 + rng.int(28)) * 86400 + Int64(9 * 3600 + rng.int(13 * 3600))
                let (from, to) = rng.chance(0.5) ? (a, b) : (b, a)
                requests += "\(people[from].username),\(people[to].username),\(accepted ? 1 : 0),\(iso(zone.utc(local: when), zone))\n"
            }
        }
        var usersCSV = "username,givenName,familyName,available,driving,rate_per_mile\n"
        for u in people {
            usersCSV += "\(u.username),\(u.given),\(u.family),\(u.available),\(u.drives),\(u.rate.map { String(format: "%.2f", $0) } ?? "")\n"
        }
        // Request times: pick a day, then an hour by weight.
        var ridesCSV = "ride_id,driver,rider,status,requested_at,accepted_at,picked_up_at,dropped_off_at,pickup_place,pickup_lat,pickup_lng,dropoff_place,dropoff_lat,dropoff_lng,miles,rate_per_mile,cheapest_rate,fee_percent,price,paid\n"
        var times: [Int64] = []
        // Fridays and weekends are busier than the start of the week.
        let dayWeights = (0..<(weeks * 7)).map { [0.8, 0.8, 0.9, 1.0, 1.4, 1.6, 1.1][($0 + firstDay + 3) % 7] }
        for _ in 0..<rides {
            let day = firstDay + rng.weighted(dayWeights)
            let weekday = ((day + 3) % 7 + 7) % 7 + 1
            let hour = rng.weighted((0..<24).map { RidesData.weight(hour: $0, weekday: weekday) })
            var t = Int64(day) * 86400 + Int64(hour * 3600 + rng.int(3600))
            // 01:00–02:00 does not exist on the morning the clocks go forward.
            if zone.offset(t) == 3600 && zone.offset(t - 3600) == 0 { t += 3600 }
            times.append(t)
        }
        times.sort()
        // Each user's driving friends, in order, made once: made for every ride, sorting a
        // third of the users each time, a 10M-ride file took far longer than its rides.
        let drivingFriends = friends.map { $0.filter { people[$0].drives }.sorted() }
        for (k, requestedLocal) in times.enumerated() {
            // Wall-clock times are chosen; the events after the request follow in real time.
            let requested = zone.utc(local: requestedLocal)
            // A rider with at least one driving friend.
            var rider = rng.int(people.count)
            var choices = drivingFriends[rider]
            var tries = 0
            while choices.isEmpty && tries < 50 { rider = rng.int(people.count); choices = drivingFriends[rider]; tries += 1 }
            if choices.isEmpty { choices = drivers.filter { $0 != rider } }
            // Friends online now: some of the driving friends.
            var online = choices.filter { _ in rng.chance(0.6) }
            if online.isEmpty { online = [rng.pick(choices)] }
            let cheapest = online.map { people[$0].rate ?? 1 }.min() ?? 1
            let driver = rng.chance(0.62) ? online.min { (people[$0].rate ?? 1, $0) < (people[$1].rate ?? 1, $1) }! : rng.pick(online)
            let rate = people[driver].rate ?? 0.8
            let pick = RidesData.places[rng.weighted(RidesData.places.map(\.weight))]
            var drop = RidesData.places[rng.weighted(RidesData.places.map(\.weight))]
            if drop.name == pick.name { drop = RidesData.places[(RidesData.places.firstIndex { $0.name == pick.name }! + 1 + rng.int(RidesData.places.count - 1)) % RidesData.places.count] }
            let straight = haversineMiles(pick.lat, pick.lng, drop.lat, drop.lng)
            let miles = ((straight * rng.uniform(1.15, 1.45) + 0.2) * 10).rounded() / 10
            let price = (miles * rate * (1 + RidesData.feePercent / 100) * 100).rounded() / 100
            let roll = rng.unit()
            let status = roll < 0.05 ? "requested" : roll < 0.13 ? "declined" : roll < 0.20 ? "cancelled" : "completed"
            var accepted: Int64? = nil, picked: Int64? = nil, dropped: Int64? = nil
            if status == "completed" || status == "cancelled" { accepted = requested + Int64(30 + rng.int(330)) }
            if status == "completed" {
                picked = accepted! + Int64(120 + rng.int(900))
                dropped = picked! + Int64(miles / rng.uniform(14, 26) * 3600) + Int64(rng.int(120))
            }
            let paid = status == "completed" && rng.chance(0.9)
            func t(_ v: Int64?) -> String { v.map { iso($0, zone) } ?? "" }
            func jitter(_ v: Double) -> String { String(format: "%.5f", v + rng.normal(0, 0.0015)) }
            ridesCSV += "\(k + 1),\(people[driver].username),\(people[rider].username),\(status),\(t(requested)),\(t(accepted)),\(t(picked)),\(t(dropped)),"
                + "\(pick.name),\(jitter(pick.lat)),\(jitter(pick.lng)),\(drop.name),\(jitter(drop.lat)),\(jitter(drop.lng)),"
                + "\(String(format: "%.1f", miles)),\(String(format: "%.2f", rate)),\(String(format: "%.2f", cheapest)),\(Int(RidesData.feePercent)),\(String(format: "%.2f", price)),\(paid)\n"
        }
        writer(usersCSV, dir + "/users.csv")
        writer(requests, dir + "/friend_requests.csv")
        writer(ridesCSV, dir + "/rides.csv")
    }

    func haversineMiles(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        let r = Double.pi / 180
        let x = sin((c - a) * r / 2), y = sin((d - b) * r / 2)
        let h = x * x + cos(a * r) * cos(c * r) * y * y
        return 2 * 3958.8 * asin(min(1, h.squareRoot()))
    }
}

/// Europe/London offsets by the EU rule (last Sunday of March and October, 01:00 UTC);
/// enough for the generator without Foundation's time zones.
struct ZoneRulesLite {
    /// The offset at an instant (UTC seconds).
    func offset(utc: Int64) -> Int64 {
        let days = Int(floor(Double(utc) / 86400))
        let year = Civil.date(days).0
        let start = Int64(Civil.lastSunday(year, 3)) * 86400 + 3600
        let end = Int64(Civil.lastSunday(year, 10)) * 86400 + 3600
        return utc >= start && utc < end ? 3600 : 0
    }

    /// The instant of a wall-clock time (not in the spring gap, which callers avoid).
    func utc(local: Int64) -> Int64 { local - offset(local) }

    /// The offset of a wall-clock time.
    func offset(_ localSeconds: Int64) -> Int64 {
        let days = Int(floor(Double(localSeconds) / 86400))
        let year = Civil.date(days).0
        let start = Int64(Civil.lastSunday(year, 3)) * 86400 + 3600     // 01:00 GMT = 01:00 local before
        let end = Int64(Civil.lastSunday(year, 10)) * 86400 + 2 * 3600  // 02:00 BST local
        return localSeconds >= start && localSeconds < end ? 3600 : 0
    }
}

/// Calendar arithmetic for the generators.
enum Civil {
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }

    static func date(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func lastSunday(_ y: Int, _ m: Int) -> Int {
        let nextMonth = m == 12 ? days(y + 1, 1, 1) : days(y, m + 1, 1)
        var d = nextMonth - 1
        while ((d + 3) % 7 + 7) % 7 != 6 { d -= 1 }  // 1970-01-01 was a Thursday; Sunday is index 6
        return d
    }
}
