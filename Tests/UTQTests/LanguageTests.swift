import Foundation
import Testing
@testable import UTQCore

/// Language: the lexer, how a script is cut into commands, and the parser's shapes for
/// every verb in the registry, with errors and their spans.
@Suite struct LexerTests {
    func kinds(_ text: String) throws -> [Token.Kind] {
        try Lexer.tokenize(SourceText(name: "t", text: text)).map(\.kind)
    }

    func ident(_ s: String) -> Token.Kind { .identifier(s, quoted: false) }

    @Test func countByLegendHour() throws {
        let tokens = try Lexer.tokenize(SourceText(name: "t", text: "count by legend, hour"))
        #expect(tokens.map(\.kind) == [ident("count"), ident("by"), ident("legend"), .symbol(.comma), ident("hour"), .end])
        #expect(tokens.map(\.span) == [SourceSpan(0, 5), SourceSpan(6, 8), SourceSpan(9, 15), SourceSpan(15, 16), SourceSpan(17, 21), SourceSpan(21, 21)])
        #expect(tokens.map(\.spaceBefore) == [false, true, true, false, true, false])
    }

    @Test func durations() throws {
        let minute: Int64 = 60_000_000
        #expect(try kinds("15m") == [.duration(15 * minute), .end])
        #expect(try kinds("1h") == [.duration(60 * minute), .end])
        #expect(try kinds("30s 2d 1w 500ms 90min 2sec") == [.duration(30_000_000), .duration(2 * 1440 * minute), .duration(7 * 1440 * minute),
                                                          .duration(500_000), .duration(90 * minute), .duration(2_000_000), .end])
        #expect(try kinds("1.5h") == [.duration(90 * minute), .end])
        #expect(try kinds("1H") == [.duration(60 * minute), .end])
        // A space, or a word that is not a unit, leaves a number.
        #expect(try kinds("15 m") == [.integer(15), ident("m"), .end])
        #expect(try kinds("15mx") == [.integer(15), ident("mx"), .end])
    }

    @Test func numbers() throws {
        #expect(try kinds("42 3.25 .5 1e3 2.5E-2") == [.integer(42), .number(3.25), .number(0.5),
                                                    .number(1000), .number(0.025), .end])
        // A dot not followed by a digit ends the number.
        #expect(try kinds("3.x") == [.integer(3), .symbol(.dot), ident("x"), .end])
        #expect(try kinds("-4") == [.symbol(.minus), .integer(4), .end])
    }

    @Test func strings() throws {
        #expect(try kinds(#""Bike""#) == [.string("Bike"), .end])
        #expect(try kinds(#"'Bike'"#) == [.string("Bike"), .end])
        #expect(try kinds(#""say ""hi""""#) == [.string(#"say "hi""#), .end])
        #expect(try kinds("'it''s'") == [.string("it's"), .end])
        #expect(try kinds(#""a\nb\tc\\d\"e""#) == [.string("a\nb\tc\\d\"e"), .end])
        #expect(try kinds(#""""#) == [.string(""), .end])
        #expect(try kinds(#""Café 😀""#) == [.string("Café 😀"), .end])
        #expect(try kinds(#""it's""#) == [.string("it's"), .end])
    }

    @Test func unclosedStringIsADiagnosticWithItsSpan() {
        let text = "where legend = \"Bike | count\ncount"
        do {
            _ = try Lexer.tokenize(SourceText(name: "t", text: text))
            Issue.record("no error")
        } catch let d as Diagnostic {
            #expect(d.message == "this text is not closed")
            // From the opening quote to the end of its line.
            let open = text.utf8.firstIndex(of: UInt8(ascii: "\""))!
            let lineEnd = text.utf8.firstIndex(of: 0x0A)!
            #expect(d.span == SourceSpan(text.utf8.distance(from: text.utf8.startIndex, to: open), text.utf8.distance(from: text.utf8.startIndex, to: lineEnd)))
        } catch { Issue.record("\(error)") }
    }

    @Test func namesInBackticksAndDottedNames() throws {
        #expect(try kinds("`time span` `count`") == [.identifier("time span", quoted: true), .identifier("count", quoted: true), .end])
        #expect(try kinds("position.x market.legends feed.stop_times.x2") == [ident("position.x"), ident("market.legends"), ident("feed.stop_times.x2"), .end])
        #expect(try kinds("a. b") == [ident("a"), .symbol(.dot), ident("b"), .end])
        #expect(try kinds("a.1") == [ident("a"), .number(0.1), .end])
        #expect(try kinds("Kjørehjelperen _x") == [ident("Kjørehjelperen"), ident("_x"), .end])
        #expect(throws: Diagnostic.self) { try kinds("`open") }
    }

    @Test func resultReferences() throws {
        #expect(try kinds("$3 | $12") == [.resultRef(3), .symbol(.pipe), .resultRef(12), .end])
        #expect(try kinds("$ x") == [.unknown("$"), ident("x"), .end])
        #expect(try kinds("_") == [ident("_"), .end])
    }

    @Test func symbolsLongestFirst() throws {
        #expect(try kinds("a<=b>=c!=d<>e==f<g>h=i") == [
            ident("a"), .symbol(.lessEqual), ident("b"), .symbol(.greaterEqual), ident("c"), .symbol(.notEqual), ident("d"),
            .symbol(.lessGreater), ident("e"), .symbol(.doubleEqual), ident("f"), .symbol(.less), ident("g"), .symbol(.greater),
            ident("h"), .symbol(.equal), ident("i"), .end,
        ])
        #expect(try kinds("(x)[y]+-*/%:!~") == [.symbol(.lparen), ident("x"), .symbol(.rparen), .symbol(.lbracket), ident("y"), .symbol(.rbracket),
                                              .symbol(.plus), .symbol(.minus), .symbol(.star), .symbol(.slash), .symbol(.percent),
                                              .symbol(.colon), .symbol(.bang), .symbol(.tilde), .end])
    }

    @Test func commentsNewlinesAndUnknownCharacters() throws {
        #expect(try kinds("count # how many\nsort") == [ident("count"), .newline, ident("sort"), .end])
        #expect(try kinds("# only a comment") == [.end])
        #expect(try kinds("a;b") == [ident("a"), .semicolon, ident("b"), .end])
        #expect(try kinds("a \\\n b") == [ident("a"), ident("b"), .end])  // backslash-newline joins lines
        #expect(try kinds("a\r\nb") == [ident("a"), .newline, ident("b"), .end])
        #expect(try kinds("@ ^ & {") == [.unknown("@"), .unknown("^"), .unknown("&"), .unknown("{"), .end])
        #expect(try kinds("? count") == [ident("?"), ident("count"), .end])  // help's other name
        // A "#" inside a string is text, not a comment.
        #expect(try kinds(##"where note = "#1""##) == [ident("where"), ident("note"), .symbol(.equal), .string("#1"), .end])
    }
}

@Suite struct ScriptTests {
    func commands(_ text: String) -> [String] {
        Script.commands(in: SourceText(name: "t", text: text)).map(\.text)
    }

    @Test func commandsEndAtSemicolonsAndLineBreaks() {
        #expect(commands("load a.csv; count") == ["load a.csv", "count"])
        #expect(commands("count\nwhere x = 1\n") == ["count", "where x = 1"])
        #expect(commands("count;;\n\n;count") == ["count", "count"])
        #expect(commands("") == [])
        #expect(commands("# nothing\n\n  # at all\n") == [])
        #expect(commands("count # first\n\n# between\ncount by hour # second") == ["count", "count by hour"])
    }

    @Test func pipelinesContinueOverLines() {
        // A trailing |, a leading |, a trailing comma, an open parenthesis.
        #expect(commands("where legend = \"Bike\" |\n  count by hour\ncount") == ["where legend = \"Bike\" |\n  count by hour", "count"])
        #expect(commands("count by legend\n| sort count desc\n  | top 3\ncount") == ["count by legend\n| sort count desc\n  | top 3", "count"])
        #expect(commands("count by legend,\n  hour") == ["count by legend,\n  hour"])
        #expect(commands("where hour in (8,\n 12\n)\ncount") == ["where hour in (8,\n 12\n)", "count"])
        #expect(commands("where (hour = 8\n or hour = 12)") == ["where (hour = 8\n or hour = 12)"])
        #expect(commands("count |\n\n# a comment\n  sort count") == ["count |\n\n# a comment\n  sort count"])
        // A line starting with | after a blank line still continues.
        #expect(commands("count by legend\n\n| sort count") == ["count by legend\n\n| sort count"])
    }

    @Test func linesAndSpansOfCommands() {
        let script = Script.commands(in: SourceText(name: "t", text: "load x.csv\n\ncount |\n sort count\nlimit 3"))
        #expect(script.map(\.line) == [1, 3, 5])
        #expect(script.allSatisfy { $0.tokens.last?.kind == .end })
        #expect(!script[1].tokens.contains { $0.kind == .newline })
    }

    @Test func anUnclosedStringSpoilsOnlyItsCommand() {
        let script = Script.commands(in: SourceText(name: "t", text: "where note = \"abc\ncount\nwhere x = 'y"))
        #expect(script.count == 3)
        #expect(script[0].lexError?.message == "this text is not closed")
        #expect(script[1].lexError == nil)
        #expect(script[1].text == "count")
        #expect(script[2].lexError != nil)
    }

    @Test func incompleteInput() {
        #expect(Script.isIncomplete("count by legend |"))
        #expect(Script.isIncomplete("count by legend |   # more to come"))
        #expect(Script.isIncomplete("count by legend,"))
        #expect(Script.isIncomplete("where hour in (8, 12"))
        #expect(Script.isIncomplete("where (hour = 8 or (hour = 9)"))
        #expect(!Script.isIncomplete("count by legend"))
        #expect(!Script.isIncomplete("where hour in (8, 12)"))
        #expect(!Script.isIncomplete(""))
        #expect(!Script.isIncomplete("count |; count"))
        #expect(!Script.isIncomplete("where x = \"abc"))
        #expect(Script.isIncomplete("count) |"))
    }
}

@Suite struct ParserTests {
    func statement(_ text: String) throws -> Statement {
        let source = SourceText(name: "t", text: text)
        let commands = Script.commands(in: source)
        guard commands.count == 1 else { throw TestError(description: "\(commands.count) commands in \(text)") }
        if let e = commands[0].lexError { throw e }
        var p = Parser(source: source, tokens: commands[0].tokens)
        return try p.parseStatement()
    }

    func pipeline(_ text: String) throws -> Pipeline {
        guard case .query(let p) = try statement(text) else { throw TestError(description: "not a pipeline: \(text)") }
        return p
    }

    /// The syntax of the last verb of a line (its sink, its last stage, or its command).
    func args<T: VerbSyntax>(_ text: String, as type: T.Type = T.self) throws -> T {
        let found: (any VerbSyntax)?
        switch try statement(text) {
        case .command(let stage): found = stage.syntax
        case .query(let p):
            if let sink = p.sink { found = sink.syntax }
            else if let last = p.stages.last { found = last.syntax }
            else if case .verb(let stage) = p.source { found = stage.syntax }
            else { found = nil }
        default: found = nil
        }
        guard let syntax = found as? T else { throw TestError(description: "\(text): not a \(T.self)") }
        return syntax
    }

    /// The diagnostic parsing gives, or nil when it parses; any other error fails the test.
    func error(_ text: String) throws -> Diagnostic? {
        do { _ = try statement(text); return nil } catch let d as Diagnostic { return d }
    }

    /// Expressions printed with explicit parentheses, to check precedence and shape.
    func show(_ e: Expr) -> String {
        switch e {
        case .column(let n, _): return n
        case .literal(let v, _):
            switch v {
            case .string(let s): return "\"\(s)\""
            case .duration(let d): return "\(d)us"
            case .null: return "null"
            default: return v.plainText
            }
        case .unary(let op, let x, _): return "(\(op == .not ? "not" : "-") \(show(x)))"
        case .binary(let op, let a, let b, _): return "(\(show(a)) \(op.rawValue) \(show(b)))"
        case .call(let f, let a, _): return "\(f)(" + a.map(show).joined(separator: ", ") + ")"
        case .inList(let x, let items, let neg, _): return "(\(show(x)) \(neg ? "not in" : "in") [" + items.map(show).joined(separator: ", ") + "])"
        case .isNull(let x, let neg, _): return "(\(show(x)) is \(neg ? "not " : "")null)"
        case .between(let x, let a, let b, let neg, _): return "(\(show(x)) \(neg ? "not " : "")between \(show(a)) and \(show(b)))"
        }
    }

    func filter(_ text: String) throws -> String {
        let e = try args("where " + text, as: WhereVerb.Syntax.self).condition
        return show(e)
    }

    @Test func expressionsAndPrecedence() throws {
        #expect(try filter("a = 1 or b = 2 and not c > 3") == "((a = 1) or ((b = 2) and (not (c > 3))))")
        #expect(try filter("x + 2 * y - 3 % 2 >= 4") == "(((x + (2 * y)) - (3 % 2)) >= 4)")
        #expect(try filter("-x < -2.5") == "((- x) < -2.5)")
        #expect(try filter("legend in (\"Bike\", 'Walking')") == "(legend in [\"Bike\", \"Walking\"])")
        #expect(try filter("legend not in (\"Bike\")") == "(legend not in [\"Bike\"])")
        #expect(try filter("hour between 12 and 16") == "(hour between 12 and 16)")
        #expect(try filter("hour not between 12 and 16") == "(hour not between 12 and 16)")
        #expect(try filter("angle is null") == "(angle is null)")
        #expect(try filter("angle is not null") == "(angle is not null)")
        #expect(try filter("note contains \"phone\"") == "(note contains \"phone\")")
        #expect(try filter("note not contains \"phone\"") == "(not (note contains \"phone\"))")
        #expect(try filter("note starts with \"A\" or note ends with \"z\"") == "((note starts with \"A\") or (note ends with \"z\"))")
        #expect(try filter("note ~ \"^[0-9]+$\"") == "(note matches \"^[0-9]+$\")")
        #expect(try filter("a == 1 and b <> 2 and c != 3") == "(((a = 1) and (b != 2)) and (c != 3))")
        #expect(try filter("hour(time) = 8 and round(x, 1) > 2") == "((hour(time) = 8) and (round(x, 1) > 2))")
        #expect(try filter("time > time - 15m") == "(time > (time - 900000000us))")
        #expect(try filter("!(a = true)") == "(not (a = true))")
        #expect(try filter("x = null") == "(x = null)")
        #expect(try filter("`time span` = 'x'") == "(time span = \"x\")")
    }

    @Test func everyVerbInTheRegistryParses() throws {
        // One line per verb and alias of the registry; the test fails when a verb is added without one.
        let lines: [String: String] = [
            "load": "load datasets/market.json as torget at a.b", "use": "use market", "tables": "tables",
            "describe": "describe market", "where": "where x > 1", "sort": "sort x desc", "top": "top 3 by x",
            "limit": "limit 5 offset 2", "distinct": "distinct legend, hour", "count": "count by legend",
            "sum": "sum x by legend", "avg": "avg x", "min": "min x", "max": "max x", "median": "median x",
            "stddev": "stddev x", "first": "first x", "last": "last x", "pNN": "p90 x by legend",
            "select": "select a, b as c, d = a * 2, -e, *", "let": "let y = x * 2", "rename": "rename a as b, c to d",
            "join": "join other on id", "fill": "fill 15m", "save": "save out.csv", "set": "set output csv",
            "help": "help count", "chart": "count | chart bar", "explain": "explain count by legend",
            "circmean": "circmean angle by legend", "union": "union other, $2", "pivot": "pivot hour values count",
            "unpivot": "unpivot a, b as k, v", "service": "feed | service on 2007-06-04",
            "headways": "feed | headways on 2007-06-04 between \"07:00\" and \"19:00\" by route_id",
            "span": "feed | span on 2007-06-04 by route_id", "peak": "feed | peak vehicles on 2007-06-04",
            "route": "feed | route stats by route_id, direction_id", "echo": "echo \"hello, world\"",
            "departures": "feed | departures on 2007-06-04 between \"07:00\" and \"09:00\"",
            "segments": "feed | segments on 2007-06-04 by route_id, every 15m",
            "travel": "feed | travel times from STAGECOACH, \"Nye County Airport\" at \"08:00\" on 2007-06-04 within 45m transfer 2m walk 300 m",
            "diff": "a | diff b from 2007-06-01 to 2007-06-30", "delays": "feed | delays rt on 2007-06-04 by route_id",
            "attach": "attach postgresql:///mobility?host=/tmp/pg as db",
            "corr": "corr(x, y) by legend", "covar": "covar x, y", "covar_pop": "covar_pop(x, y), count",
            "regr_slope": "regr_slope y, x by legend", "regr_intercept": "regr_intercept(y, x) as b", "regr_r2": "regr_r2(y, x)",
            "path": "sort time | path xy(x, y) by legend", "collect": "collect point(lng, lat), count by stop_id", "dissolve": "dissolve buffer(xy(x, y), 40) by legend",
        ]
        for spec in Verbs.all {
            guard let line = lines[spec.name] else { Issue.record("no parse test for \(spec.name)"); continue }
            #expect(try verb(of: line) == spec.name, "\(line)")
            // Aliases parse as the same verb.
            for alias in spec.aliases where alias != "?" {
                let rest = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                var aliased = spec.name == "join" ? "left join other on id" : alias + (rest.isEmpty ? "" : " " + rest)
                if spec.name == "chart" { aliased = "count | " + alias + " bar" }
                #expect(try verb(of: aliased) == spec.name, "\(aliased)")
            }
        }
    }

    /// The verb a line is about: its command, sink, last stage or source verb.
    func verb(of line: String) throws -> String? {
        switch try statement(line) {
        case .command(let stage): return stage.verb
        case .query(let p):
            if let sink = p.sink { return sink.verb }
            if let last = p.stages.last { return last.verb }
            if case .verb(let stage) = p.source { return stage.verb }
            return nil
        default: return nil
        }
    }

    @Test func shapesOfSourceAndOutputVerbs() throws {
        let load = try args("load datasets/market.json as torget at a.b", as: LoadVerb.Syntax.self)
        #expect(load.path == "datasets/market.json" && load.alias == "torget" && load.at == "a.b")
        let quoted = try args("load \"my data/x y.csv\"", as: LoadVerb.Syntax.self)
        #expect(quoted.path == "my data/x y.csv" && quoted.alias == nil && quoted.at == nil)
        #expect(try args("load ../data/my-file_2.2017.csv", as: LoadVerb.Syntax.self).path == "../data/my-file_2.2017.csv")
        #expect(try args("use market.legends", as: UseVerb.Syntax.self).table == "market.legends")
        _ = try args("tables", as: TablesVerb.Syntax.self)
        #expect(try args("describe", as: DescribeVerb.Syntax.self).table == nil)
        if case .table("rides", _) = try pipeline("describe rides").source {} else { Issue.record("describe TABLE starts from it") }
        for (text, replace) in [("count | save out.csv", false), ("count | save! out.csv", true), ("count | save out.csv force", true)] {
            let save = try args(text, as: SaveVerb.Syntax.self)
            #expect(save.request.path == "out.csv" && save.request.replace == replace, "\(text)")
        }
        let set = try args("set TimeZone Europe/Oslo", as: SetVerb.Syntax.self)
        #expect(set.name == "timezone" && set.value == "Europe/Oslo")
        #expect(try args("set timezone +05:30", as: SetVerb.Syntax.self).value == "+05:30")
        #expect(try args("set output", as: SetVerb.Syntax.self).value == nil)
        #expect(try args("set", as: SetVerb.Syntax.self).name == nil)
        #expect(try args("help", as: HelpVerb.Syntax.self).topic == nil)
        #expect(try args("help count", as: HelpVerb.Syntax.self).topic == "count")
        #expect(try args("fill", as: FillVerb.Syntax.self).step == nil)
        #expect(try args("fill 15m", as: FillVerb.Syntax.self).step == 900_000_000)
    }

    @Test func shapesOfRowVerbs() throws {
        let keys = try args("sort legend, time desc, x asc", as: SortVerb.Syntax.self).keys
        #expect(keys.map { show($0.expr) } == ["legend", "time", "x"])
        #expect(keys.map(\.descending) == [false, true, false])
        let byKeys = try args("sort by count desc", as: SortVerb.Syntax.self).keys
        #expect(byKeys.count == 1 && byKeys[0].descending)
        let top = try args("top 3 by x, y asc", as: TopVerb.Syntax.self)
        #expect(top.count == 3 && top.keys.map(\.descending) == [true, false])  // top N by K means the largest unless asc
        let none = try args("top 5", as: TopVerb.Syntax.self)
        #expect(none.count == 5 && none.keys.isEmpty)
        let limit = try args("limit 5", as: LimitVerb.Syntax.self)
        #expect(limit.count == 5 && limit.offset == 0)
        let offset = try args("limit 3 offset 10", as: LimitVerb.Syntax.self)
        #expect(offset.count == 3 && offset.offset == 10)
        #expect(try args("distinct legend, hour", as: DistinctVerb.Syntax.self).columns.map(show) == ["legend", "hour"])
    }

    @Test func shapesOfSummaries() throws {
        let summary = try args("avg angle as mean_angle, count distinct legend, count, p90 x by legend, hour(time) as h, every 15m", as: AggregateVerb.Syntax.self)
        let items = summary.items, keys = summary.keys
        #expect(items.map(\.function) == [.avg, .count, .count, .percentile(90)])
        #expect(items.map(\.distinct) == [false, true, false, false])
        #expect(items.map(\.alias) == ["mean_angle", nil, nil, nil])
        #expect(items.map { $0.argument.map(show) } == ["angle", "legend", nil, "x"])
        #expect(keys.count == 3)
        #expect(keys.map(\.alias) == [nil, "h", nil])
        if case .expr(let e) = keys[0].kind { #expect(show(e) == "legend") } else { Issue.record("key 0") }
        if case .expr(let e) = keys[1].kind { #expect(show(e) == "hour(time)") } else { Issue.record("key 1") }
        if case .every(let step, nil) = keys[2].kind { #expect(step == 900_000_000) } else { Issue.record("key 2") }
        let on = try args("count by every 1h of dropped_off_at as slot", as: AggregateVerb.Syntax.self).keys
        if case .every(3_600_000_000, let column?) = on[0].kind { #expect(show(column) == "dropped_off_at") } else { Issue.record("every of column") }
        #expect(on[0].alias == "slot")
        let mean = try args("mean x", as: AggregateVerb.Syntax.self)
        #expect(mean.items[0].function == .avg && mean.keys.isEmpty)
        // Every other word for a summary is also a verb.
        let total = try args("total x by legend", as: AggregateVerb.Syntax.self)
        #expect(total.items[0].function == .sum && total.keys.count == 1)
        #expect(try error("sum by legend")?.message == "sum needs a column, as in: sum x")
        #expect(try error("count by every 0m")?.message == "the span after every must be more than zero")
        #expect(try error("count by every hour")?.message == "expected a span after every, such as 15m, 1h or 1d")
    }

    @Test func shapesOfColumnVerbs() throws {
        let items = try args("select a, b as c, d = a * 2, -e, *", as: SelectVerb.Syntax.self).items
        #expect(items.count == 5)
        if case .expr(let e, nil) = items[0].kind { #expect(show(e) == "a") } else { Issue.record("item 0") }
        if case .expr(let e, "c") = items[1].kind { #expect(show(e) == "b") } else { Issue.record("item 1") }
        if case .expr(let e, "d") = items[2].kind { #expect(show(e) == "(a * 2)") } else { Issue.record("item 2") }
        if case .exclude("e") = items[3].kind {} else { Issue.record("item 3") }
        if case .all = items[4].kind {} else { Issue.record("item 4") }
        let d = try args("where x > 1 | let y = x * 2, z = y + 1", as: LetVerb.Syntax.self).assignments
        #expect(d.map(\.name) == ["y", "z"] && d.map { show($0.expr) } == ["(x * 2)", "(y + 1)"])
        let pairs = try args("rename a as b, c to d", as: RenameVerb.Syntax.self).pairs
        #expect(pairs.map(\.from) == ["a", "c"] && pairs.map(\.to) == ["b", "d"])
        let join = try args("join users on driver = username, day", as: JoinVerb.Syntax.self)
        guard case .table("users", _) = join.table, join.kind == .inner else { Issue.record("join"); return }
        #expect(join.conditions.map(show) == ["(driver = username)", "day"])
        let ranged = try args("join weather on time between start and end, stop_id", as: JoinVerb.Syntax.self)
        #expect(ranged.conditions.map(show) == ["(time between start and end)", "stop_id"])
        for text in ["left join w on hour", "left outer join w on hour"] {
            let left = try args(text, as: JoinVerb.Syntax.self)
            guard case .table("w", _) = left.table, left.kind == .left else { Issue.record("\(text)"); return }
        }
        guard case .result(2, _) = try args("join $2 on hour", as: JoinVerb.Syntax.self).table else { Issue.record("join $2"); return }
        guard case .last = try args("join _ on hour", as: JoinVerb.Syntax.self).table else { Issue.record("join _"); return }
    }

    @Test func sourcesOfPipelines() throws {
        if case .current = try pipeline("count").source {} else { Issue.record("current") }
        if case .table("rides", _) = try pipeline("rides | count").source {} else { Issue.record("table") }
        if case .table("market.legends", _) = try pipeline("market.legends").source {} else { Issue.record("bare table") }
        if case .result(3, _) = try pipeline("$3 | count").source {} else { Issue.record("$3") }
        if case .last = try pipeline("_ | sort count").source {} else { Issue.record("_") }
        #expect(try pipeline("$3").stages.isEmpty)
        #expect(try pipeline("`count` | limit 2").stages.count == 1)
        if case .table("count", _) = try pipeline("`count` | limit 2").source {} else { Issue.record("quoted table") }
    }

    @Test func letKeepsAPipelineOrAddsAColumn() throws {
        guard case .assign("busy", let p, _) = try statement("let busy = count by hour") else { Issue.record("assign"); return }
        #expect(p.stages.count == 1 && p.stages[0].verb == "count")
        guard case .assign("m", let q, _) = try statement("let m = market | where x > 1") else { Issue.record("assign table"); return }
        if case .table("market", _) = q.source {} else { Issue.record("source") }
        guard case .assign("r", _, _) = try statement("let r = $3") else { Issue.record("assign $3"); return }
        let d2 = try args("let x = a * 2", as: LetVerb.Syntax.self).assignments
        #expect(d2.count == 1 && d2[0].name == "x" && show(d2[0].expr) == "(a * 2)")
        // count * 2 is arithmetic on a column called count, not the verb.
        #expect(try args("let double = count * 2", as: LetVerb.Syntax.self).assignments.first?.name == "double")
    }

    @Test func sessionCommands() throws {
        guard case .session(let save, "lesson.utq", _) = try statement(":save lesson.utq"), save.name == "save" else { Issue.record(":save"); return }
        guard case .session(let replace, "lesson.utq", _) = try statement(":save! lesson.utq"), replace.name == "save!" else { Issue.record(":save!"); return }
        guard case .session(let history, nil, _) = try statement("history"), history.name == "history" else { Issue.record("history"); return }
        guard case .session(let quit, nil, _) = try statement("quit"), quit.name == "quit" else { Issue.record("quit"); return }
        guard case .session(let help, "count", _) = try statement(":help count"), help.name == "help" else { Issue.record(":help"); return }
        let d = try error(":sav x")
        #expect(d?.kind == .unknownSessionCommand("sav", suggestion: "save"))
        #expect(d?.message == "unknown session command :sav — did you mean \"save\"?")
        #expect(d?.span == SourceSpan(0, 4))
    }

    @Test func whereEachVerbStandsIsCheckedWhenParsing() throws {
        // A statement in a pipeline, a source after the start, anything after a sink.
        #expect(try error("count by legend | load datasets/market.json")?.kind == .statementInPipeline(verb: "load"))
        #expect(try error("count by legend | load datasets/market.json")?.span == SourceSpan(18, 22))
        #expect(try error("count | set output csv")?.kind == .statementInPipeline(verb: "set"))
        #expect(try error("count | tables")?.kind == .sourceNotFirst(verb: "tables"))
        #expect(try error("market | tables")?.kind == .sourceNotFirst(verb: "tables"))
        #expect(try error("count | save m.csv | limit 1")?.kind == .sinkNotLast(verb: "save"))
        #expect(try error("count | chart bar | save m.csv")?.kind == .sinkNotLast(verb: "chart"))
        #expect(try error("count | describe market")?.message == "describe TABLE starts a pipeline")
        // In their places they parse.
        #expect(try pipeline("tables | where rows > 1 | save t.csv").sink?.verb == "save")
        if case .verb(let stage) = try pipeline("tables | sort rows").source { #expect(stage.verb == "tables") } else { Issue.record("tables source") }
        guard case .command(let explain) = try statement("explain count | save m.csv"),
              let inner = (explain.syntax as? ExplainVerb.Syntax)?.pipeline else { Issue.record("explain"); return }
        #expect(inner.sink?.verb == "save" && inner.stages.count == 1)
    }

    @Test func errorsPointAtTheirWords() throws {
        let text = "count by legend | cont by hour"
        let d = try error(text)
        #expect(d?.message == "unknown verb \"cont\" — did you mean \"count\"?")
        #expect(d?.span == SourceSpan(18, 22))
        #expect(try error("srot x")?.message == "unknown verb \"srot\" — did you mean \"sort\"?")
        #expect(try error("frobnicate x")?.message == "unknown verb \"frobnicate\"")
        #expect(try error("frobnicate x")?.hint == "type help to list the verbs")
        // A word alone is a table name; the binder judges it.
        #expect(try error("frobnicate") == nil)
        let trailing = try error("count |")
        #expect(trailing?.message == "expected a verb after '|'")
        #expect(trailing?.span == SourceSpan(7, 7))
        let limit = try error("limit x")
        #expect(limit?.message == "expected how many rows (a whole number), found \"x\"")
        #expect(limit?.span == SourceSpan(6, 7))
        #expect(limit?.usage == LimitVerb.spec.usage)
        #expect(try error("limit -3")?.message == "expected how many rows (a whole number), found '-'")
        let extra = try error("where a = 1 b")
        #expect(extra?.message == "unexpected \"b\"")
        #expect(extra?.span == SourceSpan(12, 13))
        #expect(try error("where")?.message == "expected a value or a column name, found the end of the command")
        #expect(try error("where a = @")?.message == "unexpected character '@'")
        #expect(try error("where a in 1, 2")?.message == "expected '(' after in, as in: legend in (\"Bike\", \"Walking\"), found the number 1")
        #expect(try error("where a between 1 or 2")?.message == "expected and in between … and …")
        #expect(try error("where a is 5")?.message == "expected null after is, as in: angle is null")
        #expect(try error("rename a b")?.message == "expected as after the column name, as in: rename legend as behaviour")
        #expect(try error("join users")?.message == "expected on and the key, as in: join users on username")
        #expect(try error("set output") == nil)  // shows the setting
        #expect(try error("load")?.message == "expected a file name, found the end of the command")
        #expect(try error("load x.csv as")?.message == "expected a table name after as, found the end of the command")
        #expect(try error("count by legend hour")?.message == "unexpected \"hour\"")
        #expect(try error("where (a = 1")?.message == "expected ')', found the end of the command")
    }
}
