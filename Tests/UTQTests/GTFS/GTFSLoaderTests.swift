import Foundation
import Testing
import ZIPFoundation
@testable import UTQCore

/// What a transport analyst relies on when loading a feed: the tables hold what the files
/// hold, ids join, service times keep their hours past midnight, a zip is its folder.
@Suite struct GTFSLoaderTests {
    static let demo = "datasets/gtfs/demo-transit"

    @Test func tripsPerRouteMatchTheFile() throws {
        // Counted straight from trips.txt, without utq.
        let text = try String(contentsOfFile: Repo.path(Self.demo + "/trips.txt"), encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let routeColumn = try #require(header.firstIndex(of: "route_id"))
        var expected: [String: Int] = [:]
        for line in lines {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            expected[String(cells[routeColumn]), default: 0] += 1
        }
        let session = makeSession()
        let t = try session.table("load \(Self.demo)\ntrips | count by route_id")
        var actual: [String: Int] = [:]
        for (route, count) in zip(t.strings("route_id"), t.strings("count")) { actual[route] = Int(count) }
        #expect(actual == expected)
        #expect(actual.values.reduce(0, +) == 11)
    }

    @Test func serviceTimesPastMidnightKeepTheirHour() throws {
        let feed = try Self.feed([
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,23:50:00,23:55:00,A,1
            T1,25:10:00,25:10:00,B,2
            T1,26:02:30,26:03:00,A,3
            """,
        ])
        let session = makeSession()
        let byHour = try session.table("load \(feed) as late\ncount by hour(departure_time)")
        #expect(byHour.strings("hour") == ["23", "25", "26"])
        // stop_times is current and its time column is departure_time: `hour` alone works too.
        #expect(try session.table("count by hour").strings("hour") == ["23", "25", "26"])
        let times = try session.table("late.stop_times | select departure_time")
        #expect(times.strings("departure_time") == ["23:55:00", "25:10:00", "26:03:00"])
        #expect(times.column("departure_time")?.type == .duration)
        let text = TableRenderer.render(times, options: session.settings.render, footer: nil)
        #expect(text.contains("25:10:00"))
    }

    @Test func routeTypesGetTheirNames() throws {
        let feed = try Self.feed([
            "routes.txt": """
            route_id,route_short_name,route_long_name,route_type
            R0,0,Tram line,0
            R1,1,Metro,1
            R3,3,Bus,3
            R5,5,Cable car,5
            R7,7,Funicular,7
            R11,11,Trolley,11
            R12,12,Monorail,12
            R700,700,Express,702
            R1200,1200,Ferry,1200
            R99,99,Nonsense,99
            """,
        ])
        var warnings: [String] = []
        let session = makeSession()
        session.run("load \(feed) as kinds") { _, outcome in
            for case .warning(let w) in outcome.outputs { warnings.append(w) }
        }
        let routes = try session.table("kinds.routes | select route_id, route_type, route_type_name")
        #expect(routes.strings("route_type_name") == ["Tram", "Subway", "Bus", "Cable tram", "Funicular", "Trolleybus",
                                                      "Monorail", "Bus", "Ferry", "null"])
        #expect(warnings.contains { $0.contains("routes.txt:11: route_type 99 is not a GTFS route type") })
        let basic = try session.table("load Tests/Fixtures/gtfs-transitfeed/flatten_feed\nflatten_feed.routes | select route_type_name")
        #expect(basic.strings("route_type_name") == ["Tram", "Subway", "Rail", "Bus", "Ferry", "Cable tram", "Aerial lift", "Funicular"])
    }

    @Test func idsStayTextAndJoin() throws {
        let feed = try Self.feed([
            "stops.txt": """
            stop_id,stop_code,stop_name,stop_lat,stop_lon,zone_id
            0012,007,Zero twelve,59.91,10.75,1
            12,7,Twelve,59.92,10.76,2
            """,
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            1,8:00:00,8:00:00,0012,1
            1,8:05:00,8:05:00,12,2
            """,
            "trips.txt": "route_id,service_id,trip_id\n1,1,1\n",
            "routes.txt": "route_id,route_short_name,route_type\n1,01,3\n",
        ])
        let session = makeSession()
        let stops = try session.table("load \(feed) as ids\nids.stops")
        for column in ["stop_id", "stop_code", "zone_id"] { #expect(stops.column(column)?.type == .string, "\(column)") }
        #expect(stops.strings("stop_id") == ["0012", "12"])
        #expect(stops.strings("stop_code") == ["007", "7"])
        #expect(stops.column("stop_lat")?.type == .double)
        let routes = try session.table("ids.routes")
        #expect(routes.strings("route_short_name") == ["01"])
        #expect(try session.table("ids.trips").column("trip_id")?.type == .string)
        let joined = try session.table("ids.stop_times | join ids.stops on stop_id | select stop_id, stop_name")
        #expect(joined.strings("stop_name") == ["Zero twelve", "Twelve"])
    }

    @Test func agencyIdIsAskedForOnlyWithSeveralAgencies() throws {
        func warnings(_ feed: String) -> [String] {
            var out: [String] = []
            makeSession().run("load \(feed)") { _, o in for case .warning(let w) in o.outputs { out.append(w) } }
            return out
        }
        // The helper's feed has one agency and no agency_id anywhere: nothing to say.
        #expect(warnings(try Self.feed([:])).filter { $0.contains("agency_id") }.isEmpty)
        let two = try Self.feed(["agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A,One,http://a.example,Europe/Oslo
            ,Two,http://b.example,Europe/Oslo
            """])
        let found = warnings(two)
        #expect(found.contains { $0.hasSuffix("agency.txt:3: no agency_id; GTFS requires one for each agency when a feed has several [missing_required_field]") })
        #expect(found.contains { $0.hasSuffix("routes.txt:1: there is no agency_id column; with several agencies GTFS requires it, to say whose each route is [missing_required_column]") })
    }

    @Test func datesAreDaysInTheAgencysZone() throws {
        let session = makeSession()
        let calendar = try session.table("load \(Self.demo)\ncalendar | select service_id, start_date, end_date")
        let column = try #require(calendar.column("start_date"))
        #expect(column.type == .timestamp)
        #expect(column.unit == .day)
        #expect(calendar.zone.identifier == "America/Los_Angeles")
        #expect(calendar.strings("start_date") == ["2007-01-01", "2007-01-01"])
        #expect(calendar.strings("end_date") == ["2025-12-31", "2025-12-31"])
        // Midnight in Los Angeles, not in UTC.
        guard case .timestamp(let instant) = column.value(at: 0) else { Issue.record("not a timestamp"); return }
        #expect(TimeText.iso(instant, zone: calendar.zone) == "2007-01-01T00:00:00-08:00")
    }

    @Test func aZipLoadsTheSameAsItsFolder() throws {
        let folder = try Self.tables(Self.demo)
        let zipped = try Self.tables(Self.demo + ".zip")
        #expect(folder.count == 11)
        #expect(zipped.map(\.name) == folder.map(\.name))
        for (a, b) in zip(folder, zipped) {
            #expect(a.columnNames == b.columnNames, "\(a.name)")
            for c in a.columnNames { #expect(a.strings(c) == b.strings(c), "\(a.name).\(c)") }
        }
        // Published zips often keep the files one folder down.
        let nested = try Self.zipArchive(folder: Repo.path(Self.demo), inside: "google_transit/", name: "nested.zip")
        let fromNested = try Self.tables(nested)
        #expect(fromNested.map { $0.name.replacingOccurrences(of: "nested.", with: "demo_transit.") } == folder.map(\.name))
        #expect(fromNested.map(\.rowCount) == folder.map(\.rowCount))
    }

    @Test func aZipThatIsNotAFeedSaysSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-gtfs-notfeed-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "a,b\n1,2\n".write(to: dir.appendingPathComponent("numbers.csv"), atomically: true, encoding: .utf8)
        let zip = try Self.zipArchive(folder: dir.path, inside: "", name: "numbers.zip")
        let failure = makeSession().failure("load \(zip)")
        #expect(failure?.message.contains("holds no GTFS files (agency.txt, stops.txt") == true, "\(String(describing: failure))")
        #expect(failure?.message.contains("it holds numbers.csv") == true)
    }

    @Test func aFailedLoadLeavesTheTablesAsTheyWere() throws {
        let session = makeSession()
        try session.table("load datasets/market.json\ncount")
        try session.table("load \(Self.demo) as demo\ncount")
        let before = session.catalog.names
        let current = session.currentTable
        for broken in ["missing_stops", "missing_trips", "unknown_format.zip", "au-sydney-entrances"] {
            let failure = session.failure("load Tests/Fixtures/gtfs-transitfeed/\(broken) as demo")
            #expect(failure != nil, "\(broken) should fail")
            #expect(session.catalog.names == before)
            #expect(session.currentTable == current)
            #expect(session.catalog.table("demo.trips")?.rowCount == 11)
        }
    }

    @Test func loadSummarySaysWhatTheFeedHolds() throws {
        var info: [String] = []
        makeSession().run("load \(Self.demo)") { _, outcome in
            for case .info(let s) in outcome.outputs { info.append(s) }
        }
        #expect(info == ["demo_transit: GTFS, 1 agency, 11 tables · 5 routes, 11 trips, 28 stop times · "
                         + "current: demo_transit.stop_times (America/Los_Angeles)"])
    }

    // MARK: helpers

    /// A feed folder from file texts; the files a feed needs are added when not given.
    static func feed(_ files: [String: String]) throws -> String {
        var all = [
            "agency.txt": "agency_name,agency_url,agency_timezone\nTest,http://example.com,Europe/Oslo\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,59.91,10.75\nB,Beta,59.92,10.76\n",
            "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR,S,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,8:00:00,8:00:00,A,1\nT1,8:10:00,8:10:00,B,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,0,0,20240101,20241231\n",
        ]
        for (name, text) in files { all[name] = text.hasSuffix("\n") ? text : text + "\n" }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-gtfs-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in all { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir.path
    }

    /// A zip of a folder's files, placed under `inside` (a folder in the archive, or "").
    static func zipArchive(folder: String, inside: String, name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-gtfs-zip-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let source = URL(fileURLWithPath: folder).appendingPathComponent(file)
            try archive.addEntry(with: inside + file, fileURL: source, compressionMethod: .deflate)
        }
        return url.path
    }

    /// The tables a load gives, in order.
    static func tables(_ path: String) throws -> [Table] {
        let full = path.hasPrefix("/") ? path : Repo.path(path)
        return try Loaders.load(LoadRequest(path: full, zone: .utc)).tables
    }
}
