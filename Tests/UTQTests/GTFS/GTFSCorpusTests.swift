import Foundation
import Testing
@testable import UTQCore

/// Every feed of transitfeed's test corpus (a good one and dozens broken on purpose) must
/// end as "loaded, with N warnings" or "failed: message", never a crash. What each gives
/// is kept in Tests/Golden/gtfs-corpus.out, re-recorded by `UTQ_RECORD=1 swift test`, so
/// a change in what utq reports about a broken feed shows up as a diff to read.
@Suite struct GTFSCorpusTests {
    static let corpus = "Tests/Fixtures/gtfs-transitfeed"
    static let expected = "Tests/Golden/gtfs-corpus.out"

    /// The feeds: every folder and every .zip of the corpus, by name.
    static func feeds() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.path(corpus))
        let feeds = names.filter { name in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: Repo.path(corpus + "/" + name), isDirectory: &isDirectory)
            return isDirectory.boolValue || name.hasSuffix(".zip")
        }.sorted()
        guard !feeds.isEmpty else { throw TestError(description: "\(corpus) holds no feeds") }
        return feeds
    }

    /// What loading one feed gives, as text: the outcome, each table with its rows, the warnings.
    static func listing(_ feed: String) -> String {
        let full = Repo.path(corpus + "/" + feed)
        var out = "== \(feed)\n"
        do {
            let result = try Loaders.load(LoadRequest(path: full, zone: .utc))
            out += "loaded, with \(result.warnings.count) warning\(result.warnings.count == 1 ? "" : "s")\n"
            out += "  \(result.summary)\n"
            for t in result.tables {
                out += "  \(t.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(String(t.rowCount).leftPadded(5)) row\(t.rowCount == 1 ? "" : "s")\n"
            }
            for w in result.warnings {
                var w = w
                w.path = Interpreter.asWritten(w.path, full: full, written: feed)
                out += "  warning: \(w)\n"
            }
        } catch var e as LoadError {
            e.path = Interpreter.asWritten(e.path, full: full, written: feed)
            out += "failed: \(e)\n"
        } catch {
            out += "failed: \(error)\n"
        }
        return out
    }

    @Test func corpusHasTheFeedsItShould() throws {
        let feeds = try Self.feeds()
        #expect(feeds.count >= 36)
        #expect(feeds.contains("good_feed") && feeds.contains("good_feed.zip") && feeds.contains("bad_eol.zip"))
    }

    @Test func everyFeedLoadsOrFailsAsRecorded() throws {
        let actual = try Self.feeds().map(Self.listing).joined(separator: "\n")
        for feed in try Self.feeds() {
            let block = Self.listing(feed)
            #expect(block.contains("\nloaded, with ") || block.contains("\nfailed: "), "\(feed) neither loaded nor failed")
        }
        let path = Repo.path(Self.expected)
        if GoldenTests.record {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no \(Self.expected); run UTQ_RECORD=1 swift test to record it")
            return
        }
        if actual != expected {
            Issue.record("the corpus listing differs from \(Self.expected):\n\(GoldenTests().firstDifference(expected, actual))")
        }
    }

    /// The feeds broken on purpose are named after what is wrong; each must be reported.
    @Test(arguments: [
        ("bad_date_format", "start_date \"2007.01.01\" is not a date"),
        ("bad_utf8", "not UTF-8"),
        ("contains_null", "NUL byte"),
        ("duplicate_schedule_id", "service_id \"WE\" appears again"),
        ("duplicate_stop", "stops BULLFROG and FROG are 0.4 m apart"),
        ("duplicate_stop_sequence", "stop_sequence 10 comes twice in trip CITY1"),
        ("empty_file", "agency.txt: cannot be read, so it was left out: the file is empty"),
        ("extra_row_cells", "routes.txt:4: 7 cells where the header has 6"),
        ("invalid_agency_ids", "agency.txt:3: no agency_id"),
        ("invalid_route_agency", "agency_id \"DVT\" is not in agency.txt"),
        ("missing_agency", "there is no agency.txt"),
        ("missing_calendar", "neither calendar.txt nor calendar_dates.txt"),
        ("missing_column", "there is no agency_name column"),
        ("missing_departure_time", "stop_times.txt:3: arrival_time 06:12:00 but no departure_time"),
        ("missing_endpoint_times", "the first stop of trip AB2 has no arrival or departure time"),
        ("missing_routes", "failed: missing_routes: is not a GTFS feed utq can read: it has no routes.txt"),
        ("missing_row_cells", "routes.txt:4: 6 cells where the header has 7"),
        ("missing_stop_times", "failed: missing_stop_times: is not a GTFS feed utq can read: it has no stop_times.txt"),
        ("missing_stops", "failed: missing_stops: is not a GTFS feed utq can read: it has no stops.txt"),
        ("missing_trips", "failed: missing_trips: is not a GTFS feed utq can read: it has no trips.txt"),
        ("missing_weekday_column", "there is no thursday column"),
        ("negative_stop_sequence", "stop_times.txt:9: stop_sequence is -2"),
        ("repeated_route_name", "route STBB has the same names as route STBA"),
        ("same_short_long_name", "route CITY has the same route_short_name and route_long_name"),
        ("undefined_stop", "stop_times.txt:11: stop_id \"NADAR\" is not in stops.txt"),
        ("unknown_file", "frecuencias.txt: is not a GTFS file; loaded without checks — did you mean frequencies.txt?"),
        ("unrecognized_columns", "unknown column \"agency_lange\""),
        ("unused_stop", "stop BOGUS is not served by any trip"),
        ("utf16", "read as UTF-16"),
        ("bad_eol.zip", "this line ends with \\r but line 1 with \\r\\n"),
        ("unknown_format.zip", "failed: unknown_format.zip: is not a zip archive"),
        ("au-sydney-entrances", "failed: au-sydney-entrances: is not a GTFS feed utq can read: it has no routes.txt, trips.txt and stop_times.txt"),
    ])
    func brokenFeedIsReported(_ feed: String, _ finding: String) {
        let listing = Self.listing(feed)
        #expect(listing.contains(finding), "\(feed):\n\(listing)")
    }

    @Test(arguments: ["good_feed", "good_feed.zip", "utf8bom", "only_calendar_dates"])
    func soundFeedLoadsWithoutWarnings(_ feed: String) {
        #expect(Self.listing(feed).contains("loaded, with 0 warnings"), "\(Self.listing(feed))")
    }

    /// The program itself, on every feed: a message and exit status 0 or 1, never a crash.
    @Test func utqEndsEveryFeedWithAMessage() throws {
        for feed in try Self.feeds() {
            let r = try runUTQ(["-c", "load \(Self.corpus)/\(feed)"])
            #expect(r.status == 0 || r.status == 1, "\(feed): exit status \(r.status)")
            #expect(r.stderr.contains(r.status == 0 ? "GTFS" : "error: cannot load"), "\(feed): \(r.stderr)")
        }
    }
}
