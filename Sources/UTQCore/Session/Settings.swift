/// Settings a user changes with `set`.
public struct Settings: Sendable {
    public var output: OutputFormat = .table
    public var timer = false
    public var render = RenderOptions()
    /// Width and height follow the terminal (when the program says how big it is) until a
    /// `set width N` / `set height N`; `set width auto` follows it again.
    public var widthFollowsTerminal = true
    public var heightFollowsTerminal = true
    public var csvSafe = false
    /// `--force` on the command line: `save` replaces files as `save!` does.
    public var replaceFiles = false
    /// Bytes a load may take (`set memory-limit`); nil: what the system has free.
    public var memoryLimit: Int?
    /// Help taller than the window opens in a pager at the prompt (`set pager off`, UTQ_PAGER=off).
    public var pager = true

    /// The widths and heights `set width` and `set height` take. Charts are laid out on
    /// grids of this size, so the command line's options and the terminal's size are held
    /// to them too.
    public static let widthRange = 20...1000
    public static let heightRange = 5...1000

    public init() {}
}

/// A `set NAME VALUE` on its way to the session.
struct SettingChange {
    /// The setting's name as it was written (`colour`), for messages.
    let name: String
    let value: String
    let span: SourceSpan
    let session: Session

    var settings: Settings {
        get { session.settings }
        nonmutating set { session.settings = newValue }
    }

    func flag() throws -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw Diagnostic("\(name) is on or off, not \"\(value)\"", at: span)
        }
    }

    func number(_ range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(value), range.contains(n) else {
            throw Diagnostic("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound)", at: span)
        }
        return n
    }
}

/// One setting: its names, its help, the values completion offers, how a value is taken,
/// and how its current value reads. The one list (`SettingsRegistry.all`) feeds `set`,
/// `help`, completion and the docs.
public struct SettingSpec: Sendable {
    public let name: String
    public let aliases: [String]
    public let summary: String
    public let details: String
    public let examples: [String]
    /// The values completion offers (empty: any).
    let values: @Sendable (Session) -> [String]
    /// Takes a value; returns a note to show, if any.
    let apply: @Sendable (SettingChange) throws -> String?
    let current: @Sendable (Session) -> String

    init(_ name: String, aliases: [String] = [], summary: String, details: String = "", examples: [String],
         values: @escaping @Sendable (Session) -> [String] = { _ in [] },
         apply: @escaping @Sendable (SettingChange) throws -> String?, current: @escaping @Sendable (Session) -> String) {
        self.name = name; self.aliases = aliases; self.summary = summary; self.details = details; self.examples = examples
        self.values = values; self.apply = apply; self.current = current
    }

    static let onOff: @Sendable (Session) -> [String] = { _ in ["on", "off"] }

    /// Width and height: a number, or auto to follow the terminal as it is resized.
    static func terminalSize(_ name: String, summary: String, details: String = "", examples: [String], values: [String],
                             range: ClosedRange<Int>, size: WritableKeyPath<Settings, Int> & Sendable,
                             follows: WritableKeyPath<Settings, Bool> & Sendable) -> SettingSpec {
        SettingSpec(name, summary: summary, details: details, examples: examples, values: { _ in values },
                    apply: { c in
                        if c.value.lowercased() == "auto" {
                            c.settings[keyPath: follows] = true
                            c.session.followTerminal(settings: &c.settings)
                        } else {
                            c.settings[keyPath: size] = try c.number(range)
                            c.settings[keyPath: follows] = false
                        }
                        return nil
                    },
                    current: { s in
                        let n = s.settings[keyPath: size]
                        return s.settings[keyPath: follows] && s.terminalSize != nil ? "auto (\(n))" : String(n)
                    })
    }
    static func onOff(_ b: Bool) -> String { b ? "on" : "off" }
}

public enum SettingsRegistry {
    public static let all: [SettingSpec] = [
        SettingSpec("output", aliases: ["format"], summary: "How results print: table, csv, tsv, json, ndjson or markdown.",
                    examples: ["set output csv", "set output table"],
                    values: { _ in OutputFormat.allCases.map(\.rawValue) },
                    apply: { c in
                        let names = OutputFormat.allCases.map(\.rawValue)
                        guard let f = OutputFormat.named(c.value) else {
                            throw Diagnostic("unknown output \"\(c.value)\"" + Suggest.didYouMean(c.value, among: names), at: c.span,
                                             hint: "choose one of: " + names.joined(separator: ", "))
                        }
                        c.settings.output = f
                        return nil
                    }, current: { $0.settings.output.rawValue }),
        SettingSpec("timezone", aliases: ["tz", "zone"], summary: "The current table's time zone; buckets follow it.",
                    details: "Times that were written with an offset keep their instant; times written without one keep their wall-clock reading.",
                    examples: ["set timezone Europe/Oslo"],
                    values: { _ in TimeZoneNames.all + ["UTC"] },
                    apply: { c in try c.session.setZone(c.value, span: c.span) },
                    current: { s in s.currentEntry?.schema.zone.identifier ?? s.defaultZone.identifier }),
        SettingSpec("time", summary: "The column that hour, day, every 15m … read.", examples: ["set time time"],
                    values: { s in s.currentEntry?.schema.fields.filter { $0.type == .timestamp || $0.type == .duration }.map(\.name) ?? [] },
                    apply: { c in try c.session.setTimeColumn(c.value, span: c.span) },
                    current: { s in s.currentEntry?.schema.timeColumn ?? "(none)" }),
        SettingSpec.terminalSize("width", summary: "The width results and charts are drawn to: a number of columns, or auto (the terminal's, as it is resized; the default).",
                     examples: ["set width 100", "set width auto"], values: ["auto", "80", "100", "140"], range: Settings.widthRange,
                     size: \.render.width, follows: \.widthFollowsTerminal),
        SettingSpec.terminalSize("height", summary: "The lines charts size their plots to: a number, or auto (the terminal's; LINES).",
                     details: "Column, line and histogram plots take about half of it; a map takes most of it.",
                     examples: ["set height 40"], values: ["auto", "24", "40"], range: Settings.heightRange,
                     size: \.render.height, follows: \.heightFollowsTerminal),
        SettingSpec("digits", aliases: ["decimals"],
                    summary: "Decimals shown for numbers in tables: a count from 0 to 12, or auto (as many as the values need).",
                    details: "Only what is shown changes: saved files and results reused as $n keep every digit.",
                    examples: ["set digits 2", "set digits auto"],
                    values: { _ in ["auto", "0", "1", "2", "3"] },
                    apply: { c in
                        if c.value.lowercased() == "auto" { c.settings.render.digits = nil; return nil }
                        c.settings.render.digits = try c.number(0...12)
                        return nil
                    }, current: { $0.settings.render.digits.map(String.init) ?? "auto" }),
        SettingSpec("timer", summary: "on: print how long each command took.", examples: ["set timer on", "set timer off"],
                    values: SettingSpec.onOff,
                    apply: { c in c.settings.timer = try c.flag(); return nil },
                    current: { SettingSpec.onOff($0.settings.timer) }),
        SettingSpec("maxrows", summary: "The most rows a result prints; longer ones show head and tail.", examples: ["set maxrows 60"],
                    apply: { c in c.settings.render.maxRows = try c.number(4...10_000_000); return nil },
                    current: { String($0.settings.render.maxRows) }),
        SettingSpec("charset", summary: "unicode (default) or ascii: the characters tables and charts are drawn with.",
                    examples: ["set charset ascii", "set charset unicode"],
                    values: { _ in ["unicode", "ascii"] },
                    apply: { c in
                        guard let charset = RenderOptions.Charset(rawValue: c.value.lowercased()) else {
                            throw Diagnostic("charset is unicode or ascii", at: c.span)
                        }
                        c.settings.render.charset = charset
                        return nil
                    }, current: { $0.settings.render.charset.rawValue }),
        SettingSpec("color", aliases: ["colour"],
                    summary: "on or off: colour in the terminal (on by default when the output is a terminal and NO_COLOR is not set).",
                    examples: ["set color off", "set color on"], values: SettingSpec.onOff,
                    apply: { c in c.settings.render.color = try c.flag(); return nil },
                    current: { SettingSpec.onOff($0.settings.render.color) }),
        SettingSpec("csv-safe", aliases: ["csvsafe"],
                    summary: "on: cells that start with = + - @ are written with a ' in CSV, so spreadsheets do not run them.",
                    examples: ["set csv-safe on", "set csv-safe off"], values: SettingSpec.onOff,
                    apply: { c in c.settings.csvSafe = try c.flag(); return nil },
                    current: { SettingSpec.onOff($0.settings.csvSafe) }),
        SettingSpec("pager", summary: "on or off: help taller than the window opens in a pager at the prompt ($PAGER, else less).",
                    details: "Only at the prompt, in a terminal: never in a pipe, a script, -c or a notebook. UTQ_PAGER=off starts with it off.",
                    examples: ["set pager off", "set pager on"], values: SettingSpec.onOff,
                    apply: { c in c.settings.pager = try c.flag(); return nil },
                    current: { SettingSpec.onOff($0.settings.pager) }),
        SettingSpec("memory-limit", aliases: ["memorylimit"],
                    summary: "The most memory a load or a database's result may take: a size such as 2GB, or auto (what the system has free).",
                    details: "A file whose columns would not fit is refused before anything is read, with a message that says how much it needs; a database's result that passes it stops, with the database's estimate of the whole.",
                    examples: ["set memory-limit 2GB", "set memory-limit auto"],
                    values: { _ in ["auto", "500MB", "2GB"] },
                    apply: { c in
                        if ["off", "auto", "free"].contains(c.value.lowercased()) {
                            c.settings.memoryLimit = nil
                            return "loads and results may take the memory that is free"
                        }
                        guard let bytes = MemoryBudget.parseSize(c.value) else {
                            throw Diagnostic("memory-limit is a size such as 500MB or 2GB, or auto", at: c.span)
                        }
                        c.settings.memoryLimit = bytes
                        return "loads and results may take up to \(MemoryBudget.describe(bytes))"
                    }, current: { $0.settings.memoryLimit.map(MemoryBudget.describe) ?? "auto" }),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func spec(_ word: String) -> SettingSpec? {
        let w = word.lowercased()
        return all.first { $0.name == w || $0.aliases.contains(w) }
    }

    /// `set` alone: every setting with its value.
    static func listing(_ session: Session) -> String {
        let width = all.map(\.name.count).max() ?? 0
        return "Settings (set NAME VALUE)\n" + all.map { s in
            "  " + s.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + s.current(session)
        }.joined(separator: "\n") + "\n"
    }
}

/// Zone names for suggestions.
enum TimeZoneNames {
    static let all: [String] = Foundation.TimeZone.knownTimeZoneIdentifiers
}

import Foundation
