import Foundation
@testable import UTQCore

/// Helpers the unit tests use to compute expectations without the code under test:
/// Foundation's calendar (seeded random numbers come from UTQCore's SeededRandom).

/// Foundation's Gregorian calendar in a zone, as an independent reference for dates.
enum Reference {
    static func calendar(_ zone: String = "UTC") -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: zone)!
        return c
    }

    /// Microseconds since the epoch of a wall time in a zone, by Foundation.
    static func micros(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0,
                       zone: String = "UTC") -> Int64 {
        let date = calendar(zone).date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: mi, second: s))!
        return Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Seconds since the epoch of a UTC wall time.
    static func seconds(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
        micros(y, m, d, h, mi, s) / 1_000_000
    }

    /// Days since 1970-01-01 of a date, by Foundation.
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
        micros(y, m, d) / 86_400_000_000
    }

    /// A table built straight from columns, for executor tests that must not depend on loaders.
    static func table(_ name: String = "t", _ columns: [Column], zone: ZoneRules = .utc, timeColumn: String? = nil) -> Table {
        Table(name: name, columns: columns, zone: zone, timeColumn: timeColumn)
    }
}

extension Column {
    /// Test columns from Swift arrays with nil for null.
    static func ints(_ name: String, _ values: [Int64?]) -> Column {
        Column(name: name, storage: .int(values.map { $0 ?? 0 }), validity: bits(values.map { $0 != nil }))
    }

    static func doubles(_ name: String, _ values: [Double?]) -> Column {
        Column(name: name, storage: .double(values.map { $0 ?? 0 }), validity: bits(values.map { $0 != nil }))
    }

    static func bools(_ name: String, _ values: [Bool?]) -> Column {
        Column(name: name, storage: .bool(values.map { $0 ?? false }), validity: bits(values.map { $0 != nil }))
    }

    static func texts(_ name: String, _ values: [String?], ordered: [String]? = nil) -> Column {
        var dictionary = ordered ?? []
        var codes: [UInt32] = []
        for v in values {
            let s = v ?? ""
            if let i = dictionary.firstIndex(of: s) { codes.append(UInt32(i)) } else {
                dictionary.append(s); codes.append(UInt32(dictionary.count - 1))
            }
        }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionary, ordered: ordered != nil)),
                      validity: bits(values.map { $0 != nil }))
    }

    static func timestamps(_ name: String, _ values: [Int64?]) -> Column {
        Column(name: name, storage: .timestamp(values.map { $0 ?? 0 }), validity: bits(values.map { $0 != nil }))
    }

    static func durations(_ name: String, _ values: [Int64?], unit: DisplayUnit = .automatic) -> Column {
        Column(name: name, storage: .duration(values.map { $0 ?? 0 }), validity: bits(values.map { $0 != nil }), unit: unit)
    }

    static func bits(_ b: [Bool]) -> Bitmap {
        var m = Bitmap()
        for x in b { m.append(x) }
        return m
    }
}

extension Table {
    /// A column's values as Swift values, for comparisons with independent computations.
    func values(_ column: String) -> [Value] {
        guard let c = self.column(column) else { return [] }
        return (0..<rowCount).map { c.value(at: $0) }
    }
}
