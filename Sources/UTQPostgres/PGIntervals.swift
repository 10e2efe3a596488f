import Foundation
import UTQCore

/// PostgreSQL's intervals reach 178 million years; utq's durations, microseconds in 64 bits,
/// ±292,277 years. One interval past that made `(extract(epoch …) * 1000000)::int8` fail with
/// "bigint out of range", naming no column, and with it every query that read the table,
/// `count` and `describe` included. Such a value reads as null instead, and the table's
/// listing says so once for its interval columns. Null rather than reading the column as
/// text: the column stays a duration (summed, compared and shown as one), the values of
/// any use to utq are all kept, and only a value no duration can hold is lost.
enum PGIntervals {
    /// Whole seconds, so the bound holds whether `extract` gives numeric (PostgreSQL 14 on)
    /// or float8 (before), whose product could round past the last microsecond.
    static let boundSeconds = "9223372036854"

    /// The microseconds of an interval column, null when a duration cannot hold them.
    static func micros(_ id: String) -> String {
        "CASE WHEN abs(extract(epoch from \(id))) < \(boundSeconds) THEN (extract(epoch from \(id)) * 1000000)::int8 END AS \(id)"
    }

    /// One note for each table with interval columns, naming them.
    static func notes(database: String, tables: [String], columns: [String: [RemoteColumn]]) -> [String] {
        tables.compactMap { table in
            let intervals = (columns[table] ?? []).filter { $0.read == .micros }.map(\.name)
            guard !intervals.isEmpty else { return nil }
            return "\(database).\(table): an interval past ±292,277 years (more than a duration holds) reads as null in "
                + intervals.prefix(6).joined(separator: ", ") + (intervals.count > 6 ? ", …" : "")
        }
    }
}
