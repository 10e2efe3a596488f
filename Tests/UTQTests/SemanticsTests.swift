import Foundation
import Testing
@testable import UTQCore

/// The Semantics section of docs/language.md, row by row, and the cases the differential
/// oracle found: the mean of rows in any order, `in` with a null, buckets compared with the
/// text they show, and a total order of text.
@Suite struct SemanticsTests {
    /// Every `| `EXPRESSION` | `RESULT` |` row under "## Semantics".
    static func rows() throws -> [(String, String)] {
        let text = try String(contentsOfFile: Repo.path("docs/language.md"), encoding: .utf8)
        guard let start = text.range(of: "## Semantics") else { return [] }
        var out: [(String, String)] = []
        for line in text[start.upperBound...].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0].hasPrefix("`"), cells[1].hasPrefix("`") else { continue }
            out.append((String(cells[0].dropFirst().dropLast()), String(cells[1].dropFirst().dropLast())))
        }
        return out
    }

    @Test func everyStatementOfTheSemanticsSectionHolds() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 30)
        let s = makeSession()
        s.workspace.put([Table(name: "one", columns: [Column.ints("n", [1])])], makeCurrent: true)
        for (expression, expected) in rows {
            var shown = ""
            s.run("select r = \(expression)", name: "<semantics>") { _, outcome in
                if let e = outcome.error { shown = "error: " + e.message }
                for case .table(let r) in outcome.outputs {
                    let c = r.table.columns[0]
                    shown = c.isValid(0) ? CellFormat(c, zone: .utc, nullText: "null", rows: [0]).text(0) : "null"
                }
            }
            #expect(shown == expected, "\(expression): gives \(shown), the docs say \(expected)")
        }
    }

    @Test func theMeanDoesNotDependOnTheOrderOfTheRows() throws {
        for order in [[184.0, 1e15, -1e15], [1e15, -1e15, 184], [1e15, 184, -1e15]] {
            let t = Table(name: "t", columns: [Column.doubles("x", order)])
            let s = makeSession()
            s.workspace.put([t], makeCurrent: true)
            let avg = try s.table("avg x").values("avg_x")
            #expect(avg == [.double(184.0 / 3)], "\(order)")
        }
        let s = makeSession()
        s.workspace.put([Table(name: "t", columns: [Column.ints("x", [1, 2, 3, 4])])], makeCurrent: true)
        #expect(try s.table("median x, p90 x, p25 x").values("median_x") == [.double(2.5)])
        #expect(try s.table("p90 x").values("p90_x") == [.double(3.7)])
    }

    @Test func inWithANullIsUnknown() throws {
        let s = makeSession()
        s.workspace.put([Table(name: "t", columns: [Column.ints("k", [1, 5, nil])])], makeCurrent: true)
        #expect(try s.table("where k in (1, null)").strings("k") == ["1"])
        #expect(try s.table("where not (k in (1, null)) | count").strings("count") == ["0"])
        #expect(try s.table("where k not in (1, null) | count").strings("count") == ["0"])
        #expect(try s.table("let v = k in (1, null)").strings("v") == ["true", "null", "null"])
    }

    @Test func bucketsCompareWithTheTextTheyShow() throws {
        let s = makeSession()
        #expect(s.run("load datasets/rides.csv").isEmpty)
        let march = try s.table("where month(requested_at) = \"2020-03\" | count").strings("count")
        #expect(march == (try s.table("let m = month(requested_at) | where m = \"2020-03\" | count").strings("count")))
        #expect(march != ["0"])
        let week = try s.table("where week(requested_at) = \"2020-W10\" | count").strings("count")
        #expect(week == (try s.table("where requested_at >= \"2020-03-02\" and requested_at < \"2020-03-09\" | count").strings("count")))
        #expect(try s.table("where weekday(requested_at) = \"Sat\" | count by weekday(requested_at)").strings("weekday") == ["Sat"])
        #expect(s.failure("where month(requested_at) = \"2020-13\"")?.message == "\"2020-13\" is not a time I can read")
    }

    @Test func textHasATotalOrder() throws {
        let s = makeSession()
        s.workspace.put([Table(name: "t", columns: [Column.texts("w", ["abc", "ABC", "Abc", "abd", "Line 10", "Line 2"])])], makeCurrent: true)
        // Of two different texts exactly one is less; equal ones are the same text.
        for (a, b) in [("ABC", "abc"), ("Abc", "abc"), ("ABC", "Abc"), ("abc", "abd")] {
            let less = try s.table("where w = \"\(a)\" | let r = w < \"\(b)\", g = w > \"\(b)\", e = w = \"\(b)\"")
            #expect(less.strings("r") == ["true"] && less.strings("g") == ["false"] && less.strings("e") == ["false"], "\(a) < \(b)")
        }
        #expect(try s.table("sort w").strings("w") == ["ABC", "Abc", "abc", "abd", "Line 2", "Line 10"])
        #expect(try s.table("min w, max w").strings("min_w") == ["ABC"])
        #expect(try s.table("where w between \"abc\" and \"abd\" | sort w").strings("w") == ["abc", "abd"])
    }
}
