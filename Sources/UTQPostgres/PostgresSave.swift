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
        savedNotes = []
        let columns = table.columns.map { c -> String in
            if !temporary, let labels = Self.enumLabels(c), Array("\(tableName).\(c.name)".utf8).count <= 63 {
                enums.append((connection.identifier("\(tableName).\(c.name)"), labels))
                return "\(connection.identifier(c.name)) \(enums[enums.count - 1].type)"
            }
            if case .geometry(let g) = c.storage { return "\(connection.identifier(c.name)) \(geometryType(g.space))" }
            return "\(connection.identifier(c.name)) \(Self.sqlType(c.type))"
        }
        let geometries = table.columns.filter { $0.type == .geometry }.map(\.name)
        if !temporary, !postgis.available, !geometries.isEmpty {
            savedNotes.append("\(name).\(tableName): " + (geometries.count == 1 ? "\(geometries[0]) is" : "\(geometries.joined(separator: ", ")) are")
                              + " saved as text (WKT), since the database has no PostGIS; geometry(\(geometries[0])) reads it back as a geometry")
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
            let writers = table.columns.map { c -> CopyWriter in
                let w = CopyWriter(c)
                w.geometryAsWKT = !postgis.available
                return w
            }
            try connection.copyIn("COPY \(target) FROM STDIN") { send in
                try CopyWriter.rows(table.rowCount, writers, cancel: cancel, send: send)
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

    /// A geometry column's type: with PostGIS a geometry, of SRID 4326 in lng/lat (so it reads
    /// back as lng/lat, and PostGIS measures it on WGS 84) and of none on a plane; without
    /// PostGIS its well-known text.
    func geometryType(_ space: GeoSpace) -> String {
        guard postgis.available else { return "text" }
        return space == .lnglat ? "geometry(Geometry, 4326)" : "geometry"
    }

    static func sqlType(_ t: DataType) -> String {
        switch t {
        case .int: return "bigint"
        case .double: return "double precision"
        case .bool: return "boolean"
        case .string, .null: return "text"
        case .timestamp: return "timestamptz"
        case .duration: return "interval"
        case .geometry: return "geometry"
        }
    }
}

extension CopyWriter {
    /// The bytes sent at a time. Small, so the server always has rows to read while the next
    /// are written: with a megabyte at a time it waited for each (save append of 1M rows took
    /// 1.8 times psql's \copy of the same CSV).
    static let chunkSize = 1 << 16

    /// Writes rows of COPY text, a chunk at a time, to `send`; `numberedFrom`: a last column
    /// numbering the rows on from it.
    static func rows(_ count: Int, _ writers: [CopyWriter], numberedFrom: Int64? = nil, cancel: CancellationFlag?,
                     send: ([UInt8]) throws -> Void) throws {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize + 4096)
        for row in 0..<count {
            if row & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            for (k, w) in writers.enumerated() {
                if k > 0 { chunk.append(0x09) }
                w.write(row, into: &chunk)
            }
            if let first = numberedFrom {
                if !writers.isEmpty { chunk.append(0x09) }
                appendInteger(first + Int64(row), into: &chunk)
            }
            chunk.append(0x0A)
            if chunk.count >= chunkSize { try send(chunk); chunk.removeAll(keepingCapacity: true) }
        }
        if !chunk.isEmpty { try send(chunk) }
    }
}

/// Writes one column's cells in COPY's text format: \N for null; backslashes, tabs and line
/// breaks escaped; a text column's values escaped once per distinct value, not per row.
/// Numbers and times are written digit by digit into the buffer. (A class: a copy of the
/// writer for each cell cost a quarter of the time of writing a million rows.)
final class CopyWriter {
    let column: Column
    private let texts: [[UInt8]]
    /// For a column of wall-clock times (timestamp, date): times are written as the clock in
    /// this zone reads them.
    var wallClock: ZoneRules?
    /// For a column of geometries going into text (a database without PostGIS): well-known
    /// text, without the SRID that EWKT gives a PostGIS geometry.
    var geometryAsWKT = false

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
        case .int(let a): appendInteger(a[row], into: &out)
        case .double(let a): appendDouble(a[row], into: &out)
        case .bool(let a): out.append(a[row] ? 0x74 : 0x66)
        case .string(let s): out += texts[Int(s.codes[row])]
        case .timestamp(let a):
            if let zone = wallClock {
                appendISO(a[row] + Int64(zone.offsetSeconds(atMicros: a[row])) * 1_000_000, into: &out)
            } else {
                appendISO(a[row], into: &out)
            }
        case .duration(let a): out += "\(a[row]) microseconds".utf8
        case .geometry(let g): out += (geometryAsWKT ? WKT.text(g[row]) : g[row].databaseText).utf8
        case .null: out += [0x5C, 0x4E]
        }
    }
}

/// A whole number's digits.
@inline(__always)
func appendInteger(_ v: Int64, into out: inout [UInt8]) {
    if v < 0 {
        if v == .min { out += String(v).utf8; return }
        out.append(0x2D)
    }
    var u = UInt64(v.magnitude), digits = 1, p: UInt64 = 10
    while digits < 19 && u >= p { digits += 1; p &*= 10 }
    var divisor: UInt64 = 1
    for _ in 1..<digits { divisor &*= 10 }
    while divisor > 0 {
        out.append(UInt8(48 + u / divisor))
        u %= divisor
        divisor /= 10
    }
}

private let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6]

/// A double as text that reads back as the same double: with at most six decimals when such
/// a decimal is it (most data: 52.3913, 7.0), digit by digit; else its shortest form. A
/// decimal m / 10^k is the double when dividing the two exact doubles gives it, since the
/// division and the parse both round the same quotient to the nearest.
@inline(__always)
func appendDouble(_ v: Double, into out: inout [UInt8]) {
    if v.isFinite, v.magnitude < 1e12, v != 0 || v.sign == .plus {
        for k in 0...6 {
            let p = powersOfTen[k]
            let m = (v * p).rounded()
            guard m / p == v else { continue }
            let whole = Int64(m)
            if whole < 0 { out.append(0x2D) }
            let u = whole.magnitude, scale = UInt64(p)
            appendInteger(Int64(u / scale), into: &out)
            if k > 0 {
                out.append(0x2E)
                var f = u % scale, d = scale / 10
                while d > 0 { out.append(UInt8(48 + f / d)); f %= d; d /= 10 }
            }
            return
        }
    }
    out += (v.isNaN ? "NaN" : v.isInfinite ? (v > 0 ? "Infinity" : "-Infinity") : "\(v)").utf8
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
        var divisor: Int64 = 1
        for _ in 1..<n { divisor *= 10 }
        var v = v
        while divisor > 0 { out.append(UInt8(48 + v / divisor)); v %= divisor; divisor /= 10 }
    }
    if d.year < 0 || d.year > 9999 { out += isoUTC(micros).utf8; return }
    digits(Int64(d.year), 4); out.append(0x2D); digits(Int64(d.month), 2); out.append(0x2D); digits(Int64(d.day), 2)
    out.append(0x20); digits(second / 3600, 2); out.append(0x3A); digits(second % 3600 / 60, 2); out.append(0x3A); digits(second % 60, 2)
    out.append(0x2E); digits(fraction, 6); out += [0x2B, 0x30, 0x30]
}

extension String {
    func leftPaddedZeros(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
