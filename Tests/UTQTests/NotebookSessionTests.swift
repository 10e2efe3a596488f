import Foundation
import Testing
@testable import UTQCore

/// A session used as a notebook: every result numbered and reusable (tables and charts),
/// named results, `:save` of a session as a script that runs again to the same results,
/// and `:record` of a session as a page.
@Suite struct NotebookSessionTests {
    func outcomes(_ s: Session, _ text: String, keepGoing: Bool = false) -> [CommandOutcome] {
        var out: [CommandOutcome] = []
        s.run(text, name: "<test>", keepGoing: keepGoing) { out.append($1) }
        return out
    }

    func charts(_ o: CommandOutcome) -> [ChartOutput] { o.outputs.compactMap { if case .chart(let c) = $0 { return c }; return nil } }
    func tables(_ o: CommandOutcome) -> [TableResult] { o.outputs.compactMap { if case .table(let r) = $0 { return r }; return nil } }
    func infos(_ o: CommandOutcome) -> [String] { o.outputs.compactMap { if case .info(let s) = $0 { return s }; return nil } }

    // MARK: numbered results

    @Test func theLastResultAndANumberedOneGiveTheCommonestLegend() throws {
        let (s, _) = try SessionTests.market()
        let first = outcomes(s, "count by legend")
        #expect(tables(first[0]).map(\.number) == [1])
        #expect(try s.table("_ | sort count desc | limit 1").strings("legend") == ["Walking"])
        #expect(try s.table("$1 | sort count desc | limit 1").strings("legend") == ["Walking"])
        #expect(try s.table("$1 | sort count desc | limit 1").strings("count") == ["451"])
        // _ is now the one-row result above, so sorting it again still gives Walking alone.
        #expect(try s.table("_ | sort count").strings("legend") == ["Walking"])
    }

    @Test func aChartIsANumberedResultThatRemembersItsKeys() throws {
        let (s, _) = try SessionTests.market()
        let run = outcomes(s, "count by legend\ncount by hour | chart bar")
        let chart = try #require(charts(run[1]).first)
        #expect(chart.number == 2)
        #expect(chart.rows == 5)
        #expect(chart.footer == "[2] bar chart of 5 rows")
        let text = OutputText.text(.chart(chart), settings: s.settings)
        #expect(text.hasSuffix("78\n[2] bar chart of 5 rows\n"))
        // $2 and _ are the rows the chart drew.
        #expect(try s.table("$2 | sort count desc | limit 1").strings("hour") == ["12"])
        #expect(s.lastResult == 3)
        // Drawn again from its number, the chart still knows hour is its key.
        let again = outcomes(s, "$2 | chart column")
        let column = try #require(charts(again[0]).first)
        #expect(column.number == 4)
        #expect(column.chart.kind == .column)
        #expect(column.text.contains("08"))
        #expect(s.results[4]?.groupKeys == ["hour"])
        // A chart written to a file is not a result, as save is not.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-chart-file-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let written = outcomes(s, "count by hour | chart bar to! \(dir)/busy.svg")
        #expect(charts(written[0]).isEmpty)
        #expect(s.lastResult == 4)
    }

    @Test func aNamedResultChartsByItsName() throws {
        let (s, _) = try SessionTests.market()
        let kept = outcomes(s, "let busy = count by hour")
        #expect(tables(kept[0]).map(\.number) == [1])
        #expect(infos(kept[0]) == ["busy: kept as a table (5 rows)"])
        let run = outcomes(s, "busy | chart bar")
        #expect(run[0].error == nil)
        let chart = try #require(charts(run[0]).first)
        #expect(chart.number == 2)
        #expect(chart.text.hasPrefix("hour  count\n  08  "))
        #expect(try s.table("busy | sort count desc | limit 1").strings("hour") == ["12"])
    }

    @Test func sessionCommandsComplete() throws {
        let (s, _) = try SessionTests.market()
        #expect(s.complete(":re").candidates == [":record"])
        #expect(s.complete(":").candidates == [":clear", ":help", ":history", ":lesson", ":quit", ":record", ":save"])
    }

    // MARK: :save

    @Test func saveRefusesToReplaceAFileUnlessTold() throws {
        let (s, dir) = try SessionTests.market()
        #expect(s.failure(":save lesson.utq") == nil)
        let before = try String(contentsOfFile: dir + "/lesson.utq", encoding: .utf8)
        _ = outcomes(s, "count by hour")
        let refused = s.failure(":save lesson.utq")
        #expect(refused?.message == "cannot write lesson.utq: the file exists")
        #expect(refused?.hint == "write :save! lesson.utq to replace it")
        #expect(try String(contentsOfFile: dir + "/lesson.utq", encoding: .utf8) == before)
        #expect(s.failure(":save! lesson.utq") == nil)
        #expect(try String(contentsOfFile: dir + "/lesson.utq", encoding: .utf8).hasSuffix("count by hour\n"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    /// Every result a script gives (tables as CSV, charts by their footer), in order.
    func results(_ s: Session, _ text: String, name: String) -> (results: [String], errors: [Diagnostic]) {
        var out: [String] = []
        let errors = s.run(text, name: name, keepGoing: true) { _, o in
            for output in o.outputs {
                if case .table(let r) = output { out.append("[\(r.number ?? 0)]\n" + TableWriter.text(r.table, format: .csv)) }
                if case .chart(let c) = output { out.append(c.footer ?? "") }
            }
        }
        return (out, errors)
    }

    @Test func aSavedSessionRunsAgainToTheSameResults() throws {
        let (s, dir) = try SessionTests.market()
        // As typed at the prompt: a mistake, results by number and by name, a chart, a
        // :clear that starts the numbers again, a second table and a join.
        let typed = results(s, """
        count by legend
        _ | sort count desc | limit 3
        count by nothing
        count by hour | chart bar
        $3 | sort count desc
        let busy = count by hour
        busy | where count > 100
        :clear
        where legend = "Bike" |
          count by hour
        $1 | chart column
        load datasets/market-weather.csv as weather
        market | join weather on hour | count by sky
        help count
        market | count by legend | save counts.csv
        market | count by hour | chart bar to hours.svg
        """, name: "<input>")
        #expect(typed.errors.map(\.message) == ["unknown column \"nothing\""])
        #expect(typed.results.contains("[4]\nhour,count\n12,154\n16,145\n19,103\n23,78\n8,36\n"))
        #expect(typed.results.contains("[1]\nhour,count\n8,5\n12,1\n16,13\n19,1\n23,1\n"))
        #expect(typed.results.contains("[2] column chart of 5 rows"))

        #expect(s.failure(":save session.utq") == nil)
        let script = try String(contentsOfFile: dir + "/session.utq", encoding: .utf8)
        #expect(!script.contains("nothing"))
        #expect(script.hasPrefix("# utq session\nload datasets/market.json\ncount by legend\n"))
        #expect(script.contains("\n:clear\n"))
        // Help changes nothing a script needs; files the session wrote are replaced on a rerun.
        #expect(!script.contains("help"))
        #expect(script.contains("\nmarket | count by legend | save! counts.csv\nmarket | count by hour | chart bar to! hours.svg\n"))

        // Run again in a new session, from the script's own folder: no error, and the same
        // results under the same numbers.
        let rerun = Session(workingDirectory: dir, defaultZone: .utc)
        rerun.settings.render = s.settings.render
        let again = results(rerun, script, name: dir + "/session.utq")
        #expect(again.errors.isEmpty)
        #expect(again.results == typed.results)
    }
}
