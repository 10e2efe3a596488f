import Foundation
import UTQCore

/// What a table saved by utq keeps beside its rows, so that it reads back as it was loaded:
/// its zone, the column its time buckets read, what a row is called, and each column's unit
/// (a GTFS date is a day, a service time a clock) and whether its times are wall-clock
/// times. It is the table's comment in the database ("utq {…}"), where a dump keeps it and
/// `\dt+` shows it; a table without one reads as the database's own.
struct TableNotes: Codable, Equatable {
    var zone: String?
    var time: String?
    var noun: String?
    var units: [String: String]?
    var floating: [String]?

    static let prefix = "utq "

    init(_ table: Table) {
        zone = table.zone.identifier
        // The first timestamp is the time column when none is said; only another is written.
        let firstTime = table.columns.first(where: { $0.type == .timestamp })?.name
        time = table.timeColumn == firstTime ? nil : table.timeColumn
        noun = table.rowNoun == "rows" ? nil : table.rowNoun
        var units: [String: String] = [:]
        for c in table.columns where c.unit != .automatic { units[c.name] = c.unit.rawValue }
        self.units = units.isEmpty ? nil : units
        let floating = table.columns.filter(\.floating).map(\.name)
        self.floating = floating.isEmpty ? nil : floating
    }

    /// The notes in a table's comment, or nil for a comment utq did not write.
    init?(comment: String) {
        guard comment.hasPrefix(Self.prefix),
              let notes = try? JSONDecoder().decode(TableNotes.self, from: Data(comment.dropFirst(Self.prefix.count).utf8)) else { return nil }
        self = notes
    }

    var comment: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Self.prefix + json
    }

    /// The zone the table's times are shown in and its wall-clock columns read in.
    var zoneRules: ZoneRules? { zone.flatMap(ZoneRules.named) }

    func unit(of column: String) -> DisplayUnit? { units?[column].flatMap(DisplayUnit.init(rawValue:)) }
}
