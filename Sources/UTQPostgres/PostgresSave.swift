import Foundation
import UTQCore

extension PostgresDatabase {
    /// Creates the table and copies the rows in (COPY … FROM STDIN), in one transaction: a
    /// copy that fails leaves no table behind.
    /// A temporary table (`temporary`) lives as long as the connection, in its own schema.
    func copyIn(_ table: Table, as tableName: String, replace: Bool, temporary: Bool = false, cancel: CancellationFlag?) throws -> Int {
        let target = (temporary ? "pg_temp." : "") + connection.identifier(tableName)
        let exists = temporary ? PGRows.none : try connection.query("""
            SELECT c.relkind::text, (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid)::text,
                   (SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = c.oid AND p.relkind = 'f')::text,
                   coalesce((SELECT s.srvname FROM pg_foreign_table f JOIN pg_foreign_server s ON s.oid = f.ftserver WHERE f.ftrelid = c.oid), '')
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = \(connection.literal(tableName)) AND n.nspname = ANY (current_schemas(false))
            """)
        let full = "\(name).\(tableName)"
        if exists.count > 0 && !replace {
            throw Diagnostic("\(full) exists already", hint: "save! to \(full) replaces it; save append to \(full) adds the rows to it")
        }
        // What save! would lose in place of a table that is not one plain table: a partitioned
        // table's partitions (perhaps on other servers), a view's query, a foreign table's link.
        if exists.count > 0, exists.cells[0][0] != "r" {
            let parts = Int(exists.cells[1][0]) ?? 0, foreign = Int(exists.cells[2][0]) ?? 0
            let lost: String
            switch exists.cells[0][0] {
            case "p":
                lost = "it is a partitioned table: save! would put one plain table in its place and lose its "
                    + NumberText.counted(parts, "partition")
                    + (foreign == 0 ? "" : foreign == 1 && parts == 1 ? ", a foreign table on another server"
                       : ", \(foreign == parts ? "all" : "\(foreign)") of them foreign tables on other servers")
            case "f":
                lost = "it is a foreign table, whose rows are on \(exists.cells[3][0].isEmpty ? "another server" : "the server \(exists.cells[3][0])"): "
                    + "save! would put a table here in its place and lose the link to them"
            case "v": lost = "it is a view: save! would put a table in its place and lose the view's query"
            case "m": lost = "it is a materialized view: save! would put a table in its place and lose the view's query"
            default: lost = "it is not a table of rows: save! replaces only tables"
            }
            let append = ["p", "f"].contains(exists.cells[0][0]) ? "save append to \(full) adds the rows to it; " : ""
            throw Diagnostic("\(full) was not replaced: \(lost)", hint: append + "save to a new name makes another table")
        }
        // Text whose values have an order of their own (a project's legends, weekday names)
        // becomes an enum type, so the order is kept in the database and comes back with it.
        var enums: [(type: String, labels: [String])] = []
        let columns = table.columns.map { c -> String in
            if !temporary, let labels = Self.enumLabels(c), Array("\(tableName).\(c.name)".utf8).count <= 63 {
                enums.append((connection.identifier("\(tableName).\(c.name)"), labels))
                return "\(connection.identifier(c.name)) \(enums[enums.count - 1].type)"
            }
            return "\(connection.identifier(c.name)) \(Self.sqlType(c.type))"
        }
        try connection.query("BEGIN")
        do {
            if exists.count > 0 || temporary { try connection.query("DROP TABLE IF EXISTS \(target)") }
            for e in enums {
                try connection.query("DROP TYPE IF EXISTS \(e.type)")
                try connection.query("CREATE TYPE \(e.type) AS ENUM (\(e.labels.map(connection.literal).joined(separator: ", ")))")
            }
            try connection.query("CREATE \(temporary ? "TEMPORARY " : "")TABLE \(target) (\(columns.joined(separator: ", ")))")
            if !temporary { try connection.query("COMMENT ON TABLE \(target) IS \(connection.literal(TableNotes(table).comment))") }
            try connection.copyIn("COPY \(target) FROM STDIN") { send in
                let writers = table.columns.map(CopyWriter.init)
                var chunk: [UInt8] = []
                chunk.reserveCapacity(1 << 20 + 4096)
                for row in 0..<table.rowCount {
                    if row & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                    for (k, w) in writers.enumerated() {
                        if k > 0 { chunk.append(0x09) }
                        w.write(row, into: &chunk)
                    }
                    chunk.append(0x0A)
                    if chunk.count >= 1 << 20 { try send(chunk); chunk.removeAll(keepingCapacity: true) }
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

    /// The labels of an ordered text column, when PostgreSQL can hold them as an enum's
    /// (each at most 63 bytes).
    static func enumLabels(_ c: Column) -> [String]? {
        guard case .string(let s) = c.storage, s.ordered, !s.dictionary.isEmpty,
              s.dictionary.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }) else { return nil }
        return s.dictionary
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
}

/// Writes one column's cells in COPY's text format: \N for null; backslashes, tabs and line
/// breaks escaped; a text column's values escaped once per distinct value, not per row.
struct CopyWriter {
    let column: Column
    private let texts: [[UInt8]]
    /// For a column of wall-clock times (timestamp, date): times are written as the clock in
    /// this zone reads them.
    var wallClock: ZoneRules?

    init(_ column: Column) {
        self.column = column
        if case .string(let s) = column.storage { texts = s.dictionary.map(CopyWriter.escaped) } else { texts = [] }
    }

    static func escaped(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, 0x74]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            default: out.append(b)
            }
        }
        return out
    }

    func write(_ row: Int, into out: inout [UInt8]) {
        guard column.isValid(row) else { out += [0x5C, 0x4E]; return }
        switch column.storage {
        case .int(let a): out += String(a[row]).utf8
        case .double(let a):
            let v = a[row]
            out += (v.isNaN ? "NaN" : v.isInfinite ? (v > 0 ? "Infinity" : "-Infinity") : "\(v)").utf8
        case .bool(let a): out.append(a[row] ? 0x74 : 0x66)
        case .string(let s): out += texts[Int(s.codes[row])]
        case .timestamp(let a):
            if let zone = wallClock {
                appendISO(a[row] + Int64(zone.offsetSeconds(atMicros: a[row])) * 1_000_000, into: &out)
            } else {
                appendISO(a[row], into: &out)
            }
        case .duration(let a): out += "\(a[row]) microseconds".utf8
        case .null: out += [0x5C, 0x4E]
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

/// isoUTC's text, written straight into a buffer.
func appendISO(_ micros: Int64, into out: inout [UInt8]) {
    let seconds = CivilTime.floorDiv(micros, 1_000_000), fraction = micros - seconds * 1_000_000
    let days = CivilTime.floorDiv(seconds, 86_400), second = seconds - days * 86_400
    let d = CivilTime.civilFromDays(days)
    func digits(_ v: Int64, _ n: Int) {
        var v = v, tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (48, 48, 48, 48, 48, 48)
        withUnsafeMutableBytes(of: &tmp) { b in
            var i = n - 1
            while i >= 0 { b[i] = UInt8(48 + v % 10); v /= 10; i -= 1 }
            out.append(contentsOf: b.prefix(n))
        }
    }
    if d.year < 0 || d.year > 9999 { out += isoUTC(micros).utf8; return }
    digits(Int64(d.year), 4); out.append(0x2D); digits(Int64(d.month), 2); out.append(0x2D); digits(Int64(d.day), 2)
    out.append(0x20); digits(second / 3600, 2); out.append(0x3A); digits(second % 3600 / 60, 2); out.append(0x3A); digits(second % 60, 2)
    out.append(0x2E); digits(fraction, 6); out += [0x2B, 0x30, 0x30]
}

extension String {
    func leftPaddedZeros(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
