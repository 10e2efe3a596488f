/// The tables of docs/language.md that list what the registries hold: verbs, functions,
/// settings, session commands and help topics. Each sits between `<!-- utq:NAME -->` and
/// `<!-- /utq:NAME -->`; a test checks the document against them (`UTQ_RECORD=1`
/// rewrites it), so the reference cannot drift from the language.
public enum ReferenceDocs {
    public static var sections: [(name: String, text: String)] {
        [("verbs", verbs), ("summaries", summaries), ("buckets", buckets), ("functions", functions), ("settings", settings),
         ("commands", commands), ("topics", topics)]
    }

    /// The document with every generated section made anew.
    public static func update(_ document: String) -> String {
        var text = document
        for (name, body) in sections {
            let open = "<!-- utq:\(name) -->\n", close = "<!-- /utq:\(name) -->"
            guard let a = text.range(of: open), let b = text.range(of: close, range: a.upperBound..<text.endIndex) else { continue }
            text.replaceSubrange(a.upperBound..<b.lowerBound, with: body)
        }
        return text
    }

    static var verbs: String {
        var out = "| verb | stands | does |\n|---|---|---|\n"
        for spec in Verbs.all {
            let also = spec.aliases.filter { $0 != "?" && $0 != "left" }
            let usage = cell(spec.usage.components(separatedBy: "   ").first ?? spec.usage)
            out += "| `\(usage)`" + (also.isEmpty ? "" : " (also " + also.map { "`\($0)`" }.joined(separator: ", ") + ")")
            // Transit verbs read a whole feed, so they come first, after its name.
            out += " | \(spec.category == .transit ? "first, after a feed" : role(spec.role)) | \(cell(spec.summary)) |\n"
        }
        return out
    }

    static func role(_ r: VerbRole) -> String {
        switch r {
        case .statement: return "alone on a line"
        case .source: return "first"
        case .stage: return "anywhere"
        case .sink: return "last"
        }
    }

    static var functions: String {
        var out = "| function | does | runs in the database |\n|---|---|---|\n"
        for f in Functions.all { out += "| `\(cell(f.usage))` | \(cell(f.summary)) | \(inDatabase(f.sql)) |\n" }
        return out
    }

    static var summaries: String {
        var out = "| summary | gives | runs in the database |\n|---|---|---|\n"
        for f in AggregateFunction.plain + [.percentile(90)] {
            let spec = Verbs.spec(for: f.name) ?? AggregateVerb.percentileSpec
            out += "| `\(f == .percentile(90) ? "pNN" : f.name)` | \(cell(spec.summary)) | \(inDatabase(f.sql)) |\n"
        }
        return out
    }

    static var buckets: String {
        var out = "| bucket | value | runs in the database |\n|---|---|---|\n"
        for b in TimeBuckets.all {
            let name = b.bucket == nil ? "every 15m" : b.name
            out += "| `\(name)`" + (b.aliases.isEmpty ? "" : " (also " + b.aliases.map { "`\($0)`" }.joined(separator: ", ") + ")")
                + " | \(cell(b.summary)) | \(inDatabase(b.sql)) |\n"
        }
        return out
    }

    /// Whether a form sends the call to the database: yes, or no and why.
    static func inDatabase(_ form: SQLForm) -> String {
        form.exists ? "yes" + (form.only.map { " " + cell($0) } ?? "") : "no" + (form.reason.map { ": " + cell($0) } ?? "")
    }

    static var settings: String {
        var out = "| setting | what it sets | for example |\n|---|---|---|\n"
        for s in SettingsRegistry.all {
            out += "| `\(s.name)` | \(cell(s.summary)) | " + s.examples.map { "`\(cell($0))`" }.joined(separator: ", ") + " |\n"
        }
        return out
    }

    static var commands: String {
        var out = "| command | does |\n|---|---|\n"
        for c in SessionCommands.all {
            let usage = c.usage.components(separatedBy: "   ").first ?? c.usage
            out += "| `\(cell(usage))`" + (c.bare ? " (or `\(c.name)` alone)" : "") + " | \(cell(c.summary)) |\n"
        }
        return out
    }

    /// The topics that are not a verb, function, bucket, setting, command or chart.
    static var topics: String {
        let general = HelpTopics.topics.map { "`help \($0.name)`" } + ["functions", "buckets", "settings", "commands", "charts", "tour"].map { "`help \($0)`" }
        return "Besides every verb, function, bucket, setting, session command (`help :save`) and kind of chart: "
            + general.joined(separator: ", ") + ".\n"
    }

    /// Text for a table cell: pipes escaped.
    static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
}

import Foundation
