import Foundation
import UTQCore

extension PostgresDatabase {
    /// Creates the table and copies the rows in (COPY … FROM STDIN), in one transaction: a
    /// copy that fails leaves no table behind.
    func copyIn(_ table: Table, as tableName: String, replace: Bool, cancel: CancellationFlag?) throws -> Int {
        let target = connection.identifier(tableName)
        let exists = try connection.query("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                          + "WHERE c.relname = \(connection.literal(tableName)) AND n.nspname = ANY (current_schemas(false))")
        if exists.count > 0 && !replace {
            throw Diagnostic("\(name).\(tableName) exists already", hint: "save! to \(name).\(tableName) replaces it")
        }
        let columns = table.columns.map { c in "\(connection.identifier(c.name)) \(Self.sqlType(c.type))" }
        try connection.query("BEGIN")
        do {
            if exists.count > 0 { try connection.query("DROP TABLE \(target)") }
            try connection.query("CREATE TABLE \(target) (\(columns.joined(separator: ", ")))")
            try connection.copyIn("COPY \(target) FROM STDIN") { send in
                var chunk = ""
                chunk.reserveCapacity(1 << 20)
                for row in 0..<table.rowCount {
                    if row & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                    for (k, c) in table.columns.enumerated() {
                        if k > 0 { chunk += "\t" }
                        chunk += Self.copyText(c, row)
                    }
                    chunk += "\n"
                    if chunk.utf8.count >= 1 << 20 { try send(chunk); chunk.removeAll(keepingCapacity: true) }
                }
                if !chunk.isEmpty { try send(chunk) }
            }
            try connection.query("COMMIT")
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
        return table.rowCount
    }

    static func sqlType(_ t: DataType) -> String {
        switch t {
        case .int: return "bigint"
        case .double: return "double precision"
        case .bool: return "boolean"
        case .string, .null: return "text"
        case .timestamp: return "timestamptz"
        case .duration: return "interval"
        }
    }

    /// One cell in COPY's text format: \N for null, backslashes, tabs and line breaks escaped.
    static func copyText(_ c: Column, _ row: Int) -> String {
        guard c.isValid(row) else { return "\\N" }
        switch c.value(at: row) {
        case .null: return "\\N"
        case .int(let v): return String(v)
        case .double(let v): return v.isNaN ? "NaN" : v.isInfinite ? (v > 0 ? "Infinity" : "-Infinity") : "\(v)"
        case .bool(let v): return v ? "t" : "f"
        case .timestamp(let micros): return isoUTC(micros)
        case .duration(let micros): return "\(micros) microseconds"
        case .string(let s):
            var out = ""
            for ch in s.unicodeScalars {
                switch ch {
                case "\\": out += "\\\\"
                case "\t": out += "\\t"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                default: out.unicodeScalars.append(ch)
                }
            }
            return out
        }
    }
}

/// "2020-02-17 00:00:01.000000+00": what timestamptz reads whatever the session's zone.
func isoUTC(_ micros: Int64) -> String {
    let seconds = CivilTime.floorDiv(micros, 1_000_000), fraction = micros - seconds * 1_000_000
    let days = CivilTime.floorDiv(seconds, 86_400), second = seconds - days * 86_400
    let d = CivilTime.civilFromDays(days)
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(String(d.year).leftPaddedZeros(4))-\(two(Int64(d.month)))-\(two(Int64(d.day))) \(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60)).\(String(fraction).leftPaddedZeros(6))+00"
}

extension String {
    func leftPaddedZeros(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
