/// The text of `help`, made from the registries of verbs, functions, buckets and settings,
/// so it cannot drift from what the parser accepts.
public enum Help {
    public static func text(for topic: String?, span: SourceSpan? = nil) throws -> String {
        guard let topic = topic?.trimmingCharacters(in: .whitespaces).lowercased(), !topic.isEmpty else { return overview() }
        if let spec = Verbs.spec(for: topic) { return verb(spec) }
        if let f = Functions.spec(topic) { return function(f) }
        if let b = HelpTopics.buckets.first(where: { $0.name == topic }) { return entry(b) }
        if let s = HelpTopics.settings.first(where: { $0.name == topic }) { return entry(s) }
        if let t = HelpTopics.topics[topic] { return t }
        switch topic {
        case "functions": return functions()
        case "buckets", "time": return list("Time buckets", HelpTopics.buckets)
        case "settings", "set": return list("Settings (set NAME VALUE)", HelpTopics.settings)
        default: break
        }
        let all = Verbs.names + Functions.all.map(\.name) + HelpTopics.buckets.map(\.name) + HelpTopics.settings.map(\.name) + Array(HelpTopics.topics.keys)
        throw Diagnostic("no help on \"\(topic)\"" + Suggest.didYouMean(topic, among: all), at: span,
                         hint: "type help for the list of verbs and topics")
    }

    public static func overview() -> String {
        var out = "utq — count and chart how a town moves.\n\n"
        for category in VerbSpec.Category.allCases {
            let specs = Verbs.all.filter { $0.category == category }
            if specs.isEmpty { continue }
            out += category.rawValue + "\n"
            for s in specs {
                out += "  " + s.name.padding(toLength: 10, withPad: " ", startingAt: 0) + s.summary + "\n"
            }
            out += "\n"
        }
        out += "More: help VERB, help functions, help buckets, help settings, help syntax.\n"
        out += "A line runs on the current table; start it with a table name to use another: rides | count by hour.\n"
        return out
    }

    static func verb(_ s: VerbSpec) -> String {
        var out = "\(s.name) — \(s.summary)\n\n  \(s.usage)\n"
        if !s.aliases.isEmpty { out += "  (also: " + s.aliases.joined(separator: ", ") + ")\n" }
        if !s.details.isEmpty { out += "\n" + s.details + "\n" }
        if !s.examples.isEmpty {
            out += "\nExamples\n" + s.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        return out
    }

    static func function(_ f: FunctionSpec) -> String {
        var out = "\(f.name) — \(f.summary)\n\n  \(f.usage)\n"
        if !f.examples.isEmpty { out += "\nExamples\n" + f.examples.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    static func functions() -> String {
        var out = "Functions (use them in where, let, select, sort and by)\n"
        for f in Functions.all {
            out += "  " + f.usage.padding(toLength: 36, withPad: " ", startingAt: 0) + f.summary + "\n"
        }
        out += "\nTime buckets also work as functions: hour(t), weekday(t), day(t), bucket(t, 15m). See help buckets.\n"
        return out
    }

    static func entry(_ e: HelpTopics.Entry) -> String {
        var out = "\(e.name) — \(e.summary)\n"
        if !e.details.isEmpty { out += "\n" + e.details + "\n" }
        if !e.examples.isEmpty { out += "\nExamples\n" + e.examples.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    static func list(_ title: String, _ entries: [HelpTopics.Entry]) -> String {
        title + "\n" + entries.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n") + "\n"
    }
}

/// Help entries that are not verbs or functions.
public enum HelpTopics {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let details: String
        public let examples: [String]
    }

    public static let buckets: [Entry] = [
        Entry(name: "minute", summary: "The time cut to the minute.", details: "", examples: ["count by minute | limit 5"]),
        Entry(name: "hour", summary: "The hour of the day, 0 to 23, in the table's time zone.",
              details: "On GTFS service times (durations), hour 25 stays 25: a trip at 25:10 runs after midnight of the service day.",
              examples: ["count by hour", "where hour >= 12 | count by legend"]),
        Entry(name: "weekday", summary: "Mon … Sun, sorted Monday first.", details: "", examples: ["count by weekday"]),
        Entry(name: "day", summary: "The calendar date (also: date).", details: "", examples: ["count by day"]),
        Entry(name: "week", summary: "The ISO week, written 2017-W12; weeks start on Monday.", details: "", examples: ["count by week"]),
        Entry(name: "month", summary: "The calendar month, written 2017-03.", details: "", examples: ["count by month"]),
        Entry(name: "year", summary: "The year.", details: "", examples: ["count by year"]),
        Entry(name: "every", summary: "Fixed spans of time: every 15m, every 1h, every 1d.",
              details: "Spans are aligned to midnight in the table's time zone. bucket(t, 15m) is the same as a function.",
              examples: ["count by every 1m", "count by legend, every 2m | limit 6"]),
    ]

    public static let settings: [Entry] = [
        Entry(name: "output", summary: "How results print: table, csv, tsv, json, ndjson or markdown.", details: "", examples: ["set output csv", "set output table"]),
        Entry(name: "timezone", summary: "The current table's time zone; buckets follow it.",
              details: "Times that were written with an offset keep their instant; times written without one keep their wall-clock reading.",
              examples: ["set timezone Europe/Oslo"]),
        Entry(name: "time", summary: "The column that hour, day, every 15m … read.", details: "", examples: ["set time time"]),
        Entry(name: "width", summary: "The width results and charts are drawn to (default: the terminal's).", details: "", examples: ["set width 100"]),
        Entry(name: "height", summary: "The lines charts size their plots to (default: the terminal's; LINES).",
              details: "Column, line and histogram plots take about half of it; a map takes most of it.", examples: ["set height 40"]),
        Entry(name: "timer", summary: "on: print how long each command took.", details: "", examples: ["set timer on", "set timer off"]),
        Entry(name: "maxrows", summary: "The most rows a result prints; longer ones show head and tail.", details: "", examples: ["set maxrows 60"]),
        Entry(name: "charset", summary: "unicode (default) or ascii: the characters tables and charts are drawn with.", details: "", examples: ["set charset ascii", "set charset unicode"]),
        Entry(name: "csv-safe", summary: "on: cells that start with = + - @ are written with a ' in CSV, so spreadsheets do not run them.", details: "", examples: ["set csv-safe on", "set csv-safe off"]),
    ]

    public static let topics: [String: String] = [
        "syntax": """
        A command is a pipeline of stages joined by |, read left to right:
          where legend = "Bike" | count by hour | sort count desc
        A line starting with a verb runs on the current table; start it with a table name,
        $3 (result 3) or _ (the last result) to run on something else:
          rides | count by weekday        $3 | where count > 10
        Commands end at ; or a line break. A line ending in | (or a line starting with |)
        continues the pipeline. # starts a comment. Text goes in "double" or 'single' quotes;
        names with spaces in `backticks`. Spans of time are written 15m, 1h, 30s, 2d, 1w.
        let NAME = PIPELINE keeps a result as a table; let NAME = EXPR inside a pipeline adds a column.
        """,
    ]
}

import Foundation
