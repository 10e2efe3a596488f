/// A GTFS feed as the transit verbs see it when they bind: its tables' names and columns, by
/// the name it was loaded (or saved) as (`load demo.zip as feed` gives feed.trips,
/// feed.stop_times, …). What the verbs need of its rows (the calendar) they ask as probes.
struct FeedTables {
    let name: String
    let catalog: SchemaCatalog

    func table(_ file: String) -> TableSchema? { catalog["\(name).\(file)"] }
    func has(_ file: String) -> Bool { table(file) != nil }
    func has(_ file: String, column: String) -> Bool { table(file)?.schema.index(of: column) != nil }
    /// The name of one of its tables: `feed.calendar`.
    func ref(_ file: String) -> String { "\(name).\(file)" }

    /// The columns a verb reads of one of its files, there: a table made anew with `let`
    /// (`let feed.calendar = …`) must keep GTFS's columns for the verbs to read it.
    func require(_ file: String, _ columns: [String], _ build: PlanBuilder, verb: String? = nil) throws {
        guard let t = table(file) else { return }
        for c in columns where t.schema.index(of: c) == nil {
            throw Diagnostic("\(t.name) has no column \(c), " + (verb.map { "which \($0) reads" } ?? "from which the days of service are read"), at: build.span,
                             hint: "a feed's tables keep GTFS's columns; load the feed again to have \(t.name) as it was")
        }
    }

    /// The rows of one of its tables, for a plan.
    func scan(_ file: String, _ build: PlanBuilder) throws -> LogicalPlan {
        guard let t = table(file) else {
            throw Diagnostic("\(name) has no \(file).txt", at: build.span)
        }
        return build.scan(t)
    }

    /// The feed loaded under this name, if there is one.
    static func named(_ name: String, in catalog: SchemaCatalog) -> FeedTables? {
        let feed = FeedTables(name: name, catalog: catalog)
        return feed.has("trips") && feed.has("stop_times") ? feed : nil
    }

    /// The feed a table belongs to: `feed` for `feed.stop_times`.
    static func owning(_ table: String, in catalog: SchemaCatalog) -> FeedTables? {
        guard let dot = table.lastIndex(of: ".") else { return nil }
        return named(String(table[..<dot]), in: catalog)
    }

    /// The feed a line's source names: `feed | …`, `feed.trips | …`, or the current table's.
    static func of(_ source: PipelineSource, verb: String, _ context: BindContext) throws -> FeedTables {
        let catalog = context.catalog
        switch source {
        case .table(let name, let span):
            if let feed = named(name, in: catalog) ?? catalog.resolve(name).flatMap({ owning($0, in: catalog) }) { return feed }
            throw Diagnostic("\(name) is no GTFS feed", at: span, hint: "load one with: load FILE.zip as \(name)")
        case .current:
            if let current = context.currentTable, let feed = owning(current, in: catalog) { return feed }
            throw Diagnostic("\(verb) reads a GTFS feed, and \(context.currentTable.map { "the current table, \($0), is no part of one" } ?? "none is loaded")",
                             hint: "load one with: load FILE.zip as feed, then: feed | \(verb) …")
        default:
            throw Diagnostic("\(verb) reads a GTFS feed: start the line with its name", hint: "as in: feed | \(verb) …")
        }
    }
}

/// A transit verb's plan, with what it says with the rows (why none run that day, when none
/// do: the calendar's answer says so before the plan runs).
struct FeedPlan {
    var plan: LogicalPlan
    var notes: [String] = []
}

/// A verb that reads a whole feed rather than the rows before it (`feed | service on …`).
/// It comes first in a line; the binder hands it the feed its source names.
protocol FeedSyntax: StageSyntax {
    static var verb: String { get }
    /// Where the verb stands in the line, for its errors.
    var span: SourceSpan { get }
    func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan
}

extension FeedSyntax {
    func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
        throw Diagnostic("\(Self.verb) reads a whole GTFS feed, so it comes first in a line, after the feed's name",
                         hint: "as in: feed | \(Self.verb) … | where …")
    }
}

/// A day of service, as written after `on`: 2007-06-04 or 20070604.
struct ServiceDay {
    let days: Int64
    let span: SourceSpan
    /// When no day was written and this is the feed's busiest: its number of trips.
    var busiestTrips: Int? = nil

    var text: String {
        let (y, m, d) = CivilTime.civilFromDays(days)
        return "\(TimeText.four(y))-\(TimeText.two(m))-\(TimeText.two(d))"
    }
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    /// The column of calendar.txt that says whether a service runs on this day's weekday.
    var weekdayColumn: String { Self.weekdays[CivilTime.isoWeekday(days: days) - 1] }
    var weekdayName: String { weekdayColumn.prefix(1).uppercased() + weekdayColumn.dropFirst() }

    /// How a date written another way is written here: 12/05/2026 is 2026-05-12 or
    /// 2026-12-05, whichever was meant; 25/12/2026 can only be 2026-12-25.
    static func hint(for word: String) -> String {
        let parts = word.split(whereSeparator: { "/.-".contains($0) }).map(String.init)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            return "a date is written year-month-day: 2007-06-04"
        }
        let n = parts.map { Int($0)! }
        func iso(_ y: Int, _ m: Int, _ d: Int) -> String? {
            guard (1...12).contains(m), (1...31).contains(d) else { return nil }
            return "\(TimeText.four(y))-\(TimeText.two(m))-\(TimeText.two(d))"
        }
        if parts[0].count == 4, let one = iso(n[0], n[1], n[2]) { return "a date is written year-month-day: \(one)" }
        guard parts[2].count == 4 else { return "a date is written year-month-day: 2007-06-04" }
        let dayFirst = iso(n[2], n[1], n[0]), monthFirst = iso(n[2], n[0], n[1])
        switch (dayFirst, monthFirst) {
        case let (a?, b?) where a != b:
            return "a date is written year-month-day: \(a) (day first) or \(b) (month first)"
        case let (a?, _): return "a date is written year-month-day: \(a)"
        case let (nil, b?): return "a date is written year-month-day: \(b)"
        default: return "a date is written year-month-day: 2007-06-04"
        }
    }

    static func parse(_ p: inout Parser) throws -> ServiceDay {
        let (word, span) = try p.path("a date, as 2007-06-04")
        let digits = word.filter(\.isNumber)
        let parts = word.split(separator: "-").map(String.init)
        var ymd: (Int, Int, Int)? = nil
        if parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }), parts[0].count == 4 {
            ymd = (Int(parts[0])!, Int(parts[1])!, Int(parts[2])!)
        } else if digits.count == 8, digits == word {
            // GTFS writes dates as 20070604.
            ymd = (Int(digits.prefix(4))!, Int(digits.dropFirst(4).prefix(2))!, Int(digits.suffix(2))!)
        }
        guard let (y, m, d) = ymd, (1...12).contains(m), (1...31).contains(d) else {
            throw Diagnostic("\(word) is not a date", at: span, hint: Self.hint(for: word))
        }
        let days = CivilTime.daysFromCivil(year: y, month: m, day: d)
        guard CivilTime.civilFromDays(days) == (y, m, d) else {
            throw Diagnostic("\(word) is not a day of the calendar", at: span, hint: "write it as 2007-06-04")
        }
        return ServiceDay(days: days, span: span)
    }
}
