import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import UTQCore

/// `chart … to FILE`: SVG pictures and text drawings written whole, never over a file
/// by accident; and the verb's words: parsing, help and completion.
@Suite struct ChartFileTests {
    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-charts-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func market() throws -> Session {
        let s = makeSession()
        try s.load("load datasets/market.json")
        return s
    }

    /// Runs a line that must succeed; returns its outputs.
    @discardableResult
    func run(_ s: Session, _ line: String) throws -> [Output] {
        var outputs: [Output] = []
        var failure: Diagnostic? = nil
        s.run(line, name: "<test>") { _, outcome in
            outputs += outcome.outputs
            failure = outcome.error
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        return outputs
    }

    /// What an XML parser makes of a document: its elements, and the error if it is not well formed.
    final class Elements: NSObject, XMLParserDelegate {
        var names: [String] = []
        var texts: [String] = []
        var attributes: [[String: String]] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String]) {
            names.append(name)
            self.attributes.append(attributes)
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    func parse(_ path: String) throws -> Elements {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let parser = XMLParser(data: data)
        let elements = Elements()
        parser.delegate = elements
        let ok = parser.parse()
        #expect(ok, "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?")")
        return elements
    }

    @Test func barChartWritesAWellFormedSVG() throws {
        let s = try market()
        let dir = try folder()
        let path = dir + "/hours.svg"
        let outputs = try run(s, "count by hour | chart bar to \(path)")
        #expect(outputs.contains { if case .info(let t) = $0 { return t.contains("wrote chart bar") } else { return false } })
        let svg = try parse(path)
        #expect(svg.names.first == "svg")
        #expect(svg.attributes.first?["xmlns"] == "http://www.w3.org/2000/svg")
        // A title, a background and five bars; the hours and the totals as text.
        let hours = try s.table("count by hour")
        #expect(svg.names.filter { $0 == "rect" }.count >= 1 + hours.rowCount)
        let text = svg.texts.joined(separator: " ")
        #expect(text.contains("market: count by hour"))
        // A title names the filters the rows went through, each condition of an and alone.
        let filtered = dir + "/bikes.svg"
        _ = try run(s, "where legend = \"Bike\" and hour > 9 | count by hour | where count > 0 | chart bar to \(filtered)")
        #expect(try parse(filtered).texts.joined().contains("market where legend = \"Bike\" and hour(time) > 9 and count > 0: count by hour"))
        for (hour, count) in zip(hours.strings("hour"), hours.strings("count")) {
            #expect(text.contains(Int(hour)! < 10 ? "0" + hour : hour))
            #expect(text.contains(count))
        }
        // The widest bar is the 12 o'clock one.
        let bars = svg.attributes.filter { $0["fill"] == Palette.svg(0) }.compactMap { $0["width"].flatMap(Double.init) }
        #expect(bars.count == hours.rowCount)
        let widths = Dictionary(uniqueKeysWithValues: zip(hours.strings("hour"), bars))
        #expect(widths["12"] == bars.max())
    }

    @Test(arguments: ChartTests.everyKind)
    func everyKindWritesAnSVG(_ line: String) throws {
        let s = try market()
        let path = try folder() + "/chart.svg"
        try run(s, "\(line) to \(path)")
        let svg = try parse(path)
        #expect(svg.names.first == "svg")
        #expect(svg.names.count > 5)
    }

    @Test func anExistingFileIsKeptUnlessToBang() throws {
        let s = try market()
        let path = try folder() + "/hours.txt"
        try run(s, "count by hour | chart bar to \(path)")
        let first = try String(contentsOfFile: path, encoding: .utf8)
        // The text file holds the drawing as it prints.
        #expect(first == (try ChartTests().chart(s, "count by hour | chart bar")))
        let error = s.failure("count by legend | chart bar to \(path)")
        #expect(error?.message.contains("the file exists") == true)
        #expect(error?.hint?.contains("to! \(path)") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
        try run(s, "count by legend | chart bar to! \(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Walking"))
        try run(s, "count by hour | chart! bar to \(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
    }

    @Test func aFileNameMustSayWhatToWrite() throws {
        let s = try market()
        let error = s.failure("count by hour | chart bar to hours.png")
        #expect(error?.message.contains("cannot tell what to write") == true)
    }

    // MARK: words

    @Test func mistakesAreMessagesThatPointAtTheWord() throws {
        let s = try market()
        let kind = try #require(s.failure("count by hour | chart barr"))
        #expect(kind.message.contains("did you mean \"bar\""))
        let option = try #require(s.failure("count by hour | chart bar bins 4"))
        #expect(option.message == "bins is not an option of chart bar")
        let column = try #require(s.failure("chart hist angel"))
        #expect(column.message.contains("did you mean \"angle\""))
        #expect(column.span == SourceSpan(11, 16))
        let text = try #require(s.failure("chart hist legend"))
        #expect(text.message.contains("legend is text"))
        let keys = try #require(s.failure("count by hour | chart heatmap"))
        #expect(keys.message.contains("needs two keys"))
        let huge = try #require(s.failure("count by hour | chart bar top 99999999999999999999"))
        #expect(huge.message.contains("top is a whole number from 1 to"))
        let last = try #require(s.failure("count by hour | chart bar | sort count"))
        #expect(last.kind == .sinkNotLast(verb: "chart"))
    }

    @Test func helpExplainsEveryKind() throws {
        let text = try Help.text(for: "chart")
        for kind in ChartKind.allCases {
            #expect(text.contains(kind.usage))
        }
        for option in ChartOptions.specs { #expect(text.contains(option.usage)) }
        #expect(text.contains("to! FILE"))
        #expect(Help.overview().contains("chart"))
    }

    @Test func examplesRun() throws {
        let s = try market()
        for example in Verbs.spec(for: "chart")!.examples {
            #expect(throws: Never.self, "\(example)") { try ChartTests().chart(s, example) }
        }
    }

    @Test func theShellPrintsChartsOnStandardOutput() throws {
        let r = try runUTQ(["-c", "load datasets/market.json; count by hour | chart bar"], environment: ["COLUMNS": "60"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("hour  count\n"))
        #expect(r.stdout.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 60 })
        // Not a terminal: no colour, and the load summary goes to standard error.
        #expect(!r.stdout.contains("\u{1B}"))
        #expect(r.stderr.contains("market: 516 entries"))
    }

    /// Every line of a ```utq block in docs/charts.md draws on the market study.
    @Test func docsExamplesRun() throws {
        let doc = try String(contentsOfFile: Repo.path("docs/charts.md"), encoding: .utf8)
        var inBlock = false, lines: [String] = []
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock = line == "```utq"; continue }
            if inBlock && !line.isEmpty { lines.append(String(line)) }
        }
        #expect(lines.count >= 15)
        let s = try market()
        for line in lines {
            #expect(throws: Never.self, "\(line)") { try ChartTests().chart(s, line) }
        }
    }

    @Test func completionOffersKindsOptionsAndFiles() throws {
        let s = try market()
        #expect(s.complete("count by hour | chart ").candidates == ChartKind.allCases.map(\.rawValue).sorted())
        #expect(s.complete("count by hour | chart h").candidates == ["heatmap", "hist"])
        #expect(s.complete("count by hour | chart bar gr").candidates.contains("grouped"))
        #expect(s.complete("count by hour | chart bar to data").candidates == ["datasets/"])
    }
}
