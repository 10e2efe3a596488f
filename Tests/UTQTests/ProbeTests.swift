import Foundation
import Testing
@testable import UTQCore

/// Binding reads no rows: what a step needs of the data (a pivot's columns, a feed's
/// calendar) it asks as a probe, which the interpreter runs through placement before binding
/// again, and explain shows without running.
@Suite struct ProbeTests {
    /// A session with the market loaded, and the same rows in a database that counts queries.
    func session() throws -> (Session, CountingDatabase) {
        let s = makeSession()
        try s.table("load datasets/market.json\ncount")
        let db = CountingDatabase(name: "fake", tables: [try #require(s.catalog.table("market"))])
        try s.attach(db)
        return (s, db)
    }

    @Test func explainShowsThePlanAndTheProbeAndRunsNothing() throws {
        let (s, db) = try session()
        let text = try s.explainText("fake.market | count by legend, hour | pivot hour")
        #expect(db.queries.isEmpty, "explain sent \(db.queries.count) queries")
        #expect(text.contains("pivot hour: a column for each value of hour, which probe 1 finds"), "\(text)")
        #expect(text.contains("aggregate count by legend, hour = hour(time)"), "\(text)")
        #expect(text.contains("a probe runs first (explain runs none):\n  1. the values of hour, for pivot's columns:\n"), "\(text)")
        #expect(text.contains("     └─ distinct hour "), "\(text)")
        // In memory too: the probe keeps its input's rows for the pivot.
        let memory = try s.explainText("count by legend, hour | pivot hour")
        #expect(memory.contains("└─ scan the rows probe 1 kept (3 columns)") && memory.contains("pivot then reads the rows kept"), "\(memory)")
        // Steps after the pivot wait for it, unbound, and explain says so.
        let after = try s.explainText("fake.market | count by legend, hour | pivot hour | select legend, `12`")
        #expect(after.contains("then, once the probes have answered: select legend, `12`"), "\(after)")
        #expect(db.queries.isEmpty)
    }

    @Test func runningRunsTheProbeThenThePlan() throws {
        let (s, db) = try session()
        let remote = try s.table("fake.market | count by legend, hour | pivot hour")
        #expect(db.queries.count == 2, "\(db.queries.map { PlanPrinter.text($0) })")
        #expect(db.queries.first?.is(AggregateNode.self) == true)
        let local = try s.table("market | count by legend, hour | pivot hour")
        #expect(tableDifference(remote, local) == nil)
        #expect(remote.columnNames == ["legend", "8", "12", "16", "19", "23"])
        // A step after the pivot is bound once its columns are known.
        #expect(try s.table("fake.market | count by legend, hour | pivot hour | select legend, `12`").columnNames == ["legend", "12"])
    }

    @Test func aPivotOverLoadedRowsComputesThemOnce() throws {
        let s = makeSession()
        try s.table("load datasets/market.json\ncount")
        let interpreter = Interpreter(session: s, source: SourceText(name: "<test>", text: ""))
        let command = Script.commands(in: SourceText(name: "<test>", text: "count by legend, hour | pivot hour"))[0]
        guard case .query(let p) = try Session.parse(command) else { Issue.record("not a query"); return }
        let query = try interpreter.bind(p)
        // The pivot reads what the probe kept; the plan holds no second summary.
        let pivot = try #require(query.plan.as(PivotNode.self))
        #expect(pivot.input.as(ScanNode.self)?.relation == .probe("pivot 1", number: 1))
        #expect(interpreter.probes.answers.inputs["pivot 1"]?.rowCount == (try s.table("count by legend, hour")).rowCount)
    }

    @Test func aFeedsCalendarIsReadOncePerCommand() throws {
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as feed\ncount")
        let files = ["trips", "stop_times", "calendar", "calendar_dates", "stops", "routes", "frequencies"]
        let db = CountingDatabase(name: "db", tables: try files.map { f in var t = try #require(s.catalog.table("feed.\(f)")); t.name = f; return t })
        try s.attach(db)
        for verb in ["service", "headways", "span", "peak vehicles", "route stats"] {
            let before = db.queries.count
            let remote = try s.table("db | \(verb)")
            let local = try s.table("feed | \(verb)")
            #expect(tableDifference(remote, local) == nil, "\(verb)")
            // The calendar is read by one probe; the plan itself filters calendar.txt again.
            let calendarProbes = db.queries.dropFirst(before).filter { q in
                q.is(ProjectNode.self) && q.inputs.first?.as(ScanNode.self)?.relation == .table("db.calendar")
            }
            #expect(calendarProbes.count == 1, "\(verb): the calendar was read \(calendarProbes.count) times")
        }
    }
}
