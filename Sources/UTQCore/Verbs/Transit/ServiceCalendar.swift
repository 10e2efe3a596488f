/// The days of service of a feed, made once from the rows of calendar.txt and
/// calendar_dates.txt (as probes gave them): which service_ids run on a day, why none does,
/// and which day is the busiest when none is given.
struct ServiceCalendar {
    private struct Weekly { let id: String; let from: Int64; let to: Int64; let weekdays: [Bool] }
    private var weekly: [Weekly] = []
    private var added: [Int64: [String]] = [:]
    private var removed: [Int64: Set<String>] = [:]
    /// The first and last day the calendar names.
    private(set) var first = Int64.max, last = Int64.min

    /// From calendar.txt's rows (service_id, start_date, end_date, monday … sunday) and
    /// calendar_dates.txt's (service_id, date, exception_type), either of which may be missing.
    init(weekly calendar: Table?, dates: Table?) {
        func day(_ v: Value, _ zone: ZoneRules) -> Int64? {
            if case .timestamp(let m) = v { return CivilTime.floorDiv(zone.wallMicros(m), CivilTime.microsPerDay) }
            return nil
        }
        if let t = calendar, let ids = t.column("service_id"), let from = t.column("start_date"), let to = t.column("end_date") {
            let days = ServiceDay.weekdays.map { t.column($0) }
            for i in 0..<t.rowCount {
                guard let a = day(from.value(at: i), t.zone), let b = day(to.value(at: i), t.zone) else { continue }
                let runs = days.map { c -> Bool in if case .int(1)? = c?.value(at: i) { return true } else { return false } }
                weekly.append(Weekly(id: ids.value(at: i).plainText, from: a, to: b, weekdays: runs))
                // A row that ends before it starts names its days all the same.
                first = min(first, a, b); last = max(last, a, b)
            }
        }
        if let t = dates, let ids = t.column("service_id"), let dates = t.column("date"), let kinds = t.column("exception_type") {
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

    /// The services calendar.txt runs on a day (a row that ends before it starts runs on none).
    private func byCalendar(on days: Int64) -> [String] {
        let weekday = CivilTime.isoWeekday(days: days) - 1
        return weekly.filter { $0.from <= days && days <= $0.to && $0.weekdays[weekday] }.map(\.id)
    }

    func services(on days: Int64) -> Set<String> {
        Set(byCalendar(on: days) + (added[days] ?? [])).subtracting(removed[days] ?? [])
    }

    /// Why no trips run on a day, when none do: calendar_dates takes the calendar's services
    /// away, or no service runs on that weekday then and calendar_dates adds none.
    func whyNone(on day: ServiceDay) -> String? {
        guard services(on: day.days).isEmpty else { return nil }
        let when = "\(day.weekdayName) \(day.text)"
        let calendar = byCalendar(on: day.days)
        if !calendar.isEmpty {
            return "no trips run on \(when): calendar_dates takes \(calendar.sorted().joined(separator: ", ")) away that day"
        }
        return "no trips run on \(when): no service of the calendar runs on \(day.weekdayName)s then, and calendar_dates adds none"
    }

    /// The day with the most trips (the first such day on a tie), as partridge chooses one,
    /// with its number of trips; nil when the calendar names no day on which a trip runs.
    func busiest(tripsPerService tripsOf: [String: Int]) -> (days: Int64, trips: Int)? {
        guard first <= last else { return nil }
        var best: (days: Int64, trips: Int)? = nil
        // A calendar of decades would take long to walk day by day; no feed runs that long.
        for d in first...min(last, first + 366 * 20) {
            let n = services(on: d).reduce(0) { $0 + (tripsOf[$1] ?? 0) }
            if n > (best?.trips ?? 0) { best = (d, n) }
        }
        return best
    }

    /// A day outside every date the calendar names is a mistake worth a message, with the range.
    func checkInRange(_ day: ServiceDay, feed: String) throws {
        guard first <= last, day.days < first || day.days > last else { return }
        let from = ServiceDay(days: first, span: day.span).text, to = ServiceDay(days: last, span: day.span).text
        throw Diagnostic("\(day.text) is outside \(feed)'s calendar, which runs from \(from) to \(to)", at: day.span,
                         hint: "pick a day from \(from) to \(to)")
    }
}

extension ServiceDay {
    /// `on DATE`, or nothing (the busiest day).
    static func parseOptional(_ p: inout Parser) throws -> ServiceDay? {
        guard p.eatKeyword("on") else { return nil }
        return try parse(&p)
    }
}
