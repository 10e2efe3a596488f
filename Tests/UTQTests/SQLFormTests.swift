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
        // geometry functions whose text PostGIS writes otherwise (len has a form: a geometry's length)
        "wkt", "geojson", "polyline",
        // summaries
        "circmean", "dissolve",
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

    /// Geometry forms: lng/lat through geography, a plane as it is; two spaces in one call, and
    /// a cell whose size is not one number above 0, have none and say why.
    @Test func geometryFormsFollowTheSpaceOfTheirArguments() throws {
        func call(_ args: [String], _ types: [DataType], _ spaces: [GeoSpace], constants: [Value?] = []) -> SQLCall {
            var c = SQLCall(arguments: args, types: types)
            c.spaces = spaces
            c.constants = constants
            return c
        }
        let length = try #require(Functions.spec("length")).sql
        #expect(length.sql(call(["g"], [.geometry], [.lnglat])) == "(ST_Length(g::geography) + ST_Perimeter(g::geography))")
        #expect(length.sql(call(["g"], [.geometry], [.plane])) == "(ST_Length(g) + ST_Perimeter(g))")
        let distance = try #require(Functions.spec("distance")).sql
        #expect(distance.sql(call(["a", "b"], [.geometry, .geometry], [.plane, .plane])) == "ST_Distance(a, b)")
        #expect(distance.sql(call(["a", "b"], [.geometry, .geometry], [.lnglat, .lnglat]))?.contains("ST_Distance(a::geography, b::geography)") == true)
        let mixed = call(["a", "b"], [.geometry, .geometry], [.lnglat, .plane])
        for name in ["distance", "within", "contains", "intersects", "bearing"] {
            let form = try #require(Functions.spec(name)).sql
            #expect(form.sql(mixed) == nil, "\(name)")
            #expect(form.reason(for: mixed)?.contains("lng/lat and the other on a plan") == true, "\(name)")
        }
        let cell = try #require(Functions.spec("cell")).sql
        #expect(cell.sql(call(["p", "s"], [.geometry, .double], [.lnglat, .lnglat], constants: [nil, nil])) == nil)
        #expect(cell.sql(call(["p", "0.001"], [.geometry, .double], [.lnglat, .lnglat], constants: [nil, .double(0.001)])) == nil)
        #expect(cell.sql(call(["p", "50"], [.geometry, .int], [.plane, .lnglat], constants: [nil, .int(50)]))?.contains("floor(ST_X(utq_p.p) / 50.0::float8)") == true)
        let geometry = try #require(Functions.spec("geometry")).sql
        #expect(geometry.sql(call(["t", "'plane'"], [.string, .string], [.lnglat, .lnglat], constants: [nil, .string("plane")]))?.contains("ST_GeomFromText(t, 0)") == true)
        #expect(geometry.sql(call(["t", "k"], [.string, .string], [.lnglat, .lnglat], constants: [nil, nil])) == nil)
    }
}
