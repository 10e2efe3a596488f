/// Gehl's Public Life Data Protocol (PLDP 1.0) surveys, as cities publish them: a CSV with
/// `startedAt` and `endedAt` and count columns named by the protocol (`postureStanding`,
/// `genderFemale`, `age15To24`, `modePedestrian`, …). Published files are messy: names with
/// spaces after them, US dates with 12-hour clocks (`09/22/17 10:00 PM`), empty cells for 0,
/// `"-122.418, 37.7796"` for a location. Loaded, the times are timestamps in the study's zone,
/// the counts whole numbers with 0 for empty, the location two numbers, and `people` says how
/// many each row counts.
public enum PLDP {
    /// The prefixes of the protocol's count columns.
    static let countPrefixes = ["posture", "gender", "age", "mode", "activity", "group", "congregation", "object"]
    /// The protocol's other columns (and those the published samples add), kept as they are.
    static let plainColumns: Set<String> = ["id", "name", "notes", "note", "location", "locationtype", "unitaddress", "surveyor",
                                            "climate", "temperature", "startedat", "endedat", "date", "time", "daytype", "weather"]

    enum Survey: String { case staying = "people staying", moving = "people moving" }

    static func isCount(_ name: String) -> Bool {
        countPrefixes.contains { p in
            name.hasPrefix(p) && name.count > p.count && name[name.index(name.startIndex, offsetBy: p.count)].isUppercase
                || name.hasPrefix(p) && name.dropFirst(p.count).first?.isNumber == true
        }
    }

    /// The header's names, trimmed, when the first line of a file is a PLDP header.
    static func header(_ head: [UInt8]) -> [String]? {
        guard let line = BehaviourMapperExport.firstLine(head) else { return nil }
        let names = line.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let lower = Set(names.map { $0.lowercased() })
        guard lower.contains("startedat"), names.filter(isCount).count >= 2 else { return nil }
        return names
    }

    static func looksLike(_ head: [UInt8]) -> Bool { header(head) != nil }

    public static func load(_ request: LoadRequest, name: String, head: [UInt8]) throws -> LoadResult {
        let path = request.path
        var options = CSVOptions(delimiter: UInt8(ascii: ","))
        options.progress = request.progress
        options.typeOverride = { column in
            let n = column.lowercased()
            if n == "startedat" || n == "endedat" { return .timestamp(.monthFirst) }
            if isCount(column) { return .int }
            return nil
        }
        let loaded = try CSVLoader.load(path: path, name: name, zone: request.zone, options: options, cancel: request.cancel)
        let raw = loaded.table
        let n = raw.rowCount
        var columns: [Column] = []
        var filled = 0, unknown: [String] = []
        for c in raw.columns {
            guard isCount(c.name), case .int(let v) = c.storage else {
                if !plainColumns.contains(c.name.lowercased()) && !isCount(c.name) && !derivedNames.contains(c.name) { unknown.append(c.name) }
                columns.append(c)
                continue
            }
            // The protocol leaves a zero empty.
            filled += c.nullCount
            columns.append(Column(name: c.name, storage: .int(v.indices.map { c.isValid($0) ? v[$0] : 0 })))
        }
        let survey: Survey = columns.contains { $0.name.hasPrefix("posture") } ? .staying : .moving
        // How many people a row counts: each has one posture when staying; each one mode when moving.
        let parts = columns.filter { $0.name.hasPrefix(survey == .staying ? "posture" : "mode") && $0.type == .int }
        var derived: [Column] = []
        if !parts.isEmpty {
            var people = [Int64](repeating: 0, count: n)
            for p in parts { if case .int(let v) = p.storage { for i in 0..<n { people[i] &+= v[i] } } }
            derived.append(Column(name: "people", storage: .int(people)))
        }
        if let location = columns.first(where: { $0.name.lowercased() == "location" }) {
            derived += coordinates(location, n)
        }
        let (ownDiffering, ownOthers) = adding(derived, to: &columns, rows: n)
        unknown += ownOthers
        let table = Table(name: name, columns: columns, zone: request.zone,
                          timeColumn: columns.contains { $0.name == "startedAt" } ? "startedAt" : nil)
        var how = [survey.rawValue]
        if !parts.isEmpty && !ownDiffering.contains("people") {
            let kind = survey == .staying ? "posture" : "mode"
            how.append(parts.count == 1 ? "people = \(parts[0].name)" : "people = the \(parts.count) \(kind) columns added up")
        }
        if !ownDiffering.isEmpty {
            how.append("the file's own \(ownDiffering.joined(separator: ", ")) kept as \(ownDiffering.count == 1 ? "it is" : "they are")")
        }
        if filled > 0 { how.append("\(NumberText.counted(filled, "empty count cell")) read as 0") }
        var warnings = loaded.warnings
        if !unknown.isEmpty {
            let shown = unknown.prefix(6).joined(separator: ", ") + (unknown.count > 6 ? " and \(unknown.count - 6) more" : "")
            warnings.append(LoadWarning(path: path, "\(NumberText.counted(unknown.count, "column")) the protocol does not name (\(shown)); kept as they are"))
        }
        return LoadResult(tables: [table], summary: Loaders.summary(table) + "\n  PLDP " + how.joined(separator: "; ") + " (help pldp)",
                          warnings: warnings)
    }

    /// The columns a load adds: `people`, and `lng` and `lat` from the location.
    static let derivedNames: Set<String> = ["people", "lng", "lat"]

    /// The derived columns put after the file's, except where the file has a column of the
    /// same name (a table utq loaded and saved has them): one that holds the same values is
    /// the file's copy and is kept once; one that differs is the file's own and is kept as it
    /// is, in place of the derived one. Returns the names that differ, and the file's columns
    /// of those names that no derived column was made for (the protocol does not name them).
    static func adding(_ derived: [Column], to columns: inout [Column], rows: Int) -> (differing: [String], others: [String]) {
        var differing: [String] = []
        for d in derived {
            guard let own = columns.first(where: { $0.name == d.name }) else { columns.append(d); continue }
            if !(0..<rows).allSatisfy({ own.value(at: $0) == d.value(at: $0) }) { differing.append(d.name) }
        }
        let made = Set(derived.map(\.name))
        let others = columns.map(\.name).filter { derivedNames.contains($0) && !made.contains($0) }
        return (differing, others)
    }

    /// `"-122.418, 37.7796"`: longitude, latitude, as the protocol writes a point.
    static func coordinates(_ location: Column, _ n: Int) -> [Column] {
        guard case .string(let s) = location.storage else { return [] }
        let points: [(Double, Double)?] = s.dictionary.map { text in
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lng = parts[0], let lat = parts[1], abs(lat) <= 90, abs(lng) <= 180 else { return nil }
            return (lng, lat)
        }
        guard points.contains(where: { $0 != nil }) else { return [] }
        var lng = [Double](repeating: 0, count: n), lat = [Double](repeating: 0, count: n)
        var valid = Bitmap(count: n, value: true)
        for i in 0..<n {
            if location.isValid(i), let p = points[Int(s.codes[i])] { lng[i] = p.0; lat[i] = p.1 } else { valid[i] = false }
        }
        return [Column(name: "lng", storage: .double(lng), validity: valid), Column(name: "lat", storage: .double(lat), validity: valid)]
    }
}

import Foundation
