import Foundation
import Testing
@testable import UTQCore

/// The binder on hand-made tables: names, types, buckets, coercions and the schemas the
/// summarising verbs produce. Each test parses one pipeline and binds it stage by stage.
@Suite struct BinderTests {
    static let oslo = ZoneRules.named("Europe/Oslo")!

    static let rides = Table(name: "rides", columns: [
        Column.timestamps("time", [Reference.micros(2017, 3, 23, 7, 15), Reference.micros(2017, 3, 23, 11, 30)]),
        Column.texts("legend", ["Bike", "Walking"]),
        Column.doubles("x", [1.5, 2.5]),
        Column.ints("n", [1, 2]),
        Column.durations("wait", [60_000_000, 120_000_000]),
        Column.bools("paid", [true, false]),
        Column.ints("driver_id", [1, 2]),
    ], zone: oslo, timeColumn: "time")

    static let users = Table(name: "users", columns: [
        Column.texts("id", ["1", "2", "3"]),
        Column.texts("name", ["Ann", "Bo", "Cy"]),
        Column.texts("legend", ["a", "b", "c"]),
    ])

    static let plain = Table(name: "plain", columns: [Column.texts("a", ["x"]), Column.durations("span", [1])])

    func bind(_ text: String, current: String = "rides") throws -> LogicalPlan {
        var catalog = Catalog()
        for t in [Self.rides, Self.users, Self.plain] { catalog.put(t) }
        let context = BindContext(catalog: catalog.schemas, results: [:], lastResult: nil, currentTable: current)
        let source = SourceText(name: "t", text: text)
        let command = Script.commands(in: source)[0]
        var parser = Parser(source: source, tokens: command.tokens)
        guard case .query(let p) = try parser.parseStatement() else { throw TestError(description: "not a pipeline") }
        let binder = Binder(context: context)
        var plan = try binder.source(p.source)
        for s in p.stages { plan = try binder.bind(s, input: plan) }
        return plan
    }

    /// The diagnostic binding gives, or nil when it binds; any other error is the test's failure.
    func failure(_ text: String, current: String = "rides") throws -> Diagnostic? {
        do { _ = try bind(text, current: current); return nil } catch let d as Diagnostic { return d }
    }

    func predicate(_ text: String) throws -> BoundExpr {
        guard let p = try bind(text).as(FilterNode.self)?.predicate else { throw TestError(description: "not a filter") }
        return p
    }

    func run(_ plan: LogicalPlan) throws -> Table {
        var catalog = Catalog()
        for t in [Self.rides, Self.users, Self.plain] { catalog.put(t) }
        return try plan.runInMemory(ExecutionContext(catalog: catalog))
    }

    // MARK: names

    @Test func unknownColumnWithSuggestionAndSpan() throws {
        let d = try failure("count by legnd")
        #expect(d?.message == "unknown column \"legnd\" — did you mean \"legend\"?")
        #expect(d?.span == SourceSpan(9, 14))
        #expect(d?.hint == nil)
        let far = try failure("where zzz > 1")
        #expect(far?.message == "unknown column \"zzz\"")
        #expect(far?.span == SourceSpan(6, 9))
        #expect(far?.hint == "the columns are: time, legend, x, n, wait, paid, driver_id")
        #expect(try failure("select lgend")?.message == "unknown column \"lgend\" — did you mean \"legend\"?")
        #expect(try failure("rename lgend as b")?.message == "unknown column \"lgend\" — did you mean \"legend\"?")
        #expect(try failure("sort X")?.message == nil)  // names are found regardless of case
    }

    @Test func unknownTablesAndResults() throws {
        #expect(try failure("ridez | count")?.message == "unknown table \"ridez\" — did you mean \"rides\"?")
        #expect(try failure("$4 | count")?.message == "there is no result $4")
        #expect(try failure("_ | count")?.message == "there is no result yet for _ to stand for")
        #expect(try failure("join nobody on id")?.message == "unknown table \"nobody\"")
        // A shell's `clear` at the prompt: how to clear the screen, not the list of tables.
        #expect(try failure("clear")?.hint == "Ctrl-L clears the screen; :clear forgets the numbered results [1], [2], …")
        #expect(try failure("nobody")?.hint?.hasPrefix("tables: ") == true)
    }

    @Test func aColumnOfAnotherTableSaysWhose() throws {
        // A line that starts with a verb reads the current table; the name is another's.
        func whole(_ text: String, current: String) throws -> Diagnostic? {
            var catalog = Catalog()
            for t in [Self.rides, Self.users, Self.plain] { catalog.put(t) }
            let context = BindContext(catalog: catalog.schemas, results: [:], lastResult: nil, currentTable: current)
            let source = SourceText(name: "t", text: text)
            var parser = Parser(source: source, tokens: Script.commands(in: source)[0].tokens)
            guard case .query(let p) = try parser.parseStatement() else { throw TestError(description: "not a pipeline") }
            do { _ = try Binder(context: context).bind(p); return nil } catch let d as Diagnostic { return d }
        }
        let d = try whole("count by driver_id", current: "plain")
        #expect(d?.message == "unknown column \"driver_id\"")
        #expect(d?.hint == "driver_id is a column of rides, not of plain (the current table); start the line with rides | to use it")
        #expect(d?.span == SourceSpan(9, 18))
        // Named tables and later stages keep the usual message (the rows there are what the
        // user asked for), as does a name no table has.
        #expect(try whole("plain | count by driver_id", current: "plain")?.hint != d?.hint)
        #expect(try whole("count by a | where driver_id = 1", current: "plain")?.hint != d?.hint)
        #expect(try whole("count by nosuch", current: "plain")?.hint == "the columns are: a, span")
    }

    @Test func aJoinOnANameInNeitherTableListsEachSidesColumns() throws {
        // Either side of the condition: the key of the rows before join is not one of the
        // joined table's, so the hint keeps the two apart (a clashing name takes its prefix).
        for text in ["join users on nosuch = id", "join users on driver_id = nosuch"] {
            let d = try failure(text)
            #expect(d?.message == "unknown column \"nosuch\"")
            #expect(d?.hint == "the rows before join have time, legend, x, n, wait, paid, driver_id; users has id, name, users.legend")
        }
    }

    // MARK: types

    @Test func typeErrors() throws {
        let sum = try failure("sum legend")
        #expect(sum?.message == "sum needs numbers or durations, but legend is text")
        #expect(sum?.hint == "to count different values, write: count distinct legend")
        let eq = try failure("where legend = 5")
        #expect(eq?.message == "cannot compare legend (text) with 5 (integer)")
        #expect(eq?.hint == "legend is text; put the value in quotes")
        #expect(eq?.span == SourceSpan(6, 16))
        let gt = try failure("where x > \"abc\"")
        #expect(gt?.message == "cannot compare x (number) with \"abc\" (text)")
        #expect(gt?.hint == "x is a number; leave out the quotes")
        #expect(try failure("let y = legend * 2")?.message == "cannot compute * on legend (text) and 2 (integer)")
        #expect(try failure("let y = legend - legend")?.message == "cannot compute - on legend (text) and legend (text)")
        let time = try failure("let y = time * 2")
        #expect(time?.message == "cannot compute * on time (timestamp) and 2 (integer)")
        #expect(time?.hint == "times can be subtracted (giving a duration) or moved by a duration (time + 15m)")
        #expect(try failure("let y = time + time")?.message == "cannot compute + on time (timestamp) and time (timestamp)")
        #expect(try failure("where legend")?.message == "where needs a condition, but this is text")
        #expect(try failure("where x contains \"a\"")?.message == "contains works on text, but x is number")
        #expect(try failure("where legend contains 5")?.message == "contains needs text to look for, in quotes")
        #expect(try failure("where not x")?.message == "not needs a condition, but x is number")
        #expect(try failure("where x = null")?.message == "nothing equals null")
        #expect(try failure("where legend = \"a\" and x")?.message == "and joins conditions, but x is number")
        #expect(try failure("where wait > 5")?.message == "wait is a duration; write the number with a unit")
        #expect(try failure("where wait > \"soon\"")?.message == "\"soon\" is not a duration I can read")
        #expect(try failure("let y = -legend")?.message == "only numbers and durations can be negated, not text")
        #expect(try failure("avg legend")?.message == "avg needs numbers, durations or times, but legend is text")
        #expect(try failure("stddev time")?.message == "stddev needs numbers or durations, but time is timestamp")
        #expect(try failure("where paid = \"yes\"")?.message == "cannot compare paid (boolean) with \"yes\" (text)")
    }

    @Test func typesOfWellFormedExpressions() throws {
        func type(_ e: String) throws -> DataType {
            guard let items = try bind("let y = " + e).as(ProjectNode.self)?.items else { throw TestError(description: "not a project") }
            return items.last!.expr.type
        }
        #expect(try type("n + n") == .int)
        #expect(try type("n / n") == .double)  // integer division gives a number
        #expect(try type("n % 2") == .int)
        #expect(try type("n * x") == .double)
        #expect(try type("time - time") == .duration)
        #expect(try type("time + 15m") == .timestamp)
        #expect(try type("15m + time") == .timestamp)
        #expect(try type("wait * 2") == .duration)
        #expect(try type("wait / wait") == .double)
        #expect(try type("legend + \"!\"") == .string)
        #expect(try type("wait > 1m") == .bool)
        #expect(try type("n = 1.5") == .bool)
    }

    // MARK: buckets and times

    @Test func bucketNamesReadTheTimeColumn() throws {
        guard let summary = try bind("count by hour, weekday, day, every 15m").as(AggregateNode.self) else { Issue.record("aggregate"); return }
        let keys = summary.keys, schema = summary.schema
        let time = Self.rides.columnIndex("time")!
        for k in keys {
            guard case .bucket(_, .column(let i, _), let zone) = k.expr else { Issue.record("\(k.name) is not a bucket"); continue }
            #expect(i == time)
            #expect(zone === Self.oslo)
        }
        #expect(schema.names == ["hour", "weekday", "day", "time", "count"])
        #expect(schema.fields.map(\.type) == [.int, .string, .timestamp, .timestamp, .int])
        #expect(schema.fields[1].ordered)  // weekdays sort Monday first
        #expect(schema.fields.map(\.unit) == [.hour, .automatic, .day, .minute, .automatic])
        // A named column wins over the bucket name, and a bucket of another column is named after it.
        guard let s2 = try bind("where n > 0 | let hour = n | count by hour, hour(time)").as(AggregateNode.self)?.schema else { Issue.record("aggregate 2"); return }
        #expect(s2.names == ["hour", "hour_time", "count"])
    }

    @Test func bucketsWithoutATimeColumnSayWhatToDo() throws {
        let none = try failure("count by hour", current: "users")
        #expect(none?.message == "hour needs a time column, and this table has none")
        #expect(none?.hint == "load a file with dates and times, or name a column: hour(COLUMN)")
        #expect(none?.span == SourceSpan(9, 13))
        let durations = try failure("count by weekday", current: "plain")
        #expect(durations?.message == "weekday needs a time column, and this table has none")
        #expect(durations?.hint == "name one: weekday(span), or set time span")
        #expect(try failure("count by weekday(span)", current: "plain")?.message == "a duration has no weekday; weekday needs a timestamp column")
        #expect(try failure("count by hour(legend)")?.message == "hour needs a time, but this is text")
        #expect(try failure("count by every 15m of legend")?.message == "every needs a time, but this is text")
        #expect(try failure("count by hour(time, time)")?.message == "hour takes one time column, as in hour(dropped_off_at)")
        #expect(try failure("count by bucket(time)")?.message == "bucket takes a time column and a span, as in bucket(time, 15m)")
    }

    @Test func quotedTimesAreReadInTheTablesZone() throws {
        let local = try predicate("where time > \"2017-03-23 12:00\"")
        guard case .binary(.greater, .column, .literal(.timestamp(let t), .timestamp), .bool) = local else { Issue.record("\(local.describe)"); return }
        #expect(t == Reference.micros(2017, 3, 23, 12, 0, zone: "Europe/Oslo"))
        #expect(t == Reference.micros(2017, 3, 23, 11, 0))
        // A written offset wins; the value may stand on either side.
        let utc = try predicate("where \"23.03.2017 12:00Z\" <= time")
        guard case .binary(.lessEqual, .literal(.timestamp(let u), _), .column, _) = utc else { Issue.record("\(utc.describe)"); return }
        #expect(u == Reference.micros(2017, 3, 23, 12, 0))
        let between = try predicate("where time between \"2017-03-23 08:00\" and \"2017-03-23 09:00\"")
        #expect(between.describe == "((time >= 2017-03-23T07:00:00Z) and (time <= 2017-03-23T08:00:00Z))")
        let bad = try failure("where time > \"tomorrow\"")
        #expect(bad?.message == "\"tomorrow\" is not a time I can read")
        #expect(bad?.span == SourceSpan(13, 23))
        // And it selects the right rows: 08:15 and 12:30 local; only the second is after noon.
        let rows = try run(try bind("where time > \"2017-03-23 12:00\""))
        #expect(rows.strings("legend") == ["Walking"])
    }

    @Test func inListsAreCoercedToTheColumnsType() throws {
        guard case .inList(_, let numbers, false) = try predicate("where x in (1, 2.5)") else { Issue.record("numbers"); return }
        #expect(numbers == [.double(1), .double(2.5)])
        guard case .inList(_, let times, false) = try predicate("where time in (\"2017-03-23 08:15\", \"23/03/2017 12:30\")") else { Issue.record("times"); return }
        #expect(times == [.timestamp(Reference.micros(2017, 3, 23, 7, 15)), .timestamp(Reference.micros(2017, 3, 23, 11, 30))])
        guard case .inList(_, let spans, true) = try predicate("where wait not in (\"1 min\", \"0:02:00\")") else { Issue.record("durations"); return }
        #expect(spans == [.duration(60_000_000), .duration(120_000_000)])
        #expect(try failure("where legend in (legend)")?.message == "the list after in must hold values, not columns")
        #expect(try run(try bind("where time in (\"2017-03-23 08:15\")")).strings("legend") == ["Bike"])
        #expect(try run(try bind("where x in (1, 2.5)")).strings("legend") == ["Walking"])
    }

    // MARK: summaries

    @Test func aggregateNamesAndTypes() throws {
        let text = "count, avg x, sum n, sum wait, min time, max legend, median x, p90 n, stddev wait, count distinct legend, first legend, last time, count x, sum paid, avg time, avg n by legend, hour"
        guard let summary = try bind(text).as(AggregateNode.self) else { Issue.record("aggregate"); return }
        let aggs = summary.aggregates, schema = summary.schema
        #expect(schema.names == ["legend", "hour", "count", "avg_x", "sum_n", "sum_wait", "min_time", "max_legend", "median_x", "p90_n",
                                 "stddev_wait", "distinct_legend", "first_legend", "last_time", "count_x", "sum_paid", "avg_time", "avg_n"])
        #expect(schema.fields.map(\.type) == [.string, .int, .int, .double, .int, .duration, .timestamp, .string, .double, .double,
                                              .duration, .int, .string, .timestamp, .int, .int, .timestamp, .double])
        #expect(aggs.count == 16)
        #expect(schema.timeColumn == nil)  // no timestamp key
    }

    @Test func repeatedAndAliasedNames() throws {
        guard let s = try bind("count, count, avg x as mean, avg x by legend as kind").as(AggregateNode.self)?.schema else { Issue.record("aggregate"); return }
        #expect(s.names == ["kind", "count", "count_2", "mean", "avg_x"])
        guard let d = try bind("distinct legend, hour").as(AggregateNode.self)?.schema else { Issue.record("distinct"); return }
        #expect(d.names == ["legend", "hour"])
        #expect(d.fields.map(\.type) == [.string, .int])
        guard let e = try bind("count by every 1h").as(AggregateNode.self)?.schema else { Issue.record("every"); return }
        #expect(e.names == ["time", "count"])
        #expect(e.timeColumn == "time")
    }

    @Test func topWithoutByAfterASortKeepsThatOrder() throws {
        let top = try bind("sort legend desc | top 2")
        guard let limit = top.as(LimitNode.self), limit.count == 2, limit.offset == 0, let keys = limit.input.as(SortNode.self)?.keys else {
            Issue.record("sort | top"); return
        }
        #expect(keys.count == 1 && keys[0].descending)
        #expect(keys[0].expr.describe == "legend")
        // Without a sort: the largest of the last numeric column.
        let top1 = try bind("count by legend | top 1")
        guard let limit1 = top1.as(LimitNode.self), limit1.count == 1, let implied = limit1.input.as(SortNode.self)?.keys else { Issue.record("top"); return }
        // The sort is told only the first row is wanted.
        #expect(limit1.input.as(SortNode.self)?.wanted == 1)
        #expect(implied[0].expr.describe == "count" && implied[0].descending)
        #expect(try failure("select legend | top 1")?.message == "top needs a key when there is no numeric column")
        #expect(try run(try bind("sort legend desc | top 1")).strings("legend") == ["Walking"])
        #expect(try run(try bind("sort x | top 1")).strings("legend") == ["Bike"])
    }

    // MARK: joins

    @Test func joinKeysOfTextAndNumbersStillMatch() throws {
        let plan = try bind("join users on driver_id = id")
        guard let join = plan.as(JoinNode.self), join.kind == .inner else { Issue.record("join"); return }
        let lk = join.leftKeys, rk = join.rightKeys, rightColumns = join.rightColumns, schema = join.schema
        #expect(lk[0].type == .string && rk[0].type == .string)
        #expect(lk[0].describe == "text(driver_id)")
        // Different names: both kept; a clash takes the other table's name.
        #expect(rightColumns == [0, 1, 2])
        #expect(schema.names == ["time", "legend", "x", "n", "wait", "paid", "driver_id", "id", "name", "users.legend"])
        let t = try run(plan)
        #expect(t.strings("name") == ["Ann", "Bo"])
        #expect(t.strings("users.legend") == ["a", "b"])
        // Either side may be the text one.
        let back = try run(try bind("users | join rides on id = driver_id"))
        #expect(back.strings("name") == ["Ann", "Bo"])
        #expect(try failure("join users on time = id")?.message == "cannot match time (timestamp) with id (text)")
    }

    @Test func joinOnASharedNameKeepsOneKeyColumn() throws {
        guard let join = try bind("users | left join rides on legend").as(JoinNode.self), join.kind == .left else { Issue.record("join"); return }
        let rightColumns = join.rightColumns, schema = join.schema
        #expect(!rightColumns.contains(Self.rides.columnIndex("legend")!))
        #expect(schema.names.filter { $0.lowercased().hasSuffix("legend") } == ["legend"])
    }

    @Test func numbersOfTwoTypesMatchAsNumbers() throws {
        let other = Table(name: "sizes", columns: [Column.doubles("n", [1.0, 2.0]), Column.texts("label", ["one", "two"])])
        var catalog = Catalog()
        catalog.put(Self.rides); catalog.put(other)
        let context = BindContext(catalog: catalog.schemas, results: [:], lastResult: nil, currentTable: "rides")
        let source = SourceText(name: "t", text: "join sizes on n")
        var parser = Parser(source: source, tokens: Script.commands(in: source)[0].tokens)
        guard case .query(let p) = try parser.parseStatement() else { Issue.record("parse"); return }
        let binder = Binder(context: context)
        let plan = try binder.bind(p.stages[0], input: try binder.source(p.source))
        guard let join = plan.as(JoinNode.self) else { Issue.record("join"); return }
        #expect(join.leftKeys[0].type == .double && join.rightKeys[0].type == .double)
        #expect(try plan.runInMemory(ExecutionContext(catalog: catalog)).strings("label") == ["one", "two"])
    }

    // MARK: other stages

    @Test func renamingTheTimeColumnKeepsItTheTimeColumn() throws {
        let plan = try bind("rename time as seen")
        #expect(plan.schema.timeColumn == "seen")
        guard let keys = try bind("rename time as seen | count by hour").as(AggregateNode.self)?.keys else { Issue.record("aggregate"); return }
        guard case .bucket(.hour, .column(let i, _), _) = keys[0].expr else { Issue.record("bucket"); return }
        #expect(i == 0)
    }

    @Test func selectKeepsDropsAndComputes() throws {
        #expect(try bind("select legend, y = x * 2, n as count").schema.names == ["legend", "y", "count"])
        #expect(try bind("select -wait, -paid").schema.names == ["time", "legend", "x", "n", "driver_id"])
        #expect(try bind("select *, z = 1").schema.names == ["time", "legend", "x", "n", "wait", "paid", "driver_id", "z"])
        #expect(try bind("select round(x)").schema.names == ["round_x"])
        #expect(try bind("let x = n * 10").schema.names == ["time", "legend", "x", "n", "wait", "paid", "driver_id"])
        #expect(try bind("let x = n * 10").schema.fields[2].type == .int)
    }

    func fill(_ text: String) throws -> FillSpec {
        guard let spec = try bind(text).as(FillNode.self)?.spec else { throw TestError(description: "not a fill: \(text)") }
        return spec
    }

    @Test func fillNeedsATimeOrNumberKey() throws {
        let hour = try fill("count by hour | fill")
        #expect(hour.key == 0 && hour.step == .integer && hour.zeroColumns == [1] && hour.otherKeys.isEmpty)
        let every = try fill("count by legend, every 15m | fill")
        #expect(every.key == 1 && every.step == .micros(900_000_000) && every.otherKeys == [0] && every.zeroColumns == [2])
        #expect(try fill("count by month | fill").step == .months(1))
        #expect(try fill("count by day | fill").step == .micros(86_400_000_000))
        #expect(try fill("count by minute | fill 5m").step == .micros(300_000_000))
        // Only counts and sums are zero in the rows fill adds; an average of nothing is null.
        #expect(try fill("avg x, sum n, count by hour | fill").zeroColumns == [2, 3])
        #expect(try failure("count by weekday | fill")?.message == "fill cannot tell the span between weekday values")
        // A summary whose keys hold no time or number has nothing to fill; its counts are not a key.
        #expect(try failure("count by legend | fill")?.message == "fill needs a time or number key to fill between")
    }
}
