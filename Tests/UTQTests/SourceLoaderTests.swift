import Foundation
import Testing
@testable import UTQCore

/// The loaders for the field's own formats: Behaviour Mapper's CSV export, Prishtina's
/// routes and itineraries, NVDB responses; each checked against the file it reads.
@Suite struct SourceLoaderTests {
    // MARK: Behaviour Mapper export

    @Test func exportCountsMatchTheFileAndNoDirectionIsNull() throws {
        let path = Repo.path("datasets/market-export.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        // Count the legends straight from the file: the fifth cell of each row.
        var expected: [String: Int] = [:]
        var noDirection = 0
        for line in lines {
            let cells = line.split(separator: ";", omittingEmptySubsequences: false)
            expected[String(cells[4]), default: 0] += 1
            if cells[2] == "999.0" { noDirection += 1 }
        }
        let s = makeSession()
        let counts = try s.table("load datasets/market-export.csv as exported; count by legend")
        #expect(counts.rowCount == expected.count)
        for i in 0..<counts.rowCount {
            let row = counts.row(i)
            #expect(Int(row["count"]!) == expected[row["legend"]!])
        }
        let nulls = try s.table("exported | where angle is null | count")
        #expect(nulls.strings("count") == [String(noDirection)])
        #expect(noDirection > 0)
        // No angle of 999 survives as a value.
        let big = try s.table("exported | where angle > 180 | count")
        #expect(big.strings("count") == ["0"])
    }

    @Test func exportInTheThesisFigureFormatWithoutHeader() throws {
        // The two rows of the thesis's Figure 4-15, with a trailing ';' as the app writes.
        let path = try temporaryFile("figure-4-15.csv", """
        04/05/2017, 23:21;(688.0, 500.5);999.0;;Sitting adult;16;
        04/05/2017, 23:21;(166.0, 187.0);5.27389598979267;Stopped and talked on phone;Adult;1;

        """)
        let s = makeSession()
        let t = try s.table("load \(path) as fig; fig")
        #expect(t.rowCount == 2)
        #expect(t.columnNames == ["time", "legend", "icon", "x", "y", "angle", "note"])
        #expect(t.strings("legend") == ["Sitting adult", "Adult"])
        #expect(t.strings("x") == ["688", "166"])
        #expect(t.strings("y") == ["500.5", "187"])
        #expect(t.strings("angle") == ["null", "5.27389598979267"])
        #expect(t.strings("note") == ["null", "Stopped and talked on phone"])
        // Day first: 4 May, in Europe/Oslo (summer time, +02:00).
        #expect(t.strings("time") == ["2017-05-04T23:21:00+02:00", "2017-05-04T23:21:00+02:00"])
        // Legends list in icon order (Adult's icon is 1), as the project the app made them in.
        let legends = try s.table("fig.legends")
        #expect(legends.strings("legend") == ["Adult", "Sitting adult"])
    }

    @Test func exportAndProjectAgree() throws {
        let s = makeSession()
        let a = try s.table("load datasets/market.json; count by legend")
        let b = try s.table("load datasets/market-export.csv as exported; count by legend")
        func counts(_ t: Table) -> [String: String] {
            Dictionary(uniqueKeysWithValues: (0..<t.rowCount).map { (t.row($0)["legend"]!, t.row($0)["count"]!) })
        }
        #expect(counts(a) == counts(b))
        #expect(counts(a).count == 7)
    }

    /// The project file and the app's export of it are the same table, cell by cell: an empty
    /// note is null in both, legends sort in the project's order, times agree to the minute
    /// (the export writes no seconds). Only the project has tag ids.
    @Test func exportAndProjectAreTheSameTable() throws {
        let s = makeSession()
        let a = try s.table("load datasets/market.json as project; project")
        let b = try s.table("load datasets/market-export.csv as exported; exported")
        #expect(a.rowCount == 516 && b.rowCount == a.rowCount)
        for name in ["legend", "icon", "x", "y", "angle", "note"] {
            let (ca, cb) = (try #require(a.column(name)), try #require(b.column(name)))
            #expect(ca.type == cb.type, "\(name)")
            #expect(a.values(name) == b.values(name), "\(name)")
        }
        #expect(a.column("note")?.nullCount == 486)
        let minute = { (v: Value) -> Int64? in if case .timestamp(let t) = v { return t / 60_000_000 } else { return nil } }
        #expect(a.values("time").map(minute) == b.values("time").map(minute))
        // Sorted and counted, legends come in the same order.
        #expect(try s.table("project | count by legend").strings("legend") == (try s.table("exported | count by legend").strings("legend")))
        #expect(try s.table("exported.legends").strings("legend") == ["Walking", "Bike", "Stroller", "Dog walking", "Jogging", "Standing", "Sitting"])
    }

    // MARK: Prishtina

    @Test func aCraftedPolylineThatAddsUpPastAnyNumberIsNoPolyline() {
        // The same huge step, again and again: the running sum would pass 64 bits.
        func chunk(_ v: Int) -> String {
            var x = v < 0 ? ~(v << 1) : (v << 1), out = ""
            while x >= 0x20 { out.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (x & 0x1F)) + 63))); x >>= 5 }
            out.unicodeScalars.append(Unicode.Scalar(UInt8(x + 63)))
            return out
        }
        let step = chunk(1 << 58) + chunk(0)
        #expect(Polyline.decode(String(repeating: step, count: 64)) == nil)
        #expect(Polyline.decode(String(repeating: step, count: 2))?.count == 2)
        #expect(Polyline.encode([(lat: .nan, lng: 1), (lat: 1e300, lng: 0), (lat: 59.9, lng: 10.7)]) == Polyline.encode([(lat: 59.9, lng: 10.7)]))
    }

    @Test func googlePolylineDecodesTheDocumentedExample() throws {
        // The example from Google's description of the format.
        let points = try #require(Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@"))
        #expect(points.count == 3)
        #expect(abs(points[0].lat - 38.5) < 1e-9 && abs(points[0].lng - -120.2) < 1e-9)
        #expect(abs(points[1].lat - 40.7) < 1e-9 && abs(points[1].lng - -120.95) < 1e-9)
        #expect(abs(points[2].lat - 43.252) < 1e-9 && abs(points[2].lng - -126.453) < 1e-9)
        #expect(Polyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(Polyline.decode("_p~iF~ps|U_") == nil)  // cut short
    }

    @Test func routesGiveLinesAndStopsWithTheTypoAccepted() throws {
        let path = try temporaryFile("routes.json", """
        {"routes": [{"lines": [{"name": "Line 1", "color": "#e29d81",
          "startLocationLat": 42.6495081925311, "startLocattionLng": 21.1660133836129,
          "endLocationLat": 42.6342959385523, "endLocationLng": 21.0817190276728,
          "directions": [{"from": "Technical Faculty", "to": "Fushe Kosove", "bus_stops": [
            {"lat": 42.649649981580964, "lng": 21.16584703872968, "name": "Technical Faculty"},
            {"lat": 42.6342959385523, "lng": 21.0817190276728, "name": "Fushe Kosove"}]}],
          "polyline": "_p~iF~ps|U_ulLnnqC"}]}]}
        """)
        let s = makeSession()
        let lines = try s.table("load \(path) as p; p.lines")
        #expect(lines.strings("start_lng") == ["21.1660133836129"])
        #expect(lines.strings("stops") == ["2"])
        #expect(lines.strings("polyline_points") == ["2"])
        // 38.5,-120.2 → 40.7,-120.95 is about 252 km along the great circle.
        let km = Double(lines.strings("length_km")[0])!
        #expect(abs(km - 252.2) < 1.5)
        let stops = try s.table("p.stops")
        #expect(stops.strings("stop") == ["Technical Faculty", "Fushe Kosove"])
        #expect(stops.strings("sequence") == ["1", "2"])
    }

    @Test func itinerariesGiveServiceSpansAndFrequencies() throws {
        let s = makeSession()
        let t = try s.table("""
        load datasets/prishtina/itineraries.json as p
        p.itineraries | where line = "Line 1" | select span = weekday_last - weekday_first, per_hour = 1h / frequency
        """)
        #expect(t.strings("span") == ["17:00:00"])
        #expect(t.strings("per_hour") == ["5"])
    }

    // MARK: NVDB

    @Test func nvdbObjectsBecomeRowsWithPropertyColumns() throws {
        let s = makeSession()
        let t = try s.table("load datasets/nvdb-speedlimits.json as limits; limits")
        #expect(t.column("Fartsgrense")?.type == .int)
        #expect(t.column("veglenke")?.type == .int)
        // The thesis's example: at 0.8449 of link 2172077 the limit is 100.
        let here = try s.table("limits | where veglenke = 2172077 and 0.8449232402200674 between fra and til")
        #expect(here.strings("Fartsgrense") == ["100"])
        #expect(here.strings("strekningslengde") == ["8630"])
        let further = try s.table("limits | where veglenke = 2172077 and 0.95 between fra and til")
        #expect(further.strings("Fartsgrense") == ["80"])
    }

    @Test func nvdbResponseWithoutObjectsIsAMessage() throws {
        let path = try temporaryFile("empty-nvdb.json", #"{"resultater": [{"typeid": 105, "vegobjekter": []}]}"#)
        let s = makeSession()
        let e = s.failure("load \(path)")
        #expect(e?.message.contains("no road objects") == true)
    }
}
