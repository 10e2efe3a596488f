import Foundation
import Testing
@testable import UTQCore

/// The session: numbered results, names, settings, saving, history, help and completion,
/// driven the way the REPL and scripts drive it.
@Suite struct SessionTests {
    /// A session on the market square, working in a folder of its own (with datasets/ linked
    /// in), so that files the tests save never land in the repository.
    static func market() throws -> (Session, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-session-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/datasets", withDestinationPath: Repo.path("datasets"))
        let s = Session(workingDirectory: dir, defaultZone: .utc)
        s.settings.render = RenderOptions(width: 100, maxRows: 40, charset: .unicode, color: false)
        #expect(s.failure("load datasets/market.json") == nil)
        return (s, dir)
    }

    /// Every output of a script, as (command, outcome) pairs.
    func outcomes(_ s: Session, _ text: String, keepGoing: Bool = false) -> [(String, CommandOutcome)] {
        var out: [(String, CommandOutcome)] = []
        s.run(text, name: "<test>", keepGoing: keepGoing) { out.append(($0.text, $1)) }
        return out
    }

    func infos(_ o: CommandOutcome) -> [String] { o.outputs.compactMap { if case .info(let s) = $0 { return s }; return nil } }
    func texts(_ o: CommandOutcome) -> [String] { o.outputs.compactMap { if case .text(let s) = $0 { return s }; return nil } }
    func numbers(_ o: CommandOutcome) -> [Int?] { o.outputs.compactMap { if case .table(let r) = $0 { return r.number }; return nil } }

    /// The market entries straight from the JSON file, for independent counts.
    static func entries() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.path("datasets/market.json")))
        let doc = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return doc["_entries"] as! [[String: Any]]
    }

    // MARK: results

    @Test func resultsAreNumberedAndReusable() throws {
        let (s, _) = try Self.market()
        let run = outcomes(s, "count by legend\ncount by hour\n$1 | sort count desc | limit 1\n_ | select legend")
        #expect(run.map { numbers($0.1) } == [[1], [2], [3], [4]])
        #expect(try s.table("$3").strings("legend") == ["Walking"])
        #expect(try s.table("_").strings("legend") == ["Walking"])  // _ was [4], now it is [5]
        #expect(try s.table("$2").strings("count") == ["36", "154", "145", "103", "78"])
        let missing = s.failure("$99 | count")
        #expect(missing?.message == "there is no result $99")
        #expect(missing?.hint == "results so far: $1, $2, $3, $4, $5, $6, $7")
        // A failing command makes no result and stops the script.
        let stopped = outcomes(s, "count; count by zzz; count")
        #expect(stopped.count == 2)
        #expect(stopped[1].1.error?.message == "unknown column \"zzz\"")
        let going = outcomes(s, "count; count by zzz; count", keepGoing: true)
        #expect(going.map { numbers($0.1) } == [[9], [], [10]])
    }

    @Test func letKeepsAPipelineAsATable() throws {
        let (s, _) = try Self.market()
        let run = outcomes(s, "let busy = count by hour")
        #expect(infos(run[0].1) == ["busy: kept as a table (5 rows)"])
        #expect(s.catalog.names.contains("busy"))
        #expect(s.currentTable == "market")  // the current table stays
        #expect(try s.table("busy | sort count desc | limit 1").strings("hour") == ["12"])
        #expect(try s.table("count").strings("count") == ["516"])
        // Kept tables join like loaded ones.
        #expect(try s.table("join busy on hour | rename count as in_hour | distinct hour, in_hour").strings("in_hour") == ["36", "154", "145", "103", "78"])
    }

    @Test func useSwitchesTheCurrentTable() throws {
        let (s, _) = try Self.market()
        let run = outcomes(s, "use market.legends")
        #expect(infos(run[0].1) == ["market.legends: 8 legends, 3 columns"])
        #expect(s.currentTable == "market.legends")
        #expect(try s.table("sort entries desc | limit 1").strings("legend") == ["Walking"])
        #expect(try s.table("use legends; count").strings("count") == ["8"])  // the last part of a name is enough
        #expect(s.failure("use markt")?.message == "unknown table \"markt\" — did you mean \"market\"?")
        #expect(s.failure("count | use market")?.message == "use is a command of its own; it cannot be part of a pipeline")
    }

    @Test func describeAndTablesAgreeWithTheFile() throws {
        let (s, _) = try Self.market()
        let entries = try Self.entries()
        let d = try s.table("describe")
        #expect(d.strings("column") == ["time (time)", "legend", "icon", "x", "y", "angle", "note", "tag"])
        #expect(d.strings("type") == ["timestamp", "text (ordered)", "integer", "number", "number", "number", "text", "integer"])
        let noDirection = entries.filter { ($0["_angleInDegrees"] as! NSNumber).doubleValue == 999 }.count
        let angle = d.row(5)
        #expect(angle["nulls"] == String(noDirection))
        #expect(angle["values"] == String(entries.count - noDirection))
        let legends = Set(entries.map { ($0["_legend"] as! [String: Any])["_name"] as! String })
        #expect(d.row(1)["distinct"] == String(legends.count))
        let xs = entries.map { (($0["_position"] as! [String: Any])["x"] as! NSNumber).doubleValue }
        #expect(Double(d.row(3)["min"]!) == xs.min())
        #expect(Double(d.row(3)["max"]!) == xs.max())
        let tables = try s.table("tables")
        #expect(tables.strings("table") == ["market", "market.legends"])
        #expect(tables.strings("rows") == ["516", "8"])
        #expect(tables.strings("current") == ["*", "null"])
        #expect(try s.table("where legend = \"Bike\" | describe").row(0)["values"] == "21")
    }

    // MARK: settings

    @Test func outputFormats() throws {
        let (s, _) = try Self.market()
        _ = outcomes(s, "set output csv")
        #expect(s.settings.output == .csv)
        let run = outcomes(s, "count by legend | limit 2")
        guard case .table(let r) = run[0].1.outputs[0] else { Issue.record("no table"); return }
        #expect(OutputText.text(.table(r), settings: s.settings) == "legend,count\nWalking,451\nBike,21\n")
        _ = outcomes(s, "set output md")
        #expect(s.settings.output == .markdown)
        let bad = s.failure("set output xml")
        #expect(bad?.message == "unknown output \"xml\"")
        #expect(bad?.hint == "choose one of: table, csv, tsv, json, ndjson, markdown, geojson")
        #expect(s.failure("set output tabel")?.message == "unknown output \"tabel\" — did you mean \"table\"?")
    }

    @Test func timezoneMovesBucketsButNotInstantsWrittenWithAnOffset() throws {
        let (s, _) = try Self.market()
        let before = try s.table("min time").values("min_time")
        let run = outcomes(s, "set timezone UTC")
        #expect(infos(run[0].1) == ["market: times in UTC"])
        #expect(try s.table("count by hour").strings("hour") == ["7", "11", "15", "18", "22"])
        #expect(try s.table("min time").values("min_time") == before)
        _ = outcomes(s, "set timezone Europe/Oslo")
        #expect(try s.table("count by hour").strings("hour") == ["8", "12", "16", "19", "23"])
        #expect(s.failure("set timezone Europe/Olso")?.message == "unknown time zone \"Europe/Olso\" — did you mean \"Europe/Oslo\"?")
    }

    @Test func timezoneKeepsTheWallClockOfTimesWrittenWithoutOne() throws {
        let path = try temporaryFile("session-floating.csv", "at,n\n2017-03-23 08:15,1\n2017-07-01 12:00,2\n")
        let s = makeSession()
        #expect(s.failure("load \(path) as rides") == nil)
        let utc = try s.table("select at").values("at")
        _ = outcomes(s, "set timezone Europe/Oslo")
        // The wall clock stays 08:15 and 12:00; the instants move by the offset of each date.
        #expect(try s.table("count by hour").strings("hour") == ["8", "12"])
        #expect(try s.table("select at").values("at") == [.timestamp(Reference.micros(2017, 3, 23, 8, 15, zone: "Europe/Oslo")),
                                                          .timestamp(Reference.micros(2017, 7, 1, 12, 0, zone: "Europe/Oslo"))])
        #expect(utc == [.timestamp(Reference.micros(2017, 3, 23, 8, 15)), .timestamp(Reference.micros(2017, 7, 1, 12))])
        // Without a table, the zone is for the next load.
        let fresh = makeSession()
        #expect(infos(outcomes(fresh, "set timezone +05:30")[0].1) == ["times without an offset will be read in +05:30"])
        #expect(fresh.defaultZone.identifier == "+05:30")
    }

    @Test func timeChoosesTheColumnBucketsRead() throws {
        let path = try temporaryFile("session-two-times.csv", "requested,dropped,who\n2017-03-23 08:00,2017-03-23 09:30,a\n2017-03-23 10:00,2017-03-23 13:10,b\n")
        let s = makeSession()
        #expect(s.failure("load \(path) as rides") == nil)
        #expect(try s.table("count by hour").strings("hour") == ["8", "10"])
        #expect(infos(outcomes(s, "set time dropped")[0].1) == ["rides: time buckets now read dropped"])
        #expect(try s.table("count by hour").strings("hour") == ["9", "13"])
        #expect(try s.table("count by hour(requested)").strings("hour") == ["8", "10"])
        #expect(s.failure("set time who")?.message == "who is text, not a time")
        #expect(s.failure("set time nope")?.message == "unknown column \"nope\"")
    }

    @Test func widthRowsTimerAndFlags() throws {
        let (s, _) = try Self.market()
        _ = outcomes(s, "set width 50; set maxrows 10; set charset ascii; set csv-safe on")
        #expect(s.settings.render.width == 50)
        #expect(s.settings.render.maxRows == 10)
        #expect(s.settings.render.charset == .ascii)
        #expect(s.settings.csvSafe)
        #expect(s.failure("set width 5")?.message == "width needs a whole number from 20 to 1000")
        #expect(s.failure("set maxrows lots")?.message == "maxrows needs a whole number from 4 to 10000000")
        #expect(s.failure("set timer maybe")?.message == "timer is on or off, not \"maybe\"")
        #expect(s.failure("set colour blue")?.message == "colour is on or off, not \"blue\"")
        #expect(s.failure("set widht 50")?.message == "unknown setting \"widht\" — did you mean \"width\"?")
        _ = outcomes(s, "set timer on")
        let timed = outcomes(s, "count")[0].1
        #expect(infos(timed).count == 1 && infos(timed)[0].hasPrefix("time: "))
        _ = outcomes(s, "set timer off")
        #expect(infos(outcomes(s, "count")[0].1).isEmpty)
    }

    // MARK: saving

    @Test func saveWritesByExtensionAndKeepsExistingFiles() throws {
        let (s, dir) = try Self.market()
        let result = try s.table("count by legend")
        for (ext, format) in [("csv", OutputFormat.csv), ("tsv", .tsv), ("json", .json), ("ndjson", .ndjson), ("md", .markdown), ("jsonl", .ndjson)] {
            let run = outcomes(s, "count by legend | save out.\(ext)")
            #expect(run[0].1.error == nil, "\(ext)")
            #expect(infos(run[0].1) == ["saved 7 rows to out.\(ext)"])
            let written = try Data(contentsOf: URL(fileURLWithPath: dir + "/out." + ext))
            #expect(Array(written) == TableWriter.bytes(result, format: format), "\(ext)")
        }
        // save makes no numbered result and ends the pipeline.
        #expect(numbers(outcomes(s, "count | save n.csv")[0].1).isEmpty)
        // Refused when parsed, before anything is written.
        #expect(s.failure("count | save m.csv | limit 1")?.kind == .sinkNotLast(verb: "save"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/m.csv"))
        // An existing file is kept unless save! replaces it.
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.csv"))
        let refused = s.failure("count | save out.csv")
        #expect(refused?.message == "cannot write out.csv: the file exists")
        #expect(refused?.hint == "write save! out.csv to replace it (or run utq with --force)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.csv")) == before)
        #expect(s.failure("count | save! out.csv") == nil)
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "count\n516\n")
        #expect(s.failure("count by hour | save out.csv force") == nil)
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8).hasPrefix("hour,count\n"))
        // Nothing half-written or temporary is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        #expect(s.failure("count | save out.xyz")?.message == "cannot tell the format of out.xyz from its name")
        #expect(s.failure("count | save nowhere/out.csv")?.message.hasPrefix("cannot write nowhere/out.csv: the folder ") == true)
        #expect(s.failure("count | save! datasets")?.message == "cannot tell the format of datasets from its name")
        try FileManager.default.createDirectory(atPath: dir + "/folder.csv", withIntermediateDirectories: false)
        #expect(s.failure("count | save! folder.csv")?.message == "cannot write folder.csv: it is a folder")
    }

    @Test func atomicFileReplacesWholeOrNotAtAll() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-atomic-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/a.txt"
        try AtomicFile.write(Array("one".utf8), to: path, replace: true)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Array("two".utf8), to: path, replace: false) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
        try AtomicFile.write(Array("three".utf8), to: path, replace: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "three")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.txt"])
    }

    @Test func saveSessionWritesTheCommandsThatWorked() throws {
        let (s, dir) = try Self.market()
        _ = outcomes(s, "count by legnd", keepGoing: true)
        _ = outcomes(s, "count by legend\nwhere legend = \"Bike\" |\n  count by hour\nhistory")
        let run = outcomes(s, ":save lesson.utq")
        #expect(infos(run[0].1) == ["saved 3 commands to lesson.utq"])
        let text = try String(contentsOfFile: dir + "/lesson.utq", encoding: .utf8)
        #expect(text == "# utq session\nload datasets/market.json\ncount by legend\nwhere legend = \"Bike\" |\n  count by hour\n")
        // The saved file runs again to the same results.
        let again = Session(workingDirectory: dir, defaultZone: .utc)
        var last: Table? = nil
        let errors = again.run(text, name: dir + "/lesson.utq") { _, o in for case .table(let r) in o.outputs { last = r.table } }
        #expect(errors.isEmpty)
        #expect(last?.strings("count") == (try s.table("where legend = \"Bike\" | count by hour")).strings("count"))
        #expect(s.failure(":save")?.message == ":save needs a file name, as in :save lesson.utq")
    }

    @Test func historyListsSuccessfulCommands() throws {
        let (s, _) = try Self.market()
        _ = outcomes(s, "count; count by nope", keepGoing: true)
        _ = outcomes(s, "count by hour")
        let run = outcomes(s, "history")
        #expect(texts(run[0].1) == ["   1  load datasets/market.json\n   2  count\n   3  count by hour\n"])
        #expect(s.history == ["load datasets/market.json", "count", "count by hour"])
        #expect(texts(outcomes(makeSession(), "history")[0].1) == ["(no commands yet)\n"])
        #expect(outcomes(s, "quit")[0].1.quit)
    }

    // MARK: help and examples

    @Test func helpForEveryVerbAndAlias() throws {
        let s = makeSession()
        for spec in Verbs.all {
            for name in [spec.name == "pNN" ? "p90" : spec.name] + spec.aliases {
                let run = outcomes(s, "help \(name)")
                #expect(run.first?.1.error == nil, "help \(name)")
                let text = texts(run.first!.1).joined()
                #expect(text.hasPrefix("\(spec.name) — \(spec.summary)"), "help \(name)")
                #expect(text.contains(spec.usage))
                for example in spec.examples { #expect(text.contains("  " + example)) }
            }
        }
        let overview = texts(outcomes(s, "help")[0].1).joined()
        for spec in Verbs.all { #expect(overview.contains("  " + spec.name)) }
        for topic in ["functions", "buckets", "settings", "syntax", "round", "hour", "timezone", "every"] {
            #expect(s.failure("help \(topic)") == nil, "help \(topic)")
        }
        #expect(s.failure("help cuont")?.message == "no help on \"cuont\" — did you mean \"count\"?")
        #expect(s.failure(":help count") == nil)
        // The registry lists ? as another name of help.
        #expect(s.failure("?") == nil)
        #expect(texts(outcomes(s, "? count")[0].1).joined().hasPrefix("count — "))
    }

    struct Example: CustomTestStringConvertible, Sendable {
        let owner: String
        let line: String
        var testDescription: String { "\(owner): \(line)" }
    }

    /// Every example help shows: verbs, functions, buckets, settings, kinds of chart and
    /// the general topics.
    /// attach's examples need a database server: PostgresTests runs them against one.
    static let examples: [Example] = Help.topics.filter { $0.topic != "attach" }.flatMap { t in t.examples.map { Example(owner: t.topic, line: $0) } }

    @Test(arguments: examples)
    func everyExampleRunsOnTheMarketSquare(_ example: Example) throws {
        let (s, _) = try Self.market()
        let run = outcomes(s, example.line)
        #expect(!run.isEmpty)
        for (command, outcome) in run {
            if let e = outcome.error { Issue.record("\(example.owner): \(command): \(DiagnosticRenderer.render(e, showLocation: true))") }
        }
    }

    // MARK: completion

    @Test func completionOfVerbsColumnsTablesFilesAndSettings() throws {
        let (s, _) = try Self.market()
        let legend = s.complete("count by leg")
        #expect(legend.candidates == ["legend"])
        #expect(legend.start == 9)
        #expect(s.complete("cou").candidates == ["count"])
        #expect(s.complete("co").candidates == ["collect", "corr", "count", "covar", "covar_pop", "covar_samp"])
        #expect(s.complete("").candidates.contains("where"))
        #expect(s.complete("m").candidates == ["market", "market.legends", "max", "mean", "median", "min"])
        #expect(s.complete("use m").candidates == ["market", "market.legends"])
        #expect(s.complete("describe market.").candidates == ["market.legends"])
        #expect(s.complete("join market.l").candidates == ["market.legends"])
        let files = s.complete("load datasets/market")
        #expect(files.candidates == ["datasets/market-export.csv", "datasets/market-weather.csv", "datasets/market-zones.csv", "datasets/market.json"])
        #expect(!files.appendSpace)
        #expect(s.complete("load datasets/market.json a").candidates == ["as", "at"])
        #expect(s.complete("set ti").candidates == ["time", "timer", "timezone"])
        #expect(s.complete("set output n").candidates == ["ndjson"])
        #expect(s.complete("set timezone Europe/Os").candidates == ["Europe/Oslo"])
        #expect(s.complete("sort x d").candidates.contains("desc"))
        #expect(s.complete("count | limit 1 | select a").candidates.contains("and") == false)
    }

    @Test func columnsAfterAPipeComeFromThePipelineSoFar() throws {
        let (s, _) = try Self.market()
        #expect(s.complete("count by legend | ").candidates.contains("count"))
        #expect(s.complete("count by legend | sort c").candidates.contains("count"))
        #expect(s.complete("avg angle by legend | sort av").candidates == ["avg_angle"])
        // angle is gone after the summary: only legend and count remain as columns.
        #expect(!s.complete("count by legend | where an").candidates.contains("angle"))
        #expect(s.complete("where legend = \"Bike\" | let speed = x / 2 | sort sp").candidates == ["speed", "split"])
        #expect(s.complete("market.legends | sort ent").candidates == ["entries"])
        #expect(s.complete("select legend, x | where an").candidates == ["and"])
    }

    @Test func namesThatNeedQuotingAreOfferedInBackticks() throws {
        let s = sessionWith(Table(name: "t", columns: [Column.ints("Angle in degrees", [1]), Column.ints("Angular", [2])]))
        #expect(s.complete("sort Ang").candidates == ["`Angle in degrees`", "Angular"])
    }
}

@Suite struct LetAmbiguityTests {
    @Test func letWithAWordThatIsNoTableAddsAColumn() throws {
        let s = makeSession()
        let t = try s.table("load datasets/market.json; let d = weekday | count by d")
        #expect(t.strings("d") == ["Thu"])
        let kept = try s.table("let busy = count by hour; busy | sort count desc | limit 1")
        #expect(kept.strings("hour") == ["12"])
    }
}

/// A script finds its files from the current folder, or beside it and in the folders above
/// it; when both have one, the current folder's is read and a note says so.
@Suite struct ScriptPathTests {
    @Test func aScriptFindsFilesBesideItOrAboveIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("utq-paths-\(getpid())").path
        try? FileManager.default.removeItem(atPath: root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for dir in ["project/datasets", "project/lessons", "elsewhere/datasets"] {
            try FileManager.default.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
        }
        try "a,b\n1,2\n".write(toFile: root + "/project/datasets/t.csv", atomically: true, encoding: .utf8)
        try "a,b\n1,2\n3,4\n".write(toFile: root + "/elsewhere/datasets/t.csv", atomically: true, encoding: .utf8)
        let script = "load datasets/t.csv as t\nt | count\n"
        // Run from the lessons folder: the project's datasets are two levels up from nothing,
        // one up from the script.
        let s = Session(workingDirectory: root + "/project/lessons", defaultZone: .utc)
        var counts: [String] = [], notes: [String] = []
        s.run(script, name: root + "/project/lessons/lesson.utq") { _, o in
            for output in o.outputs {
                if case .table(let r) = output { counts += r.table.strings("count") }
                if case .info(let n) = output { notes.append(n) }
            }
            #expect(o.error == nil)
        }
        #expect(counts == ["1"])
        #expect(!notes.contains { $0.contains("read from the current folder") })
        // From another folder with a file of the same name: that one, and a note.
        let other = Session(workingDirectory: root + "/elsewhere", defaultZone: .utc)
        counts = []; notes = []
        other.run(script, name: root + "/project/lessons/lesson.utq") { _, o in
            for output in o.outputs {
                if case .table(let r) = output { counts += r.table.strings("count") }
                if case .info(let n) = output { notes.append(n) }
            }
        }
        #expect(counts == ["2"])
        #expect(notes.first == "datasets/t.csv: read from the current folder; \(root)/project/datasets/t.csv is there too, beside the script")
    }
}

/// Width and height follow the terminal as it is resized, until a number is set; `set width
/// auto` follows it again.
@Suite struct TerminalSizeTests {
    final class Size: @unchecked Sendable { var width = 140 }

    func widest(_ s: Session, _ line: String) -> Int {
        var widest = 0
        s.run(line) { _, o in
            for case .chart(let c) in o.outputs { widest = max(widest, c.text.split(separator: "\n").map { TextWidth.of(String($0)) }.max() ?? 0) }
        }
        return widest
    }

    @Test func theNextChartFitsAResizedTerminal() throws {
        let (s, _) = try SessionTests.market()
        let size = Size()
        s.terminalSize = { (size.width, 40) }
        let chart = "count by every 10m | chart line"
        #expect(widest(s, chart) > 100 && widest(s, chart) <= 140)
        size.width = 60
        #expect(widest(s, chart) <= 60 && widest(s, chart) > 40)
        #expect(s.failure("set width 100") == nil)
        size.width = 140
        #expect(widest(s, chart) <= 100 && widest(s, chart) > 80)
        #expect(try Help.text(for: "width").contains("auto"))
        #expect(s.failure("set width auto") == nil)
        #expect(widest(s, chart) > 100)
        var shown = ""
        s.run("set width") { _, o in
            for output in o.outputs {
                if case .info(let t) = output { shown += t }
                if case .text(let t) = output { shown += t }
            }
        }
        #expect(shown.trimmingCharacters(in: .newlines) == "width auto (140)")
    }
}

/// A part of a path that reads like a huge duration (`1195E07D`, as temporary folders are
/// named) is a part of the path, not an error; as a value it is still refused.
@Suite struct PathTokenTests {
    @Test func aPathMayHoldWhatLooksLikeADuration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-1195E07D-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, _) = try SessionTests.market()
        #expect(s.failure("count by legend | save \(dir)/counts.csv") == nil)
        #expect(FileManager.default.fileExists(atPath: dir + "/counts.csv"))
        #expect(s.failure("where time > time + 1e300d | count")?.message == "the duration 1e300d is too long")
    }
}
