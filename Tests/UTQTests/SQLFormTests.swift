import Foundation
import Testing
@testable import UTQCore

/// The SQL forms live in the registries beside each function, summary and bucket. These
/// tests list what has none (a new one without a form fails here until it is listed, so it
/// cannot run in memory on a database unnoticed), and hold the docs' column to the forms.
@Suite struct SQLFormTests {
    /// What runs in memory on a database, and why: each entry a decision, not an oversight.
    static let withoutSQL: Set<String> = [
        // functions
        "pow", "lower", "upper", "trim", "substr", "replace", "split", "extract", "parse_time", "clock_time",
        "wkt", "geojson", "polyline", "bearing", "cell",
        // summaries
        "circmean",
    ]

    static var functions: [(String, SQLForm)] { Functions.all.map { ($0.name, $0.sql) } }
    static var summaries: [(String, SQLForm)] { (AggregateFunction.plain + [.percentile(90)]).map { ($0 == .percentile(90) ? "pNN" : $0.name, $0.sql) } }
    static var buckets: [(String, SQLForm)] { TimeBuckets.all.map { ($0.bucket == nil ? "every" : $0.name, $0.sql) } }

    @Test func whatHasNoSQLFormIsListedAndSaysWhy() {
        let all = Self.functions + Self.summaries + Self.buckets
        let none = Set(all.filter { !$0.1.exists }.map(\.0))
        #expect(none == Self.withoutSQL, "without an SQL form: \(none.sorted()); listed: \(Self.withoutSQL.sorted())")
        for (name, form) in all where !form.exists {
            #expect(form.reason != nil, "\(name) has no SQL form and says not why")
        }
    }

    /// The docs' column "runs in the database" says no for exactly these.
    @Test func theDocsColumnMatchesTheForms() throws {
        let text = try String(contentsOfFile: Repo.path("docs/language.md"), encoding: .utf8)
        var said: Set<String> = []
        var rows = 0
        for section in ["functions", "summaries", "buckets"] {
            guard let a = text.range(of: "<!-- utq:\(section) -->\n"), let b = text.range(of: "<!-- /utq:\(section) -->") else {
                Issue.record("docs/language.md has no \(section) table"); continue
            }
            for line in text[a.upperBound..<b.lowerBound].split(separator: "\n").dropFirst(2) {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 4 else { continue }
                rows += 1
                // `round(x [, digits])`, `every 15m`, `pNN`: the name is the cell's first word.
                let name = String(cells[1].dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                if cells[cells.count - 2].hasPrefix("no") { said.insert(name) }
            }
        }
        #expect(rows == Self.functions.count + Self.summaries.count + Self.buckets.count, "rows read: \(rows)")
        #expect(said == Self.withoutSQL, "docs say no for \(said.sorted())")
    }

    /// Forms fill in their arguments, and give nil (with a reason) for types they do not take.
    @Test func formsWriteTheirArguments() throws {
        let abs = try #require(Functions.spec("abs")).sql
        #expect(abs.sql(SQLCall(arguments: ["\"x\""], types: [.int])) == "abs(\"x\")")
        let text = try #require(Functions.spec("text")).sql
        #expect(text.sql(SQLCall(arguments: ["\"t\""], types: [.timestamp])) == nil)
        let min = AggregateFunction.min.sql
        #expect(min.sql(SQLCall(arguments: ["\"legend\""], types: [.string])) == nil)
        #expect(min.reason(for: SQLCall(arguments: ["\"legend\""], types: [.string]))?.contains("natural order") == true)
        #expect(AggregateFunction.median.sql.sql(SQLCall(arguments: ["\"x\""], types: [.double], over: " OVER ()")) == nil)
        let hour = TimeBuckets.spec(.hour).sql
        #expect(hour.sql(SQLCall(arguments: ["\"t\""], types: [.timestamp], zone: "'Europe/Oslo'")) == "extract(hour FROM (\"t\" AT TIME ZONE 'Europe/Oslo'))::int8")
        // A service time's hour rounds down, also below zero.
        #expect(hour.sql(SQLCall(arguments: ["\"t\""], types: [.duration]))?.contains("-((-(\"t\" + 1)) / 3600000000) - 1") == true)
        #expect(TimeBuckets.spec(.weekday).sql.sql(SQLCall(arguments: ["\"t\""], types: [.duration])) == nil)
    }
}
