import Foundation
@testable import UTQCore

/// A sheet as openpyxl reads it (Tests/Fixtures/xlsx/make.py writes these), and the check that
/// utq's table holds the same values: openpyxl knows nothing of utq's columns, so each cell
/// is compared with whatever type utq chose, and a type that cannot hold it is a mismatch.
struct ExpectedSheet: Decodable {
    let sheet: String
    let hidden: Bool
    let epoch1904: Bool
    let rows: [[ExpectedCell?]]

    /// The rows utq keeps: those with a value. openpyxl's empty text is no value.
    var rowsWithValues: [[ExpectedCell?]] {
        rows.filter { row in row.contains { !ExpectedCell.isBlank($0) } }
    }

    /// Columns up to the last with a value.
    var width: Int {
        rowsWithValues.map { row in (row.lastIndex { !ExpectedCell.isBlank($0) } ?? -1) + 1 }.max() ?? 0
    }

    /// What differs between utq's table of this sheet and openpyxl's reading of it.
    func differences(from table: Table, header: Bool = true) -> [String] {
        let kept = rowsWithValues
        let data = header ? Array(kept.dropFirst()) : kept
        var out: [String] = []
        if table.columns.count != width { out.append("\(sheet): \(table.columns.count) columns, openpyxl has \(width)") }
        if table.rowCount != data.count { out.append("\(sheet): \(table.rowCount) rows, openpyxl has \(data.count)") }
        guard out.isEmpty else { return out }
        if header, let names = kept.first { out += headerDifferences(names, table) }
        for (k, column) in table.columns.enumerated() {
            for (r, row) in data.enumerated() {
                let expected = k < row.count ? row[k] : nil
                if let problem = ExpectedCell.difference(expected, column.value(at: r), zone: table.zone) {
                    out.append("\(sheet) column \(column.name) row \(r + 1): \(problem)")
                    break  // one a column is enough to see it
                }
            }
        }
        return out
    }

    /// Header texts that are names as written (not empty, not repeated) must be the names.
    private func headerDifferences(_ names: [ExpectedCell?], _ table: Table) -> [String] {
        let texts: [String?] = (0..<width).map { k in
            guard k < names.count, case .s(let s)? = names[k] else { return nil }
            let name = CSVLoader.trimmedSpaces(s)
            return name.isEmpty ? nil : name
        }
        var counts: [String: Int] = [:]
        for t in texts.compactMap({ $0 }) { counts[t.lowercased(), default: 0] += 1 }
        var out: [String] = []
        for (k, t) in texts.enumerated() {
            guard let t, counts[t.lowercased()] == 1 else { continue }
            if table.columns[k].name != t { out.append("\(sheet) column \(k + 1) is named \(table.columns[k].name.quoted), openpyxl reads \(t.quoted)") }
        }
        return out
    }
}

enum ExpectedCell: Decodable, Equatable {
    case n(Double), s(String), b(Bool), dt(String), t(Double), td(Double), e(String)

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard let key = c.allKeys.first else { throw TestError(description: "a cell without a kind") }
        switch key.stringValue {
        case "n": self = .n(try c.decode(Double.self, forKey: key))
        case "s": self = .s(try c.decode(String.self, forKey: key))
        case "b": self = .b(try c.decode(Bool.self, forKey: key))
        case "dt": self = .dt(try c.decode(String.self, forKey: key))
        case "t": self = .t(try c.decode(Double.self, forKey: key))
        case "td": self = .td(try c.decode(Double.self, forKey: key))
        case "e": self = .e(try c.decode(String.self, forKey: key))
        default: throw TestError(description: "a cell of unknown kind \(key.stringValue)")
        }
    }

    static func isBlank(_ c: ExpectedCell?) -> Bool { c == nil || c == .s("") }

    /// Why utq's value is not openpyxl's, or nil when it is.
    static func difference(_ expected: ExpectedCell?, _ got: Value, zone: ZoneRules) -> String? {
        let e: ExpectedCell
        switch expected {
        case nil, .s("")?, .e?:
            return got == .null ? nil : "expected empty (\(expected.map { "\($0)" } ?? "nothing")), got \(got)"
        case let c?: e = c
        }
        func micros(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }
        switch (e, got) {
        case let (.n(x), .int(v)) where Double(v) == x: return nil
        case let (.n(x), .double(v)) where v == x: return nil
        case let (.b(x), .bool(v)) where v == x: return nil
        case let (.dt(x), .timestamp(t)) where isoWall(t, zone: zone) == x: return nil
        case let (.t(x), .duration(d)) where d == micros(x): return nil
        case let (.td(x), .duration(d)) where d == micros(x): return nil
        case let (.s(x), .string(v)) where v == x || hasExcelEscape(x): return nil
        // A column of mixed cells is text, each cell as the sheet shows it.
        case let (.n(x), .string(v)) where v == (x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"): return nil
        case let (.b(x), .string(v)) where v == (x ? "true" : "false"): return nil
        case let (.dt(x), .string(v)) where x.hasPrefix(v.replacingOccurrences(of: " ", with: "T")): return nil
        case let (.t(x), .string(v)) where v == clock(micros(x)): return nil
        case let (.td(x), .string(v)) where v == clock(micros(x)): return nil
        default: return "openpyxl reads \(e), utq \(got)"
        }
    }

    /// Python's `datetime.isoformat()` of the wall-clock time.
    static func isoWall(_ t: Int64, zone: ZoneRules) -> String {
        let wall = zone.wallMicros(t)
        let day = CivilTime.floorDiv(wall, CivilTime.microsPerDay)
        let (y, m, d) = CivilTime.civilFromDays(day)
        let inDay = wall - day * CivilTime.microsPerDay
        let s = inDay / 1_000_000, frac = inDay % 1_000_000
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, s / 3600, s % 3600 / 60, s % 60)
        if frac != 0 { text += String(format: ".%06d", frac) }
        return text
    }

    static func clock(_ micros: Int64) -> String { TimeText.duration(micros, unit: .clock) }

    /// openpyxl leaves Excel's `_x000D_` escapes in texts; utq undoes them.
    static func hasExcelEscape(_ s: String) -> Bool { s.range(of: "_x[0-9A-Fa-f]{4}_", options: .regularExpression) != nil }
}

/// Loading a workbook's sheet as `load` does, and reading what openpyxl made of it.
enum XLSXFixtures {
    static let folder = "Tests/Fixtures/xlsx"

    static func load(_ path: String, sheet: String? = nil, zone: ZoneRules = .utc, options: LoadOptions = LoadOptions()) throws -> LoadResult {
        var request = LoadRequest(path: path.hasPrefix("/") ? path : Repo.path(path), zone: zone)
        request.options = options
        if let sheet { request.options.sheet = sheet }
        return try Loaders.load(request)
    }

    static func expected(_ file: String) throws -> ExpectedSheet {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(folder)/expected/\(file)")))
        return try JSONDecoder().decode(ExpectedSheet.self, from: data)
    }

    /// Every sheet of a workbook as openpyxl reads it now, from make.py run by `python`.
    static func openpyxl(_ workbook: String, python: String) throws -> [ExpectedSheet] {
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + [Repo.path("\(folder)/make.py"), workbook]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError(description: "make.py \(workbook) failed (status \(p.terminationStatus))") }
        return try JSONDecoder().decode([ExpectedSheet].self, from: data)
    }
}
