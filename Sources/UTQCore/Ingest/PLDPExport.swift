import Foundation

/// The protocol's other published shape (Seattle's 2018 study, and the PLDP 1.0 templates):
/// `Date` 20180802 and `Start_time` 0820 in columns of their own (or `survey_time_start`
/// 20180802:0820), `Row_Total`, and count columns in groups: gender (`Male`, `Female`,
/// `gender_male`), group size (`GroupSize_1` …), age (`age_15-24`), mode, and for people
/// staying 0/1 columns of posture and activity. Loaded: the time, `people` per row, and
/// empty count cells read the way the protocol writes them (see `fillCounts`).
enum PLDPExport {
    enum Survey: String { case staying = "people staying", moving = "people moving" }

    /// The group a count column belongs to, by its protocol name or Seattle's.
    static func category(_ name: String) -> String? {
        let n = name.lowercased().replacingOccurrences(of: " ", with: "_")
        if ["male", "female", "gender_unknown"].contains(n) || n.hasPrefix("gender_") { return "gender" }
        if n.hasPrefix("groupsize_") || n.hasPrefix("group_size_") || n.hasPrefix("groups_") { return "group size" }
        for p in ["age", "posture", "activity", "mode", "congregation", "object"] where n.hasPrefix(p + "_") { return p }
        if n == "total_supported_or_assisted" || n.hasPrefix("assisted") { return "assistance" }
        return nil
    }

    /// The header's names when the first line is this shape's header.
    static func header(_ head: [UInt8]) -> [String]? {
        guard let line = BehaviourMapperExport.firstLine(head) else { return nil }
        let names = line.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let lower = Set(names.map { $0.lowercased() })
        let timed = (lower.contains("date") && lower.contains("start_time")) || lower.contains("survey_time_start")
        guard lower.contains("row_total"), timed, lower.contains("location_id") || lower.contains("survey_id"),
              names.contains(where: { category($0) != nil }) else { return nil }
        return names
    }

    static func looksLike(_ head: [UInt8]) -> Bool { header(head) != nil }

    static func load(_ request: LoadRequest, name: String) throws -> LoadResult {
        let path = request.path
        var options = CSVOptions(delimiter: UInt8(ascii: ","))
        options.progress = request.progress
        // Counts are whole numbers, ids text (Location_ID 0012 keeps its zeros).
        options.typeOverride = { column in
            let n = column.lowercased()
            if n == "row_total" || category(column) != nil { return .int }
            if n.hasSuffix("_id") || n == "id" { return .string }
            return nil
        }
        let loaded = try CSVLoader.load(path: path, name: name, zone: request.zone, options: options, cancel: request.cancel)
        var (table, notes) = ClockColumns.recognise(loaded.table, path: path)
        notes += surveyTimes(&table, path: path)
        // A survey utq saved has its time (Date + Start_time) as a column of its own: the
        // table's time again, not the day.
        if let time = table.column("time"), time.type == .timestamp, time.unit != .day,
           let current = table.column(table.timeColumn ?? ""), current.unit == .day {
            table.timeColumn = "time"
        }
        let survey: Survey = table.columns.contains { ["posture", "activity"].contains(category($0.name) ?? "") } ? .staying : .moving
        let filled = fillCounts(&table, survey: survey)
        var how = [survey.rawValue + ", the Date + Start_time shape"]
        if let total = table.columns.first(where: { $0.name.lowercased() == "row_total" }), case .int(let v) = total.storage {
            let people = (0..<table.rowCount).map { total.isValid($0) ? v[$0] : 0 }
            let (differing, _) = PLDP.adding([Column(name: "people", storage: .int(people))], to: &table.columns, rows: table.rowCount)
            how.append(differing.isEmpty ? "people = \(total.name)" : "the file's own people kept as it is")
        }
        if filled.zeros > 0 { how.append("\(NumberText.counted(filled.zeros, "empty count cell")) read as 0") }
        if filled.uncounted > 0 {
            how.append("\(NumberText.counted(filled.uncounted, "group")) a row did not count left empty (\(filled.which.sorted().joined(separator: ", ")))")
        }
        let summary = Loaders.summary(table) + "\n  PLDP " + how.joined(separator: "; ") + " (help pldp)"
        return LoadResult(tables: [table], summary: summary, warnings: loaded.warnings + notes)
    }

    /// Empty count cells, as the protocol's exports write them. People staying: one row per
    /// person, 0/1 columns, an empty cell is 0. People moving: a row counts some groups and not
    /// others (Seattle counted gender in one 10-minute row and group sizes in the next), so an
    /// empty cell is 0 when the row filled in another column of its group, and stays empty
    /// (not counted) when the row left the whole group empty.
    static func fillCounts(_ t: inout Table, survey: Survey) -> (zeros: Int, uncounted: Int, which: Set<String>) {
        var groups: [String: [Int]] = [:]
        for (k, c) in t.columns.enumerated() where c.type == .int || c.type == .null {
            if let g = category(c.name) { groups[g, default: []].append(k) }
        }
        let n = t.rowCount
        var zeros = 0, uncounted = 0
        var which: Set<String> = []
        for (group, members) in groups {
            var counted = [Bool](repeating: survey == .staying, count: n)
            if survey == .moving {
                for k in members { for row in 0..<n where t.columns[k].isValid(row) { counted[row] = true } }
                let missing = counted.filter { !$0 }.count
                if missing > 0 { uncounted += missing; which.insert(group) }
            }
            for k in members {
                let c = t.columns[k]
                var values = [Int64](repeating: 0, count: n)
                if case .int(let v) = c.storage { values = v }
                var valid = Bitmap(count: n, value: true)
                for row in 0..<n where !c.isValid(row) {
                    if counted[row] { values[row] = 0; zeros += 1 } else { valid[row] = false }
                }
                t.columns[k] = Column(name: c.name, storage: .int(values), validity: valid)
            }
        }
        return (zeros, uncounted, which)
    }

    /// `survey_time_start` and `survey_time_stop` as the templates write them (20180802:0820),
    /// read as times; the start becomes the table's time when it has none.
    static func surveyTimes(_ t: inout Table, path: String) -> [LoadWarning] {
        var read: [String] = []
        for (k, c) in t.columns.enumerated() where c.name.lowercased().hasPrefix("survey_time_") {
            guard case .string(let s) = c.storage else { continue }
            let parsed = s.dictionary.map(compactTime)
            guard parsed.enumerated().allSatisfy({ $0.element != nil || s.dictionary[$0.offset].isEmpty }) else { continue }
            var values = [Int64](repeating: 0, count: s.codes.count)
            var valid = Bitmap(count: s.codes.count, value: true)
            for (row, code) in s.codes.enumerated() {
                if c.isValid(row), let wall = parsed[Int(code)] { values[row] = t.zone.instant(wallMicros: wall) } else { valid[row] = false }
            }
            var column = Column(name: c.name, storage: .timestamp(values), validity: valid)
            column.floating = true
            t.columns[k] = column
            read.append(c.name)
        }
        if t.columns.first(where: { $0.name == t.timeColumn })?.unit == .day || t.timeColumn == nil,
           let start = read.first(where: { $0.lowercased().hasSuffix("start") }) {
            t.timeColumn = start
        }
        return read.isEmpty ? [] : [LoadWarning(path: path, "read \(read.joined(separator: ", ")) (yyyymmdd:hhmm) as wall-clock times in \(t.zone.identifier)")]
    }

    /// `20180802:0820` (or with a space or T) as wall-clock microseconds.
    static func compactTime(_ text: String) -> Int64? {
        let b = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard b.count == 13, [UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "T")].contains(b[8]),
              b.enumerated().allSatisfy({ $0.offset == 8 || $0.element &- 48 <= 9 }) else { return nil }
        func number(_ r: Range<Int>) -> Int64 { r.reduce(0) { $0 * 10 + Int64(b[$1] - 48) } }
        guard let day = ClockColumns.day(number(0..<8)) else { return nil }
        let h = number(9..<11), m = number(11..<13)
        guard h <= 24, m < 60 else { return nil }
        return day * CivilTime.microsPerDay + (h * 60 + m) * 60_000_000
    }
}
