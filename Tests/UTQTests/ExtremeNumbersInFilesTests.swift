import Foundation
import Testing
@testable import UTQCore

/// Every loader's numeric fields, written with numbers no survey has: past 64 bits, past a
/// double, NaN and infinities, times outside the years 1 to 9999, durations of millennia. Each
/// file loads, or is refused with a message naming it, in a utq process that ends by exiting:
/// a conversion that traps would end it by a signal.
@Suite struct ExtremeNumbersInFilesTests {
    static let numbers = ["1e13", "-1e13", "1e16", "1e18", "-1e300", "1e308", "-1e308", "1e400", "1e-400", "NaN", "Infinity", "-Infinity",
                          "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                          "99999999999999999999", "100000000000000000000000000000", "0", "-0"]
    /// Text a time, duration or number column may hold: the ends of the years, offsets that
    /// carry them past, clock times and spans of many lifetimes.
    static let texts = ["0000-01-01", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "9999-12-31 24:00",
                        "31/12/9999, 23:59", "00000000", "99991231", "999:59:59", "-999:59:59", "99999:00:00",
                        "99999999999999999999 days", "1e300 hours", "NaN", "-Infinity", "9223372036854775808"]

    /// A file for a loader with a value `v` in its numeric fields: its name, its text, the
    /// tables it makes (to show after loading) and the `load` options.
    struct Shape: Sendable, CustomStringConvertible {
        let name: String
        let ext: String
        let textual: Bool
        let tables: [String]
        var at = ""
        let make: @Sendable (String) -> String
        var description: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "behaviour-mapper-time", ext: "json", textual: false, tables: ["t", "t.legends"]) { v in
            #"{"_name":"p","_legends":[{"_name":"a","_icon":1}],"_entries":[{"_time":\#(v),"_legend":{"_name":"a","_icon":1},"_position":{"_x":1,"_y":2}}]}"#
        },
        Shape(name: "behaviour-mapper-fields", ext: "json", textual: false, tables: ["t", "t.legends"]) { v in
            #"{"_name":"p","_legends":[{"_name":"a","_icon":\#(v)}],"_entries":[{"_time":512000000,"_legend":{"_name":"a","_icon":\#(v)},"#
                + #""_position":{"_x":\#(v),"_y":\#(v)},"_angleInDegrees":\#(v),"_tagId":\#(v)}]}"#
        },
        Shape(name: "behaviour-mapper-text-time", ext: "json", textual: true, tables: ["t"]) { v in
            #"{"_name":"p","_legends":[{"_name":"a"}],"_entries":[{"_time":"\#(v)","_legend":{"_name":"a"},"_position":"(\#(v), 1)"}]}"#
        },
        // The first row as the app writes it, so that the file is known as an export.
        Shape(name: "behaviour-mapper-export", ext: "csv", textual: true, tables: ["t", "t.legends"]) { v in
            "23/03/2017, 08:15;(1.0, 2.0);999;;a;1\n\(v);(\(v), 1.0);\(v);note;b;\(v)\n"
        },
        Shape(name: "nvdb", ext: "json", textual: false, tables: ["t"]) { v in
            #"{"objekter":[{"id":\#(v),"metadata":{"type":{"id":\#(v),"navn":"x"}},"strekningslengde":\#(v),"#
                + #""egenskaper":[{"navn":"Fartsgrense","verdi":\#(v)},{"navn":"Tekst","verdi":"\#(v)"}],"#
                + #""lokasjon":{"stedfestinger":[{"veglenkesekvensid":\#(v),"startposisjon":\#(v),"sluttposisjon":\#(v)}]}},"#
                + #"{"id":1,"egenskaper":[{"navn":"Fartsgrense","verdi":80}],"lokasjon":{"stedfestinger":[{"veglenkesekvensid":1}]}}]}"#
        },
        Shape(name: "prishtina-itineraries", ext: "json", textual: false, tables: ["t.itineraries"]) { v in
            #"{"itineraries":[{"line":"1","price":\#(v),"frequency":\#(v),"weekday":{"first":"06:00","last":"22:00"}}]}"#
        },
        Shape(name: "prishtina-itinerary-times", ext: "json", textual: true, tables: ["t.itineraries"]) { v in
            #"{"itineraries":[{"line":"1","price":1,"frequency":"\#(v)","weekday":{"first":"\#(v)","last":"\#(v)"}}]}"#
        },
        Shape(name: "prishtina-routes", ext: "json", textual: false, tables: ["t.lines", "t.stops"]) { v in
            #"{"routes":[{"lines":[{"name":"1","startLocationLat":\#(v),"startLocationLng":\#(v),"polyline":"_p~iF~ps|U_ulLnnqC","#
                + #""directions":[{"from":"a","to":"b","bus_stops":[{"name":"s","lat":\#(v),"lng":\#(v)}]}]}]}]}"#
        },
        Shape(name: "json-records", ext: "json", textual: false, tables: ["t"]) { v in
            #"[{"a":\#(v),"b":1.5},{"a":1,"b":\#(v)},{"a":2,"c":\#(v)}]"#
        },
        Shape(name: "json-record-text", ext: "json", textual: true, tables: ["t"]) { v in
            #"[{"t":"2020-01-01T00:00:00Z","d":"1 h"},{"t":"\#(v)","d":"\#(v)"}]"#
        },
        Shape(name: "ndjson", ext: "ndjson", textual: false, tables: ["t"]) { v in
            "{\"a\":\(v)}\n{\"a\":1.5,\"b\":\(v)}\n{\"b\":\"\(v)\"}\n"
        },
        Shape(name: "json-document", ext: "json", textual: false, tables: ["t"], at: " at rows") { v in
            #"{"rows":[{"a":\#(v),"b":"x"},{"a":2,"b":\#(v)}]}"#
        },
        Shape(name: "csv", ext: "csv", textual: true, tables: ["t"]) { v in
            "a,b,t,d\n\(v),1.5,2020-01-01 00:00,1 h\n1,\(v),\(v),\(v)\n"
        },
        Shape(name: "csv-one-column", ext: "csv", textual: true, tables: ["t"]) { v in "a\n\(v)\n\(v)\n" },
        Shape(name: "pldp", ext: "csv", textual: true, tables: ["t"]) { v in
            "id,startedAt,endedAt,postureStanding,genderFemale,location\n1,09/22/17 10:00 PM,\(v),\(v),\(v),\"\(v), 37.7\"\n"
        },
    ]

    @Test(arguments: shapes)
    func everyNumericFieldLoadsOrIsRefused(_ shape: Shape) throws {
        for value in shape.textual ? Self.numbers + Self.texts : Self.numbers {
            let path = try temporaryFile("extreme-\(shape.name).\(shape.ext)", shape.make(value))
            let shows = shape.tables.flatMap { ["-c", "\($0) | limit 5"] }
            let r = try runUTQ(["-c", "load \(path) as t\(shape.at)"] + shows)
            #expect(r.exited, "\(shape.name) with \(value) ended by a signal: \(r.stderr.suffix(400))")
            #expect(r.status == 0 || (r.status == 1 && r.stderr.contains("error: cannot load \(path)")),
                    "\(shape.name) with \(value): \(r.status) \(r.stderr.suffix(400))")
        }
    }

    @Test func aBehaviourMapperTimePastAnyYearIsRefusedNamingTheEntry() throws {
        // The last second of 9999 in UTC is in 10000 in the project's zone (Oslo): refused too.
        for (seconds, since) in [("1e13", "1970-01-01"), ("-1e13", "2001-01-01"), ("1e12", "1970-01-01"), ("-1e300", "2001-01-01"),
                                 ("253402300799", "1970-01-01")] {
            let project = #"{"_name":"p","_legends":[{"_name":"a"}],"_entries":["#
                + #"{"_time":512000000,"_legend":{"_name":"a"},"_position":{"_x":1,"_y":2}},"#
                + #"{"_time":\#(seconds),"_legend":{"_name":"a"},"_position":{"_x":1,"_y":2}}]}"#
            let path = try temporaryFile("far-time.json", project)
            let r = try runUTQ(["-c", "load \(path)"])
            #expect(r.exited && r.status == 1, "\(seconds): \(r.stderr)")
            #expect(r.stderr.contains("cannot load \(path): entry 2: _time"), "\(seconds): \(r.stderr)")
            #expect(r.stderr.contains("is a time outside the years 1 to 9999 (read as seconds since \(since))"), "\(seconds): \(r.stderr)")
        }
        // Seconds since 2001 and since 1970 within the years still load.
        let project = #"{"_name":"p","_legends":[{"_name":"a"}],"_entries":[{"_time":512000000,"_legend":{"_name":"a"},"_position":{"_x":1,"_y":2}},"#
            + #"{"_time":1490253312,"_legend":{"_name":"a"},"_position":{"_x":1,"_y":2}}]}"#
        let s = makeSession()
        let t = try s.table("load \(try temporaryFile("near-time.json", project)) as p; p | select time")
        #expect(t.strings("time") == ["2017-03-23T23:13:20+01:00", "2017-03-23T08:15:12+01:00"])
    }

    @Test func anNVDBPropertyAtTheEndOfWholeNumbersKeepsItsValue() throws {
        let doc = #"{"objekter":[{"id":1,"egenskaper":[{"navn":"Lengde","verdi":9223372036854775807}],"lokasjon":{"stedfestinger":[{"veglenkesekvensid":7}]}},"#
            + #"{"id":2,"egenskaper":[{"navn":"Lengde","verdi":-9223372036854775808}],"lokasjon":{"stedfestinger":[{"veglenkesekvensid":7}]}}]}"#
        let t = try makeSession().table("load \(try temporaryFile("nvdb-ends.json", doc)) as n; n | select Lengde")
        #expect(t.strings("Lengde") == ["9223372036854775807", "-9223372036854775808"])
    }

    @Test func textTimesOutsideTheYearsAreNotTimes() throws {
        let s = makeSession()
        // Year 0, and offsets that carry the first or last day past the years: the column is text.
        for cell in ["0000-01-01", "0000-06-01T10:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "9999-12-31 24:00", "00000000"] {
            let t = try s.table("load \(try temporaryFile("edge-time.csv", "t\n2020-01-01T00:00:00Z\n\(cell)\n")) as e; e")
            #expect(t.column("t")?.type == .string, "\(cell)")
        }
        // The first and last moments of the years are times.
        let t = try s.table("load \(try temporaryFile("ends.csv", "t\n0001-01-01T00:00:00Z\n9999-12-31T23:59:59Z\n")) as e; e")
        #expect(t.column("t")?.type == .timestamp)
        #expect(TimestampParser.parse("99991231", order: .compact) != nil && TimestampParser.parse("00001231", order: .compact) == nil)
    }
}
