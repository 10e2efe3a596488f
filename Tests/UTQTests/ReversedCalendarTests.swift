import Foundation
import Testing
@testable import UTQCore

/// A calendar.txt row whose end_date is before its start_date is a mistake feeds make; the
/// load warns about it, and every transit verb still answers (the row runs on no day) or
/// says what is wrong, in a process that ends by exiting, never by a signal.
@Suite struct ReversedCalendarTests {
    /// The headways fixture with its weekday service's dates swapped (the Saturday service
    /// kept), and a feed whose only calendar row is reversed and has no calendar_dates.
    static let feeds: [String: String] = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("utq-reversed-calendar-\(getpid())").path
        let header = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        let layouts: [String: (calendar: String, keepsDates: Bool)] = [
            "weekdays-reversed": (header + "WD,1,1,1,1,1,0,0,20260630,20260105\nSA,0,0,0,0,0,1,0,20260105,20260630\n", true),
            "all-reversed": (header + "WD,1,1,1,1,1,0,0,20260630,20260105\nSA,0,0,0,0,0,1,0,20260630,20260105\n", false),
        ]
        var out: [String: String] = [:]
        for (name, layout) in layouts {
            let dir = base + "/" + name
            try? FileManager.default.removeItem(atPath: dir)
            try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let fixture = Repo.path("Tests/Fixtures/gtfs-headways")
            for file in ["agency.txt", "routes.txt", "stops.txt", "trips.txt", "stop_times.txt"] + (layout.keepsDates ? ["calendar_dates.txt"] : []) {
                try! FileManager.default.copyItem(atPath: fixture + "/" + file, toPath: dir + "/" + file)
            }
            try! layout.calendar.write(toFile: dir + "/calendar.txt", atomically: true, encoding: .utf8)
            out[name] = dir
        }
        return out
    }()

    /// Each verb with `{day}` where its date goes.
    static let verbs = ["service{day} | count", "headways{day}", "headways{day} by route_id", "span{day}", "span{day} by route_id",
                        "peak vehicles{day}", "route stats{day}"]
    /// No date (the busiest day), a Tuesday inside the reversed dates, a Saturday, and a day
    /// outside every date the calendar names.
    static let days = ["", " on 2026-03-03", " on 2026-03-07", " on 2029-03-03"]

    static var cases: [(feed: String, verb: String)] {
        feeds.keys.sorted().flatMap { feed in verbs.map { (feed, $0) } }
    }

    @Test(arguments: cases)
    func everyVerbAnswersOrSaysWhy(feed: String, verb: String) throws {
        let dir = try #require(Self.feeds[feed])
        for day in Self.days {
            let command = "feed | " + verb.replacingOccurrences(of: "{day}", with: day)
            let r = try runUTQ(["-c", "load \(dir) as feed", "-c", command])
            #expect(r.exited, "\(feed): \(command) ended by a signal: \(r.stderr)")
            #expect(r.status == 0 || (r.status == 1 && r.stderr.contains("error:")), "\(feed): \(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("calendar.txt:2: end_date is before start_date"), "\(feed): the load says which row is wrong")
        }
    }

    @Test func theReversedRowRunsOnNoDay() throws {
        let dir = try #require(Self.feeds["weekdays-reversed"])
        // A Tuesday between the two dates: the weekday service does not run, and says why.
        let tuesday = try runUTQ(["-c", "load \(dir) as feed", "-c", "feed | service on 2026-03-03 | count"])
        #expect(tuesday.exited && tuesday.status == 0, "\(tuesday.stderr)")
        #expect(tuesday.stdout.contains(" 0\n"), "\(tuesday.stdout)")
        #expect(tuesday.stderr.contains("no trips run on Tuesday 2026-03-03"), "\(tuesday.stderr)")
        // The Saturday service, whose row is in order, runs as before.
        let saturday = try runUTQ(["-c", "load \(dir) as feed", "-c", "feed | service on 2026-03-07 | count"])
        #expect(saturday.exited && saturday.status == 0 && saturday.stdout.contains(" 30\n"), "\(saturday.stdout)\(saturday.stderr)")
    }
}
