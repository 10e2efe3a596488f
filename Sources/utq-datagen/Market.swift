import UTQCore
import Foundation

/// The Stavanger market square ("Torget") study of Thursday 23.03.2017: five 5-minute
/// sessions whose counts per legend are exactly the thesis's table (Figure 5-6). Positions
/// and directions are made up but plausible: people walk along the square's main paths,
/// stand near the stalls and sit on the benches and steps.
enum Market {
    struct Session {
        let start: (h: Int, m: Int)
        let weather: (temperature: Int, sky: String, wind: String)
        /// Walking, Bike, Stroller, Dog walking, Jogging, Skate/scooter, Standing, Sitting
        let counts: [Int]
    }

    static let legends: [(name: String, icon: Int)] = [
        ("Walking", 1), ("Bike", 2), ("Stroller", 3), ("Dog walking", 4),
        ("Jogging", 5), ("Skate/scooter", 6), ("Standing", 7), ("Sitting", 8),
    ]

    static let sessions: [Session] = [
        Session(start: (8, 15), weather: (1, "sun", "light wind"), counts: [31, 5, 0, 0, 0, 0, 0, 0]),
        Session(start: (12, 11), weather: (3, "sun", "light wind"), counts: [132, 1, 11, 0, 0, 0, 5, 5]),
        Session(start: (16, 2), weather: (6, "sun", "some wind"), counts: [125, 13, 1, 0, 1, 0, 1, 4]),
        Session(start: (19, 25), weather: (2, "dry", "light wind"), counts: [95, 1, 0, 1, 0, 0, 6, 0]),
        Session(start: (23, 40), weather: (2, "dry", "light wind"), counts: [68, 1, 0, 0, 0, 0, 9, 0]),
    ]

    /// Paths across the 824 × 768 map (from, to), with how busy each is.
    static let paths: [(from: (Double, Double), to: (Double, Double), weight: Double)] = [
        ((20, 130), (800, 110), 3.0),    // along the harbour front
        ((40, 720), (790, 170), 2.5),    // diagonal from Kirkegata to the harbour
        ((410, 750), (400, 60), 2.0),    // across from the cathedral to the water
        ((30, 420), (800, 470), 1.2),    // east–west through the middle
    ]
    static let standSpots: [(Double, Double)] = [(300, 300), (610, 540), (420, 180)]
    static let seatSpots: [(Double, Double)] = [(180, 400), (230, 405), (520, 650)]
    static let notes = ["talking on the phone", "group of three", "with a child", "carrying shopping",
                        "tourist with a map", "waiting for the bus", "stopped to look at the fish stall"]

    struct Entry {
        var time: Int  // seconds since midnight, local time
        var legend: Int
        var x, y: Double
        var angle: Double  // 999 when no direction
        var note: String
    }

    static func entries(seed: UInt64 = 2017_03_23) -> [Entry] {
        var rng = SeededRandom(seed: seed)
        var all: [Entry] = []
        for (s, session) in sessions.enumerated() {
            let start = session.start.h * 3600 + session.start.m * 60
            var legendsInSession: [Int] = []
            for (legend, n) in session.counts.enumerated() { legendsInSession += Array(repeating: legend, count: n) }
            rng.shuffle(&legendsInSession)
            // Times spread over the five minutes; the first a few seconds in, and the last
            // session's last entry at its very end.
            var times = (0..<legendsInSession.count).map { _ in start + 3 + rng.int(295) }
            times.sort()
            if !times.isEmpty { times[0] = start + rng.int(10) }
            if s == sessions.count - 1, !times.isEmpty { times[times.count - 1] = start + 300 }
            for (k, legend) in legendsInSession.enumerated() {
                all.append(place(legend: legend, time: times[k], rng: &rng))
            }
        }
        return all.sorted { $0.time < $1.time }
    }

    static func place(legend: Int, time: Int, rng: inout SeededRandom) -> Entry {
        let name = legends[legend].name
        var x: Double, y: Double, angle = 999.0
        switch name {
        case "Standing":
            let spot = rng.pick(standSpots)
            x = spot.0 + rng.normal(0, 25); y = spot.1 + rng.normal(0, 25)
        case "Sitting":
            let spot = rng.pick(seatSpots)
            x = spot.0 + rng.normal(0, 12); y = spot.1 + rng.normal(0, 6)
        default:
            // Bikes and joggers keep to the harbour front; others use every path.
            let index = (name == "Bike" || name == "Jogging") ? (rng.chance(0.8) ? 0 : 1) : rng.weighted(paths.map(\.weight))
            let path = paths[index]
            let t = rng.unit()
            let forward = rng.chance(0.5)
            x = path.from.0 + (path.to.0 - path.from.0) * t + rng.normal(0, 14)
            y = path.from.1 + (path.to.1 - path.from.1) * t + rng.normal(0, 14)
            let dx = (path.to.0 - path.from.0) * (forward ? 1 : -1), dy = (path.to.1 - path.from.1) * (forward ? 1 : -1)
            // Direction as the app measures it: degrees from east, clockwise on screen.
            angle = atan2(dy, dx) * 180 / Double.pi + rng.normal(0, 12)
            if angle > 180 { angle -= 360 }
            if angle < -180 { angle += 360 }
            angle = (angle * 10).rounded() / 10
            // Observers sometimes left the direction out.
            if rng.chance(0.08) { angle = 999 }
        }
        x = min(max(x, 4), 820); y = min(max(y, 4), 764)
        x = (x * 2).rounded() / 2; y = (y * 2).rounded() / 2
        let note = rng.chance(0.05) ? rng.pick(notes) : ""
        return Entry(time: time, legend: legend, x: x, y: y, angle: angle, note: note)
    }

    static func time(_ seconds: Int) -> String {
        "2017-03-23T\(Format.two(seconds / 3600)):\(Format.two(seconds % 3600 / 60)):\(Format.two(seconds % 60))+0100"
    }

    /// The project file, with the underscore property names the app wrote.
    static func projectJSON() -> String {
        let entries = entries()
        var out = "{\n"
        out += "  \"_name\": \"Torget, Stavanger\",\n"
        out += "  \"_created\": \"2017-03-23T08:05:41+0100\",\n"
        out += "  \"_lastSaved\": \"2017-03-23T23:51:02+0100\",\n"
        out += "  \"_note\": \"Behaviour mapping of the market square, five 5-minute sessions on Thursday 23.03.2017.\",\n"
        out += "  \"_background\": \"torget.png\",\n"
        out += "  \"_backgroundType\": 2,\n"
        out += "  \"_legends\": [\n"
        out += legends.map { "    {\"_name\": \(Format.jsonString($0.name)), \"_icon\": \($0.icon)}" }.joined(separator: ",\n")
        out += "\n  ],\n  \"_entries\": [\n"
        var lines: [String] = []
        for (k, e) in entries.enumerated() {
            let legend = legends[e.legend]
            lines.append("    {\"_time\": \"\(time(e.time))\", \"_position\": {\"x\": \(Format.number(e.x)), \"y\": \(Format.number(e.y))}, "
                         + "\"_angleInDegrees\": \(Format.number(e.angle)), \"_note\": \(Format.jsonString(e.note)), \"_tagId\": \(1000 + 2 * k), "
                         + "\"_legend\": {\"_name\": \(Format.jsonString(legend.name)), \"_icon\": \(legend.icon)}}")
        }
        out += lines.joined(separator: ",\n")
        out += "\n  ]\n}\n"
        return out
    }

    /// The app's "Export Data" CSV of the same entries: semicolon-delimited, day-first times
    /// to the minute, "(x, y)" positions, 999 for no direction, a trailing ";" on every line.
    static func exportCSV() -> String {
        var out = "Time;Position;Angle in degrees;Note;Type;Icon;\n"
        for e in entries() {
            let legend = legends[e.legend]
            let time = "23/03/2017, \(Format.two(e.time / 3600)):\(Format.two(e.time % 3600 / 60))"
            out += "\(time);(\(Format.number(e.x)), \(Format.number(e.y)));\(Format.number(e.angle));\(e.note);\(legend.name);\(legend.icon);\n"
        }
        return out
    }

    /// The weather of each session, for joining on the hour.
    static func weatherCSV() -> String {
        var out = "session,start,end,hour,temperature_c,sky,wind\n"
        for (i, s) in sessions.enumerated() {
            let start = s.start.h * 3600 + s.start.m * 60
            func t(_ sec: Int) -> String { "2017-03-23T\(Format.two(sec / 3600)):\(Format.two(sec % 3600 / 60)):00+01:00" }
            out += "\(i + 1),\(t(start)),\(t(start + 300)),\(s.start.h),\(s.weather.temperature),\(s.weather.sky),\(s.weather.wind)\n"
        }
        return out
    }

    /// Zones of the square drawn on the app's map (824 × 768 points, y down), as well-known
    /// text: the promenade along the top, the market's west and east halves, its centre and
    /// the south end. Illustrative: the thesis draws no zones.
    static let zones: [(name: String, corners: [(Int, Int)])] = [
        ("Promenade", [(0, 0), (824, 0), (824, 200), (0, 200)]),
        ("West market", [(0, 200), (300, 200), (300, 768), (0, 768)]),
        ("Centre", [(300, 200), (560, 200), (560, 520), (300, 520)]),
        ("East market", [(560, 200), (824, 200), (824, 768), (560, 768)]),
        ("South end", [(300, 520), (560, 520), (560, 768), (300, 768)]),
    ]

    static func zonesCSV() -> String {
        var out = "zone,area\n"
        for z in zones {
            let ring = (z.corners + [z.corners[0]]).map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            out += "\(z.name),\"POLYGON ((\(ring)))\"\n"
        }
        return out
    }
}

/// Mapping entries at any size for the benchmarks: the market square's legends, spread over
/// many days and squares, with times carrying their offset.
enum BenchEntries {
    static let legends = Market.legends.map(\.name)
    static let notes = ["", "", "", "", "", "", "", "", "talking on the phone", "group of three", "with a child", "carrying shopping"]

    /// Calls `emit` with (time, legend, x, y, angle or nil, note) for n entries.
    static func generate(_ n: Int, seed: UInt64 = 42, emit: (String, String, Double, Double, Double?, String) -> Void) {
        var rng = SeededRandom(seed: seed)
        let weights = [60.0, 6, 3, 1, 1, 1, 6, 4]
        let startDay = Civil.days(2017, 3, 1)
        for i in 0..<n {
            // Entries run forward in time: about one every 9 seconds across the year.
            let seconds = Int64(startDay) * 86400 + Int64(i) * 9 + Int64(rng.int(9))
            let days = Int(seconds / 86400)
            let (y, m, d) = Civil.date(days)
            let r = Int(seconds % 86400)
            // Europe/Oslo: summer time from the last Sunday of March to the last of October.
            let summer = days > Civil.lastSunday(y, 3) && days < Civil.lastSunday(y, 10)
                || (days == Civil.lastSunday(y, 3) && r >= 3600) || (days == Civil.lastSunday(y, 10) && r < 3600)
            let local = r + (summer ? 7200 : 3600)
            let dayShift = local >= 86400 ? 1 : 0
            let (ly, lm, ld) = dayShift == 0 ? (y, m, d) : Civil.date(days + 1)
            let lr = local % 86400
            let time = "\(ly)-\(Format.two(lm))-\(Format.two(ld))T\(Format.two(lr / 3600)):\(Format.two(lr % 3600 / 60)):\(Format.two(lr % 60))\(summer ? "+02:00" : "+01:00")"
            let legend = legends[rng.weighted(weights)]
            let x = (rng.uniform(4, 820) * 2).rounded() / 2, yy = (rng.uniform(4, 764) * 2).rounded() / 2
            let angle: Double? = rng.chance(0.15) ? nil : (rng.uniform(-180, 180) * 10).rounded() / 10
            emit(time, legend, x, yy, angle, rng.pick(notes))
            _ = i
        }
    }

    static func write(_ n: Int, json: String?, csv: String?) {
        func open(_ path: String) -> FileHandle {
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)!
        }
        let jh = json.map(open), ch = csv.map(open)
        var jbuf = "[\n", cbuf = "time,legend,x,y,angle,note\n"
        var first = true
        generate(n) { time, legend, x, y, angle, note in
            if jh != nil {
                jbuf += (first ? "" : ",\n") + "{\"time\": \"\(time)\", \"legend\": \"\(legend)\", \"x\": \(Format.number(x)), \"y\": \(Format.number(y)), \"angle\": \(angle.map { Format.number($0) } ?? "null"), \"note\": \"\(note)\"}"
                if jbuf.utf8.count > 1 << 20 { jh!.write(jbuf.data(using: .utf8)!); jbuf = "" }
            }
            if ch != nil {
                cbuf += "\(time),\(legend),\(Format.number(x)),\(Format.number(y)),\(angle.map { Format.number($0) } ?? ""),\(note)\n"
                if cbuf.utf8.count > 1 << 20 { ch!.write(cbuf.data(using: .utf8)!); cbuf = "" }
            }
            first = false
        }
        jbuf += "\n]\n"
        jh?.write(jbuf.data(using: .utf8)!); ch?.write(cbuf.data(using: .utf8)!)
        try? jh?.close(); try? ch?.close()
    }
}
