/// Behaviour Mapper's "Export Data" CSV: semicolon-delimited, `dd/MM/yyyy, HH:mm` times,
/// `(x, y)` positions, 999 for no direction, often a `;` at the end of every line, with or
/// without a header (the app's header cells may start with a backslash). It becomes the same
/// table as a project file: time, legend, icon, x, y, angle, note.
public enum BehaviourMapperExport {
    static let headerless = ["time", "position", "angle", "note", "legend", "icon"]

    /// Whether the first line of a file is an export row or an export header.
    static func looksLike(_ head: [UInt8]) -> Bool {
        guard let line = firstLine(head) else { return false }
        let cells = line.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 5 else { return false }
        if TimestampParser.parse(cells[0], order: .dayFirst) != nil && BehaviourMapper.parsePointText(cells[1]) != nil { return true }
        let names = cells.map(normalise)
        return names.contains("time") && names.contains(where: isPosition) && names.contains(where: { $0.contains("angle") })
    }

    static func firstLine(_ head: [UInt8]) -> String? {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let end = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? (bytes.isEmpty ? nil : bytes.endIndex) else { return nil }
        return String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
    }

    static func normalise(_ name: String) -> String {
        name.trimmingCharacters(in: CharacterSet(charactersIn: "\\ \t\"")).lowercased()
    }

    static func isPosition(_ n: String) -> Bool { n == "position" || n.hasPrefix("coordinate") || n == "point" }

    static func role(_ name: String) -> String? {
        let n = normalise(name)
        if n == "time" || n == "date" { return "time" }
        if isPosition(n) { return "position" }
        if n.contains("angle") { return "angle" }
        if n.contains("note") { return "note" }
        if n == "type" || n == "legend" || n.contains("name") { return "legend" }
        if n.contains("icon") { return "icon" }
        return nil
    }

    /// The legends in the order of their icons, the order the app numbers them as they are
    /// made (and a project file lists them), so that the export sorts and charts its legends
    /// as the project does; a legend without an icon comes after, in order of appearance.
    static func inIconOrder(_ legend: Column, icons: Column?) -> Column {
        guard case .string(let s) = legend.storage else { return legend }
        var first: [Int] = Array(repeating: Int.max, count: s.dictionary.count)
        var icon: [Int64] = Array(repeating: Int64.max, count: s.dictionary.count)
        for i in 0..<legend.count where legend.isValid(i) {
            let c = Int(s.codes[i])
            first[c] = min(first[c], i)
            if let icons, case .int(let v)? = Optional(icons.storage), icons.isValid(i) { icon[c] = min(icon[c], v[i]) }
        }
        let order = s.dictionary.indices.sorted { (icon[$0], first[$0]) < (icon[$1], first[$1]) }
        var newCode = [UInt32](repeating: 0, count: order.count)
        for (k, old) in order.enumerated() { newCode[old] = UInt32(k) }
        let storage = StringStorage(codes: s.codes.map { newCode[Int($0)] }, dictionary: order.map { s.dictionary[$0] }, ordered: true)
        return Column(name: legend.name, storage: .string(storage), validity: legend.validity)
    }

    public static func load(path: String, name: String, head: [UInt8], cancel: CancellationFlag?) throws -> LoadResult {
        let zone = ZoneRules.named(BehaviourMapper.zone) ?? .utc
        var options = CSVOptions(delimiter: UInt8(ascii: ";"))
        let line = firstLine(head) ?? ""
        let firstCell = line.split(separator: ";").first.map(String.init) ?? ""
        if TimestampParser.parse(firstCell, order: .dayFirst) != nil { options.names = headerless }
        options.typeOverride = { column in
            switch role(column) {
            case "time": return .timestamp(.dayFirst)
            case "angle": return .double
            case "icon": return .int
            case "position", "note", "legend": return .string
            default: return nil
            }
        }
        let loaded = try CSVLoader.load(path: path, name: name, zone: zone, options: options, cancel: cancel)
        let raw = loaded.table
        func find(_ r: String) -> Column? { raw.columns.first(where: { role($0.name) == r }) }
        guard let time = find("time"), let position = find("position") else {
            throw LoadError(path: path, "a Behaviour Mapper export needs Time and Position columns")
        }
        let n = raw.rowCount
        var warnings = loaded.warnings
        // Positions: parse each distinct "(x, y)" once.
        var xs = [Double](repeating: 0, count: n), ys = [Double](repeating: 0, count: n)
        var valid = Bitmap(count: n, value: true)
        var bad = 0
        if case .string(let s) = position.storage {
            let points = s.dictionary.map(BehaviourMapper.parsePointText)
            for i in 0..<n {
                if position.isValid(i), let p = points[Int(s.codes[i])] { xs[i] = p.0; ys[i] = p.1 }
                else { valid[i] = false; bad += 1 }
            }
        }
        if bad > 0 { warnings.append(LoadWarning(path: path, bad == 1 ? "1 row has no position utq can read, like (688.0, 500.5)" : "\(NumberText.grouped(bad)) rows have no position utq can read, like (688.0, 500.5)")) }
        // 999 is the app's "no direction".
        var angle = find("angle") ?? Column.nulls("angle", count: n)
        if case .double(let a) = angle.storage {
            var v = angle.validity ?? Bitmap(count: n, value: true)
            for i in 0..<n where a[i] == BehaviourMapper.noDirection { v[i] = false }
            angle = Column(name: "angle", storage: .double(a), validity: v)
        }
        let columns = [
            time.renamed("time"),
            inIconOrder(find("legend") ?? Column.nulls("legend", count: n), icons: find("icon")).renamed("legend"),
            (find("icon") ?? Column.nulls("icon", count: n)).renamed("icon"),
            Column(name: "x", storage: .double(xs), validity: valid),
            Column(name: "y", storage: .double(ys), validity: valid),
            angle.renamed("angle"),
            (find("note") ?? Column.nulls("note", count: n)).renamed("note"),
        ]
        let table = Table(name: name, columns: columns, zone: zone, timeColumn: "time", rowNoun: "entries")
        // The legends, in icon order (as the entries' legend sorts), with their icons and counts.
        var legendTable = RowTable(name: name + ".legends", [("legend", .string), ("icon", [.double, .string].contains(columns[2].type) ? columns[2].type : .int), ("entries", .int)])
        if case .string(let s) = columns[1].storage {
            var seen: [UInt32: Int] = [:]
            var order: [UInt32] = []
            for i in 0..<n where columns[1].isValid(i) {
                let c = s.codes[i]
                if seen[c] == nil { order.append(c); seen[c] = 0 }
                seen[c]! += 1
            }
            for c in order.sorted() {
                let row = (0..<n).first { columns[1].isValid($0) && s.codes[$0] == c } ?? 0
                legendTable.append([.string(s.dictionary[Int(c)]), columns[2].value(at: row), .int(Int64(seen[c]!))])
            }
        }
        let legends = legendTable.table(zone: zone, rowNoun: "legends", orderedText: ["legend"])
        return LoadResult(tables: [table, legends],
                          summary: Loaders.summary(table, extra: "\(legends.rowCount) legends (Behaviour Mapper export)"),
                          warnings: warnings)
    }
}

import Foundation
