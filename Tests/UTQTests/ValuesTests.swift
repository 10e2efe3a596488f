import Foundation
import Testing
@testable import UTQCore

/// Values: calendar arithmetic, the parsers for times, durations and numbers, time zones,
/// and writing times as text. Expectations come from Foundation, Swift's own number
/// parser, or dates worked out by hand.
@Suite struct CivilTimeTests {
    @Test func knownDayNumbers() {
        // Worked out independently (days between the date and 1970-01-01).
        let known: [(Int, Int, Int, Int64)] = [
            (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 1, 1, 10957), (2000, 3, 1, 11017),
            (1600, 1, 1, -135_140), (1900, 3, 1, -25_508), (2400, 12, 31, 157_419),
        ]
        for (y, m, d, n) in known {
            #expect(CivilTime.daysFromCivil(year: y, month: m, day: d) == n, "\(y)-\(m)-\(d)")
            let back = CivilTime.civilFromDays(n)
            #expect(back.year == y && back.month == m && back.day == d, "\(n)")
        }
    }

    /// Walks every day from 1600 to 2400 with a calendar counted by hand, so each date's
    /// number must be one more than the day before, and each number must map back.
    @Test func everyDayFrom1600To2400RoundTrips() {
        func leap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var expected = CivilTime.daysFromCivil(year: 1600, month: 1, day: 1)
        #expect(expected == -135_140)
        var leapDays = 0
        for y in 1600...2400 {
            for m in 1...12 {
                let n = m == 2 && leap(y) ? 29 : lengths[m - 1]
                #expect(CivilTime.daysInMonth(year: y, month: m) == n)
                for d in 1...n {
                    let got = CivilTime.daysFromCivil(year: y, month: m, day: d)
                    if got != expected { Issue.record("\(y)-\(m)-\(d): \(got) != \(expected)"); return }
                    let back = CivilTime.civilFromDays(got)
                    if back.year != y || back.month != m || back.day != d { Issue.record("\(got) → \(back)"); return }
                    if m == 2 && d == 29 { leapDays += 1 }
                    expected += 1
                }
            }
        }
        // 801 years hold 195 leap years (1600…2400, minus 1700, 1800, 1900, 2100, 2200, 2300).
        #expect(leapDays == 195)
    }

    @Test func agreesWithFoundationOnRandomDates() {
        var rng = SeededRandom(seed: 1)
        for _ in 0..<500 {
            let y = Int.random(in: 1600...2400, using: &rng), m = Int.random(in: 1...12, using: &rng)
            let d = Int.random(in: 1...CivilTime.daysInMonth(year: y, month: m), using: &rng)
            #expect(CivilTime.daysFromCivil(year: y, month: m, day: d) == Reference.days(y, m, d), "\(y)-\(m)-\(d)")
        }
    }

    @Test func floorDivisionBeforeTheEpoch() {
        #expect(CivilTime.floorDiv(-1, 86_400) == -1)
        #expect(CivilTime.floorDiv(-86_400, 86_400) == -1)
        #expect(CivilTime.floorDiv(-86_401, 86_400) == -2)
        #expect(CivilTime.floorMod(-1, 60) == 59)
        #expect(CivilTime.floorMod(7, -3) == -2)
        // A wall time one microsecond before 1970 is 1969-12-31 23:59:59.999999.
        let t = LocalDateTime(wallMicros: -1)
        #expect(t == LocalDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, microsecond: 999_999))
        #expect(t.wallMicros == -1)
    }

    @Test func weekdays() {
        #expect(CivilTime.isoWeekday(days: 0) == 4)  // 1970-01-01 was a Thursday
        #expect(CivilTime.isoWeekday(days: -1) == 3)
        #expect(CivilTime.isoWeekday(days: CivilTime.daysFromCivil(year: 2017, month: 3, day: 23)) == 4)
        #expect(CivilTime.isoWeekday(days: CivilTime.daysFromCivil(year: 1900, month: 1, day: 1)) == 1)
        // Foundation: Sunday = 1 … Saturday = 7.
        let cal = Reference.calendar()
        var rng = SeededRandom(seed: 2)
        for _ in 0..<300 {
            let days = Int64.random(in: -100_000...100_000, using: &rng)
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let foundation = cal.component(.weekday, from: date)
            #expect(CivilTime.isoWeekday(days: days) == (foundation + 5) % 7 + 1)
        }
    }

    @Test func isoWeeksAtYearBoundaries() {
        let cases: [(Int, Int, Int, Int, Int)] = [
            (2020, 12, 31, 2020, 53), (2021, 1, 4, 2021, 1), (2021, 1, 3, 2020, 53),
            (2008, 12, 29, 2009, 1), (2010, 1, 3, 2009, 53), (2005, 1, 1, 2004, 53), (2017, 3, 23, 2017, 12),
        ]
        for (y, m, d, wy, w) in cases {
            let got = CivilTime.isoWeek(days: CivilTime.daysFromCivil(year: y, month: m, day: d))
            #expect(got.year == wy && got.week == w, "\(y)-\(m)-\(d) → \(got)")
        }
        // Every day around the turn of 1950…2060 against Foundation's ISO 8601 calendar.
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(identifier: "UTC")!
        for y in 1950...2060 {
            for offset in -7...7 {
                let days = CivilTime.daysFromCivil(year: y, month: 1, day: 1) + Int64(offset)
                let date = Date(timeIntervalSince1970: Double(days) * 86_400)
                let got = CivilTime.isoWeek(days: days)
                #expect(got.year == iso.component(.yearForWeekOfYear, from: date))
                #expect(got.week == iso.component(.weekOfYear, from: date))
                #expect(CivilTime.isoWeekday(days: CivilTime.weekStart(days: days)) == 1)
            }
        }
    }
}

@Suite struct TimestampParserTests {
    func instant(_ text: String, _ order: TimestampParser.DateOrder = .dayFirst, zone: ZoneRules = .utc) -> Int64? {
        TimestampParser.parse(text, order: order)?.instant(in: zone)
    }

    @Test func isoWithOffsets() {
        let expected = Reference.micros(2017, 3, 23, 7, 15, 12)
        #expect(expected == 1_490_253_312_000_000)
        #expect(instant("2017-03-23T07:15:12Z") == expected)
        #expect(instant("2017-03-23T07:15:12z") == expected)
        #expect(instant("2017-03-23T08:15:12+01:00") == expected)
        #expect(instant("2017-03-23T08:15:12+0100") == expected)
        #expect(instant("2017-03-23T08:15:12+01") == expected)
        #expect(instant("2017-03-23 02:45:12-04:30") == expected)
        #expect(instant("2017-03-23 07:15:12 UTC") == expected)
        #expect(instant("2017-03-23 08:15:12 +01:00") == expected)
        // Space or T; surrounding spaces.
        #expect(instant("  2017-03-23 07:15:12  ") == expected)
        #expect(instant("2017/03/23 07:15:12") == expected)
    }

    @Test func fractionsOfASecond() {
        let base = Reference.micros(2017, 3, 23, 7, 15, 12)
        #expect(instant("2017-03-23T07:15:12.5Z") == base + 500_000)
        #expect(instant("2017-03-23T07:15:12.123456Z") == base + 123_456)
        #expect(instant("2017-03-23T07:15:12,25Z") == base + 250_000)
        // Digits past microseconds are cut, not rounded into the next second.
        #expect(instant("2017-03-23T07:15:12.9999999Z") == base + 999_999)
        #expect(instant("2017-03-23T07:15:12.Z") == nil)
    }

    @Test func withoutOffsetTheZoneDecides() {
        let oslo = ZoneRules.named("Europe/Oslo")!
        let p = TimestampParser.parse("2017-03-23 08:15")!
        #expect(p.offset == nil)
        #expect(p.hasTime)
        #expect(p.instant(in: oslo) == Reference.micros(2017, 3, 23, 8, 15, zone: "Europe/Oslo"))
        #expect(p.instant(in: .utc) == Reference.micros(2017, 3, 23, 8, 15))
        let date = TimestampParser.parse("2017-03-23")!
        #expect(!date.hasTime)
        #expect(date.instant(in: .utc) == Reference.micros(2017, 3, 23))
    }

    @Test func dayFirstForms() {
        #expect(instant("23/03/2017 08:15") == Reference.micros(2017, 3, 23, 8, 15))
        #expect(instant("23.03.2017") == Reference.micros(2017, 3, 23))
        #expect(instant("23.03.2017 08:15:30") == Reference.micros(2017, 3, 23, 8, 15, 30))
        #expect(instant("23-03-2017") == Reference.micros(2017, 3, 23))
        // Behaviour Mapper's CSV export: day first, a comma before the time.
        #expect(instant("04/05/2017, 23:21") == Reference.micros(2017, 5, 4, 23, 21))
        #expect(instant("4/5/2017 9:05") == Reference.micros(2017, 5, 4, 9, 5))
    }

    @Test func monthFirstWhenAsked() {
        #expect(instant("04/05/2017, 23:21", .monthFirst) == Reference.micros(2017, 4, 5, 23, 21))
        #expect(instant("03/23/2017", .monthFirst) == Reference.micros(2017, 3, 23))
        #expect(instant("03/23/2017", .dayFirst) == nil)
        #expect(TimestampParser.looksMonthFirst("03/23/2017"))
        #expect(!TimestampParser.looksMonthFirst("23/03/2017"))
        #expect(!TimestampParser.looksMonthFirst("04/05/2017"))
    }

    @Test func impossibleDatesAreRefused() {
        for text in ["31/02/2017", "29/02/2017", "2017-02-29", "2017-13-01", "2017-00-10", "00/01/2017", "2017-04-31",
                     "2017-03-23 25:00", "2017-03-23 12:60", "2017-03-23 12:30:61", "2017-03-23T24:30",
                     "2017-03-23T08:15+15:00", "2017-03-23T08:15+01:75", "2017-03-23T08:15 CET",
                     "20170323", "017-03-23", "2017-3-23x", "", "hello", "12:00"] {
            #expect(TimestampParser.parse(text) == nil, "\(text)")
        }
        #expect(instant("29/02/2016") == Reference.micros(2016, 2, 29))
        #expect(instant("2000-02-29") == Reference.micros(2000, 2, 29))
    }

    @Test func midnightWrittenAs24() {
        #expect(instant("2017-03-23 24:00") == Reference.micros(2017, 3, 24))
        #expect(instant("2017-12-31T24:00:00Z") == Reference.micros(2018, 1, 1))
        #expect(instant("2017-03-23 24:01") == nil)
    }

    @Test func leapSecondIsHeldAt59() {
        #expect(instant("2016-12-31T23:59:60Z") == Reference.micros(2016, 12, 31, 23, 59, 59))
    }
}

@Suite struct DurationParserTests {
    func seconds(_ s: String) -> Int64? { DurationParser.parse(s).map { $0.micros / 1_000_000 } }

    @Test func googleRouteText() {
        #expect(seconds("45 mins") == Int64(45 * 60))
        #expect(seconds("1 min") == 60)
        #expect(seconds("1 hour 5 mins") == Int64(3600 + 5 * 60))
        #expect(seconds("2 hours 1 min") == Int64(2 * 3600 + 60))
        #expect(seconds("2 days 3 hours") == Int64(2 * 86_400 + 3 * 3600))
        #expect(seconds("1 week") == Int64(7 * 86_400))
        #expect(seconds("30 secs") == 30)
        #expect(seconds("1 Hour, 5 Mins") == 3900)
        #expect(DurationParser.parse("45 mins")?.style == .words)
    }

    @Test func compactForms() {
        #expect(seconds("1h5m") == 3900)
        #expect(seconds("1h 5m") == 3900)
        #expect(seconds("90s") == 90)
        #expect(seconds("1.5 hours") == 5400)
        #expect(seconds("2d") == 172_800)
        #expect(seconds("5m 30s") == 330)
        // m alone may be metres (a road's length): not a duration.
        #expect(DurationParser.parse("8630 m") == nil)
        #expect(DurationParser.parse("15m") == nil)
        #expect(DurationParser.parse("15m ") == nil)
    }

    @Test func clockTimesPastMidnight() {
        #expect(seconds("25:10:00") == Int64(25 * 3600 + 600))
        #expect(DurationParser.parse("25:10:00")?.style == .clock)
        #expect(seconds("1:05") == 3900)  // H:MM
        #expect(seconds("0:00:30") == 30)
        #expect(seconds(" 7:30:15 ") == Int64(7 * 3600 + 30 * 60 + 15))
        #expect(seconds("100:00:00") == 360_000)
        // As the CSV and JSON writers write them: a sign, a fraction of a second.
        #expect(DurationParser.parse("-00:01:05")?.micros == -65_000_000)
        #expect(DurationParser.parse("01:05:00.5")?.micros == 3_900_500_000)
        #expect(DurationParser.parse("00:00:00.000001")?.micros == 1)
        #expect(DurationParser.parse("-25:10:00.25")?.micros == -(90_600_250_000))
    }

    @Test func notDurations() {
        for text in ["", "   ", "mins", "45", "45 parsecs", "1:75", "1:05:75", "1::05", ":05", "1:2:3:4", "five mins",
                     "1:05.5", "01:05:00.", "01:05:00.5x", "--1:00", "-",
                     "1 hour and 5 mins", "1000:00"] {
            #expect(DurationParser.parse(text) == nil, "\(text)")
        }
    }
}

@Suite struct NumberParserTests {
    /// Random decimal text, including long mantissas, exponents and 17-digit values.
    func randomDecimal(_ rng: inout SeededRandom) -> String {
        var s = ""
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: s = "-"
        case 1: s = "+"
        default: break
        }
        let intDigits = Int.random(in: 0...20, using: &rng)
        if intDigits == 0 { s += Bool.random(using: &rng) ? "0" : "" } else {
            s += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<intDigits { s += String(Int.random(in: 0...9, using: &rng)) }
        }
        let fracDigits = Int.random(in: 0...20, using: &rng)
        if fracDigits > 0 || s.last == nil || s.last == "-" || s.last == "+" {
            s += "."
            for _ in 0..<max(1, fracDigits) { s += String(Int.random(in: 0...9, using: &rng)) }
        }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            s += Bool.random(using: &rng) ? "e" : "E"
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: s += "-"
            case 1: s += "+"
            default: break
            }
            s += String(Int.random(in: 0...330, using: &rng))
        }
        return s
    }

    @Test func decimalsMatchSwiftsParserExactly() {
        var rng = SeededRandom(seed: 3)
        var compared = 0
        for _ in 0..<20_000 {
            let s = randomDecimal(&rng)
            guard let expected = Double(s) else { continue }
            let got = NumberParser.double(s)
            if got?.bitPattern != expected.bitPattern {
                Issue.record("\(s): \(String(describing: got)) != \(expected)")
            }
            compared += 1
        }
        #expect(compared > 19_000)
    }

    @Test func shortestAndSeventeenDigitTextOfRandomDoubles() {
        var rng = SeededRandom(seed: 4)
        for _ in 0..<5_000 {
            let v = Double(bitPattern: rng.next() & ~(0x7FF << 52) | (UInt64.random(in: 900...1150, using: &rng) << 52))
            for text in ["\(v)", String(format: "%.17g", v), String(format: "%.16e", v)] {
                let got = NumberParser.double(text)
                #expect(got?.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
            #expect(NumberParser.double("\(v)") == v)
        }
    }

    @Test func hardRoundingCases() {
        for s in ["9007199254740993", "9007199254740992.5", "0.1", "0.30000000000000004", "2.2250738585072011e-308",
                  "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "123456789012345678901234567890",
                  "1e22", "1e23", "8.589973e9", "0.000000000000000000000000000000000000001", "1e-400", "1e400",
                  "7.038531e-26", "5e-324", "2.4703282292062327e-324", "179769313486231580793728971405301e276"] {
            #expect(NumberParser.double(s)?.bitPattern == Double(s)?.bitPattern, "\(s)")
        }
    }

    @Test func formsAcceptedAndRefused() {
        #expect(NumberParser.double("0.5") == 0.5)
        #expect(NumberParser.double(".5") == 0.5)
        #expect(NumberParser.double("-.5") == -0.5)
        #expect(NumberParser.double("5.") == 5)
        #expect(NumberParser.double("0") == 0)
        #expect(NumberParser.double("-0")?.sign == .minus)
        #expect(NumberParser.double("6.02E23") == 6.02e23)
        for s in ["007", "00.5", "-007", "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "0x10", "inf", "nan", "1 ", " 1", "1_000"] {
            #expect(NumberParser.double(s) == nil, "\(s)")
        }
        func comma(_ s: String) -> Double? {
            var s = s
            return s.withUTF8 { NumberParser.double(UnsafeRawBufferPointer($0), decimalComma: true) }
        }
        #expect(comma("3,25") == 3.25)
        #expect(comma("-1234,5") == -1234.5)
        #expect(comma("3,2,5") == nil)
        #expect(comma("3.25") == 3.25)  // semicolon files may still write a point
        #expect(comma("3.2,5") == nil)
        #expect(comma("0,000000000000000000001234567") == 1.234567e-21)
    }

    @Test func integers() {
        #expect(NumberParser.int("0") == 0)
        #expect(NumberParser.int("-0") == 0)
        #expect(NumberParser.int("+42") == 42)
        #expect(NumberParser.int("9223372036854775807") == Int64.max)
        #expect(NumberParser.int("-9223372036854775808") == Int64.min)
        for s in ["9223372036854775808", "-9223372036854775809", "9999999999999999999", "18446744073709551616",
                  "99999999999999999999", "007", "01", "-01", "", "-", "+", "1.0", "1e3", "12a", " 12", "١٢"] {
            #expect(NumberParser.int(s) == nil, "\(s)")
        }
        var rng = SeededRandom(seed: 5)
        for _ in 0..<5_000 {
            let v = Int64.random(in: Int64.min...Int64.max, using: &rng) >> Int64.random(in: 0...62, using: &rng)
            #expect(NumberParser.int(String(v)) == v)
        }
    }
}

@Suite struct ZoneRulesTests {
    let oslo = ZoneRules.named("Europe/Oslo")!

    @Test func osloAroundTheTransitionsOf2017() {
        let spring = Reference.seconds(2017, 3, 26, 1, 0, 0)  // 02:00 CET becomes 03:00 CEST
        let autumn = Reference.seconds(2017, 10, 29, 1, 0, 0) // 03:00 CEST becomes 02:00 CET
        #expect(oslo.offsetSeconds(atSecond: spring - 1) == 3600)
        #expect(oslo.offsetSeconds(atSecond: spring) == 7200)
        #expect(oslo.offsetSeconds(atSecond: autumn - 1) == 7200)
        #expect(oslo.offsetSeconds(atSecond: autumn) == 3600)
        #expect(oslo.offsetSeconds(atMicros: spring * 1_000_000 - 1) == 3600)
        #expect(!oslo.isFixed)
        // Wall clock either side of the spring change.
        #expect(LocalDateTime(wallMicros: oslo.wallMicros(spring * 1_000_000 - 1_000_000)).hour == 1)
        #expect(LocalDateTime(wallMicros: oslo.wallMicros(spring * 1_000_000)).hour == 3)
    }

    @Test func agreesWithFoundationAtRandomInstants() {
        var rng = SeededRandom(seed: 6)
        for name in ["Europe/Oslo", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/London", "America/Sao_Paulo", "Europe/Moscow", "Asia/Pyongyang", "Pacific/Apia", "America/Caracas", "Europe/Minsk", "Africa/Casablanca", "Asia/Tehran"] {
            let rules = ZoneRules.named(name)!
            let tz = TimeZone(identifier: name)!
            for _ in 0..<300 {
                let s = Int64.random(in: 0...2_100_000_000, using: &rng)
                #expect(Int(rules.offsetSeconds(atSecond: s)) == tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))), "\(name) \(s)")
            }
        }
    }

    @Test func cursorAgreesWithBinarySearch() {
        var rng = SeededRandom(seed: 7)
        var cursor = oslo.makeCursor()
        var t = Reference.micros(2016, 1, 1)
        for _ in 0..<3000 {
            // Mostly forward in small steps, sometimes a jump back.
            t += Int64.random(in: -3_600_000_000...(40 * 3_600_000_000), using: &rng)
            #expect(cursor.wall(t) == oslo.wallMicros(t))
        }
    }

    @Test func wallTimeToInstantOrdinaryAndEdges() {
        func wall(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int) -> Int64 {
            LocalDateTime(year: y, month: m, day: d, hour: h, minute: mi).wallMicros
        }
        #expect(oslo.instant(wallMicros: wall(2017, 7, 1, 12, 0)) == Reference.micros(2017, 7, 1, 10, 0))
        #expect(oslo.instant(wallMicros: wall(2017, 1, 1, 12, 0)) == Reference.micros(2017, 1, 1, 11, 0))
        // Gap: 02:30 on 26 March 2017 does not exist; read with the offset before the change (+01:00).
        #expect(oslo.instant(wallMicros: wall(2017, 3, 26, 2, 30)) == Reference.micros(2017, 3, 26, 1, 30))
        // Overlap: 02:30 on 29 October 2017 happens twice; the earlier is 00:30Z (+02:00).
        #expect(oslo.instant(wallMicros: wall(2017, 10, 29, 2, 30)) == Reference.micros(2017, 10, 29, 0, 30))
        // Either side of the overlap is unambiguous.
        #expect(oslo.instant(wallMicros: wall(2017, 10, 29, 1, 59)) == Reference.micros(2017, 10, 28, 23, 59))
        #expect(oslo.instant(wallMicros: wall(2017, 10, 29, 3, 0)) == Reference.micros(2017, 10, 29, 2, 0))
        // The same rules west of Greenwich.
        let ny = ZoneRules.named("America/New_York")!
        #expect(ny.instant(wallMicros: wall(2017, 3, 12, 2, 30)) == Reference.micros(2017, 3, 12, 7, 30))
        #expect(ny.instant(wallMicros: wall(2017, 11, 5, 1, 30)) == Reference.micros(2017, 11, 5, 5, 30))
    }

    @Test func everyExistingWallTimeMapsBack() {
        // For each instant of 2017 in 10-minute steps, its wall time must read back to the
        // same instant, except in the autumn overlap where the earlier reading wins.
        let start = Reference.micros(2017, 1, 1), end = Reference.micros(2018, 1, 1)
        let overlap = Reference.micros(2017, 10, 29, 1, 0)..<Reference.micros(2017, 10, 29, 2, 0)
        var t = start
        while t < end {
            let back = oslo.instant(wallMicros: oslo.wallMicros(t))
            if overlap.contains(t) { #expect(back == t - 3_600_000_000) } else if back != t {
                Issue.record("\(t) read back as \(back)"); return
            }
            t += 600_000_000
        }
    }

    @Test func fixedOffsetsAndNames() {
        #expect(ZoneRules.named("+05:30")?.offsetSeconds(atSecond: 0) == 19_800)
        #expect(ZoneRules.named("+0530")?.offsetSeconds(atSecond: 0) == 19_800)
        #expect(ZoneRules.named("-0530")?.offsetSeconds(atSecond: 0) == -19_800)
        #expect(ZoneRules.named("UTC+2")?.offsetSeconds(atSecond: 0) == 7200)
        #expect(ZoneRules.named("+05:30")?.identifier == "+05:30")
        #expect(ZoneRules.named("+05:30")?.isFixed == true)
        let fixed = ZoneRules.named("+05:30")!
        #expect(fixed.instant(wallMicros: LocalDateTime(year: 2017, month: 1, day: 1, hour: 5, minute: 30).wallMicros) == Reference.micros(2017, 1, 1))
        #expect(ZoneRules.named("UTC") === ZoneRules.utc)
        #expect(ZoneRules.named("utc") === ZoneRules.utc)
        for bad in ["Mars/Olympus", "Europe/Osloo", "+15:00", "+05:75", "+", "", "UTC+x"] {
            #expect(ZoneRules.named(bad) == nil, "\(bad)")
        }
    }
}

@Suite struct TimeTextTests {
    let oslo = ZoneRules.named("Europe/Oslo")!

    @Test func isoWithTheZonesOffset() {
        let t = Reference.micros(2017, 3, 23, 7, 15, 12)
        #expect(TimeText.iso(t, zone: oslo) == "2017-03-23T08:15:12+01:00")
        #expect(TimeText.iso(t, zone: .utc) == "2017-03-23T07:15:12Z")
        #expect(TimeText.iso(t + 500_000, zone: .utc) == "2017-03-23T07:15:12.5Z")
        #expect(TimeText.iso(t + 1, zone: .utc) == "2017-03-23T07:15:12.000001Z")
        #expect(TimeText.iso(Reference.micros(2017, 7, 1, 10), zone: oslo) == "2017-07-01T12:00:00+02:00")
        #expect(TimeText.iso(t, zone: ZoneRules.named("-04:30")!) == "2017-03-23T02:45:12-04:30")
        #expect(TimeText.iso(-1_000_000, zone: .utc) == "1969-12-31T23:59:59Z")
        // Dates and coarser buckets are written as the calendar value.
        #expect(TimeText.iso(Reference.micros(2017, 3, 22, 23), zone: oslo, unit: .day) == "2017-03-23")
    }

    @Test func displayAtEachUnit() {
        let t = Reference.micros(2020, 12, 31, 13, 45, 30)
        #expect(TimeText.display(t, zone: .utc, unit: .automatic) == "2020-12-31 13:45:30")
        #expect(TimeText.display(t, zone: .utc, unit: .minute) == "2020-12-31 13:45")
        #expect(TimeText.display(t, zone: .utc, unit: .day) == "2020-12-31")
        #expect(TimeText.display(t, zone: .utc, unit: .week) == "2020-W53")
        #expect(TimeText.display(t, zone: .utc, unit: .month) == "2020-12")
        #expect(TimeText.display(t, zone: .utc, unit: .year) == "2020")
        // In the zone: 23:30 UTC on 31 December is already next year in Oslo.
        #expect(TimeText.display(Reference.micros(2020, 12, 31, 23, 30), zone: oslo, unit: .year) == "2021")
        #expect(TimeText.display(Reference.micros(1850, 6, 1), zone: .utc, unit: .day) == "1850-06-01")
    }

    @Test func durationsForPeople() {
        let s: Int64 = 1_000_000
        #expect(TimeText.duration(45 * 60 * s) == "45 min")
        #expect(TimeText.duration(3900 * s) == "1 h 05 min")
        #expect(TimeText.duration((2 * 86_400 + 3 * 3600) * s) == "2 d 3 h")
        #expect(TimeText.duration(12_500_000) == "12.5 s")
        #expect(TimeText.duration(30 * s) == "30 s")
        #expect(TimeText.duration(-90 * s) == "-1 min 30 s")
        #expect(TimeText.duration((25 * 3600 + 600) * s, unit: .clock) == "25:10:00")
        #expect(TimeText.duration(-65 * s, unit: .clock) == "-00:01:05")
        #expect(TimeText.isoDuration(3900 * s) == "PT1H5M")
        #expect(TimeText.isoDuration(0) == "PT0S")
        #expect(TimeText.isoDuration(1_500_000) == "PT1.5S")
    }

    @Test func clockTextReadsBackAsTheSameDuration() {
        var rng = SeededRandom(seed: 8)
        for _ in 0..<500 {
            let secs = Int64.random(in: 0...(99 * 3600), using: &rng)
            let text = TimeText.duration(secs * 1_000_000, unit: .clock)
            #expect(DurationParser.parse(text)?.micros == secs * 1_000_000, "\(text)")
        }
    }

    @Test func isoTextReadsBackAsTheSameInstant() {
        var rng = SeededRandom(seed: 9)
        for zone in [ZoneRules.utc, oslo, ZoneRules.named("America/New_York")!, ZoneRules.named("+05:30")!] {
            for _ in 0..<300 {
                let t = Int64.random(in: -2_000_000_000...2_000_000_000, using: &rng) * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &rng)
                let text = TimeText.iso(t, zone: zone)
                #expect(TimestampParser.parse(text)?.instant(in: .utc) == t, "\(text)")
            }
        }
    }
}
