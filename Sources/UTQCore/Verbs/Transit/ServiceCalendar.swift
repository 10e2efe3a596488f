/// The days of service of a feed, read once from calendar.txt and calendar_dates.txt: which
/// service_ids run on a day, and which day is the busiest when none is given.
struct ServiceCalendar {
    private struct Weekly { let id: String; let from: Int64; let to: Int64; let weekdays: [Bool] }
    private var weekly: [Weekly] = []
    private var added: [Int64: [String]] = [:]
    private var removed: [Int64: Set<String>] = [:]
    /// The first and last day the calendar names.
    private(set) var first = Int64.max, last = Int64.min

    init(_ feed: FeedTables) {
        func day(_ v: Value, _ zone: ZoneRules) -> Int64? {
            if case .timestamp(let m) = v { return CivilTime.floorDiv(zone.wallMicros(m), CivilTime.microsPerDay) }
            return nil
        }
        if let t = feed.table("calendar"), let ids = t.column("service_id"), let from = t.column("start_date"), let to = t.column("end_date") {
            let days = ServiceDay.weekdays.map { t.column($0) }
            for i in 0..<t.rowCount {
                guard let a = day(from.value(at: i), t.zone), let b = day(to.value(at: i), t.zone) else { continue }
                let runs = days.map { c -> Bool in if case .int(1)? = c?.value(at: i) { return true } else { return false } }
                weekly.append(Weekly(id: ids.value(at: i).plainText, from: a, to: b, weekdays: runs))
                first = min(first, a); last = max(last, b)
            }
        }
        if let t = feed.table("calendar_dates"), let ids = t.column("service_id"), let dates = t.column("date"), let kinds = t.column("exception_type") {
            for i in 0..<t.rowCount {
                guard let d = day(dates.value(at: i), t.zone) else { continue }
                first = min(first, d); last = max(last, d)
                let id = ids.value(at: i).plainText
                switch kinds.value(at: i) {
                case .int(1): added[d, default: []].append(id)
                case .int(2): removed[d, default: []].insert(id)
                default: break
                }
            }
        }
    }

    func services(on days: Int64) -> Set<String> {
        let weekday = CivilTime.isoWeekday(days: days) - 1
        var running = Set(weekly.lazy.filter { $0.from <= days && days <= $0.to && $0.weekdays[weekday] }.map(\.id))
        running.formUnion(added[days] ?? [])
        return running.subtracting(removed[days] ?? [])
    }

    /// The day with the most trips (the first such day on a tie), as partridge chooses one,
    /// with its number of trips; nil when the calendar names no day.
    func busiest(_ feed: FeedTables) -> (days: Int64, trips: Int)? {
        guard first <= last, let trips = feed.table("trips"), let ids = trips.column("service_id") else { return nil }
        var tripsOf: [String: Int] = [:]
        for i in 0..<trips.rowCount { tripsOf[ids.value(at: i).plainText, default: 0] += 1 }
        var best: (days: Int64, trips: Int)? = nil
        // A calendar of decades would take long to walk day by day; no feed runs that long.
        for d in first...min(last, first + 366 * 20) {
            let n = services(on: d).reduce(0) { $0 + (tripsOf[$1] ?? 0) }
            if n > (best?.trips ?? 0) { best = (d, n) }
        }
        return best
    }
}

extension ServiceDay {
    /// The day a transit verb works on: the one written, or else the feed's busiest.
    static func resolve(_ day: ServiceDay?, _ feed: FeedTables, verb: String) throws -> ServiceDay {
        if let day { return day }
        guard let busiest = ServiceCalendar(feed).busiest(feed) else {
            throw Diagnostic("\(feed.name)'s calendar names no day on which a trip runs, so \(verb) needs a date",
                             hint: "as in: \(feed.name) | \(verb) 2007-06-04")
        }
        return ServiceDay(days: busiest.days, span: SourceSpan(0, 0))
    }

    /// Said when no day was written: which day was taken and why.
    static func choiceNote(_ day: ServiceDay?, _ feed: FeedTables) -> [String] {
        guard day == nil, let busiest = ServiceCalendar(feed).busiest(feed) else { return [] }
        let d = ServiceDay(days: busiest.days, span: SourceSpan(0, 0))
        return ["no date given: \(d.weekdayName) \(d.text) is \(feed.name)'s busiest day (\(NumberText.counted(busiest.trips, "trip"))); write on DATE for another"]
    }

    /// `on DATE`, or nothing (the busiest day).
    static func parseOptional(_ p: inout Parser) throws -> ServiceDay? {
        guard p.eatKeyword("on") else { return nil }
        return try parse(&p)
    }
}
