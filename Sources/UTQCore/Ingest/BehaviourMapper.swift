/// Behaviour Mapper: the iPad app's project files (JSON) and its "Export Data" CSV.
/// Both become a table of entries (time, legend, icon, x, y, angle, note) in Europe/Oslo,
/// with the legends in the project's order, and a table NAME.legends.
public enum BehaviourMapper {
    public static let zone = "Europe/Oslo"
    /// The app's "no direction" angle.
    public static let noDirection = 999.0
    /// The size of the map in points.
    public static let mapSize = (width: 824.0, height: 768.0)

    /// Whether a JSON document is a Behaviour Mapper project.
    public static func isProject(_ doc: JSONValue) -> Bool {
        guard doc.objectMembers != nil else { return false }
        return doc.member("entries", "_entries")?.array != nil && doc.member("legends", "_legends")?.array != nil
    }

    public struct Project {
        public var entries: Table
        public var legends: Table
        public var title: String?
    }

    public static func load(project doc: JSONValue, name: String, path: String) throws -> (Project, [LoadWarning]) {
        let zone = ZoneRules.named(Self.zone) ?? .utc
        var warnings = WarningLog(path: path)
        // Legends in project order; entries may name legends the list lacks.
        var legendNames: [String] = []
        var legendIcons: [Int64?] = []
        for item in doc.member("legends", "_legends")?.array ?? [] {
            guard let n = item.member("name", "_name")?.string else { continue }
            if !legendNames.contains(n) {
                legendNames.append(n)
                legendIcons.append(item.member("icon", "_icon")?.int.map { Int64($0) })
            }
        }
        let entries = doc.member("entries", "_entries")?.array ?? []
        var times: [Int64] = [], timeValid = Bitmap()
        var legendCodes: [UInt32] = [], icons: [Int64] = [], iconValid = Bitmap()
        var xs: [Double] = [], ys: [Double] = [], posValid = Bitmap()
        var angles: [Double] = [], angleValid = Bitmap()
        var notes: [String] = []
        var tags: [Int64] = [], tagValid = Bitmap()
        for (k, e) in entries.enumerated() {
            // Time
            let timeKey = e["time"] != nil ? "time" : "_time"
            if let p = try e[timeKey].flatMap({ try readTime($0, key: timeKey, entry: k + 1, path: path) }) {
                times.append(p.instant(in: zone)); timeValid.append(true)
            } else {
                times.append(0); timeValid.append(false)
                warnings.add("time", line: nil, "entry \(k + 1) has no time I can read")
            }
            // Legend
            let legend = e.member("legend", "_legend")
            let legendName = legend?.member("name", "_name")?.string ?? legend?.string ?? "(no legend)"
            var code = legendNames.firstIndex(of: legendName)
            if code == nil {
                legendNames.append(legendName)
                legendIcons.append(legend?.member("icon", "_icon")?.int.map { Int64($0) })
                code = legendNames.count - 1
            }
            legendCodes.append(UInt32(code!))
            if let icon = legend?.member("icon", "_icon")?.int ?? legendIcons[code!].map({ Int($0) }) {
                icons.append(Int64(icon)); iconValid.append(true)
            } else { icons.append(0); iconValid.append(false) }
            // Position
            if let (x, y) = e.member("position", "_position").flatMap(readPoint) {
                xs.append(x); ys.append(y); posValid.append(true)
            } else {
                xs.append(0); ys.append(0); posValid.append(false)
                warnings.add("position", line: nil, "entry \(k + 1) has no position I can read")
            }
            // Angle: 999 means no direction.
            if let a = e.member("angleInDegrees", "_angleInDegrees", "angle", "_angle")?.double, a != noDirection, a.isFinite {
                angles.append(a); angleValid.append(true)
            } else { angles.append(0); angleValid.append(false) }
            notes.append(e.member("note", "_note")?.string ?? "")
            if let t = e.member("tagId", "_tagId")?.int { tags.append(Int64(t)); tagValid.append(true) } else { tags.append(0); tagValid.append(false) }
        }
        // An empty note is no note, as the app's CSV export (an empty cell) says it.
        var noteInterner = ByteInterner()
        let noteCodes = notes.map { noteInterner.intern($0) }
        let noteValid = bitmap(notes.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        var columns = [
            Column(name: "time", storage: .timestamp(times), validity: timeValid),
            Column(name: "legend", storage: .string(StringStorage(codes: legendCodes, dictionary: legendNames, ordered: true))),
            Column(name: "icon", storage: .int(icons), validity: iconValid),
            Column(name: "x", storage: .double(xs), validity: posValid),
            Column(name: "y", storage: .double(ys), validity: posValid),
            Column(name: "angle", storage: .double(angles), validity: angleValid),
            Column(name: "note", storage: .string(StringStorage(codes: noteCodes, dictionary: noteInterner.strings().isEmpty ? [""] : noteInterner.strings())),
                   validity: noteValid),
        ]
        if tags.count > 0 && tagValid.setCount > 0 {
            columns.append(Column(name: "tag", storage: .int(tags), validity: tagValid))
        }
        let table = Table(name: name, columns: columns, zone: zone, timeColumn: "time", rowNoun: "entries")
        // NAME.legends: the project's legends with how many entries each has.
        var counts = [Int64](repeating: 0, count: legendNames.count)
        for c in legendCodes { counts[Int(c)] += 1 }
        let legends = Table(name: name + ".legends", columns: [
            Column(name: "legend", storage: .string(StringStorage(codes: (0..<legendNames.count).map { UInt32($0) }, dictionary: legendNames, ordered: true))),
            Column(name: "icon", storage: .int(legendIcons.map { $0 ?? 0 }), validity: bitmap(legendIcons.map { $0 != nil })),
            Column(name: "entries", storage: .int(counts)),
        ], zone: zone, rowNoun: "legends")
        return (Project(entries: table, legends: legends, title: doc.member("name", "_name")?.string), warnings.finish())
    }

    static func bitmap(_ bits: [Bool]) -> Bitmap {
        var b = Bitmap()
        for x in bits { b.append(x) }
        return b
    }

    /// An entry's time: text as the app writes it, or a number of seconds. Nil when it is
    /// neither; an error naming the entry when it is a number of seconds outside the years
    /// utq holds (1 to 9999), which no survey was made in and no column can keep.
    static func readTime(_ v: JSONValue, key: String, entry: Int, path: String) throws -> TimestampParser.Parsed? {
        switch v {
        case .string(let s):
            return TimestampParser.parse(s, order: .dayFirst)
        case .number, .integer:
            guard let d = v.double, d.isFinite else { return nil }
            // Apple's reference date (2001-01-01) when small, else Unix seconds.
            let small = d < 1_000_000_000
            let unix = small ? d + 978_307_200 : d
            // A day inside the years on each side, so that no zone the project is shown in
            // carries the time past them (the last second of 9999 in UTC is 10000 in Oslo).
            let day: Int64 = 86_400_000_000
            guard let micros = Checked.int64((unix * 1_000_000).rounded()), Checked.isTime(micros - day), Checked.isTime(micros + day) else {
                throw LoadError(path: path, "entry \(entry): \(key) \(v.text) is a time outside the years 1 to 9999 (read as seconds since "
                                + (small ? "2001-01-01" : "1970-01-01") + ")")
            }
            return TimestampParser.Parsed(wall: micros, offset: 0, hasTime: true)
        default:
            return nil
        }
    }

    /// A point written as {"x":…,"y":…}, [x, y] or "(x, y)".
    static func readPoint(_ v: JSONValue) -> (Double, Double)? {
        switch v {
        case .object:
            guard let x = v.member("x", "_x")?.double, let y = v.member("y", "_y")?.double else { return nil }
            return (x, y)
        case .array(let a):
            guard a.count == 2, let x = a[0].double, let y = a[1].double else { return nil }
            return (x, y)
        case .string(let s):
            return parsePointText(s)
        default:
            return nil
        }
    }

    /// "(688.0, 500.5)" → (688, 500.5).
    public static func parsePointText(_ s: String) -> (Double, Double)? {
        let inner = s.trimmingCharacters(in: CharacterSet(charactersIn: " ()[]{}\""))
        let parts = inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let x = NumberParser.double(parts[0]), let y = NumberParser.double(parts[1]) else { return nil }
        return (x, y)
    }
}

import Foundation
