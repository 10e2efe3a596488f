import Testing
@testable import UTQCore

/// How numbers and durations print in tables: one format per column, chosen from its values.
@Suite struct CellFormatTests {
    func shown(_ values: [Double]) -> [String] {
        let d = CellFormat.decimals(for: values)
        return values.map { NumberText.fixed($0, decimals: d) }
    }

    @Test func numbersShowUpToFourSignificantDecimals() {
        // Integers as integers; others to 4 decimals, trailing zeros that say nothing dropped.
        #expect(shown([3, 12]) == ["3", "12"])
        #expect(shown([1.96299123]) == ["1.963"])
        #expect(shown([16.61, 2.5]) == ["16.61", "2.50"])
        #expect(shown([401.03658, 113.5]) == ["401.0366", "113.5000"])
        // Below 1 the zeros after the point are not counted.
        #expect(shown([0.000123456]) == ["0.0001235"])
        // More where different values would print alike.
        #expect(shown([1.00004, 1.00001]) == ["1.00004", "1.00001"])
        #expect(shown([2.0000000001, 2]) == ["2.0000000001", "2.0000000000"])
        // Equal values need no more.
        #expect(shown([1.234567, 1.234567]) == ["1.2346", "1.2346"])
    }

    func style(_ values: [Int64]) -> [String] {
        let s = DurationStyle(values)
        return values.map(s.text)
    }

    @Test func durationsShareOneFormatPerColumnAndKeepTheirSeconds() {
        let s: Int64 = 1_000_000, m = 60 * s, h = 60 * m
        // 1:03:58 keeps its seconds, and the short one lines up with it.
        #expect(style([h + 3 * m + 58 * s, 12 * m]) == ["1 h 03 min 58 s", "0 h 12 min 00 s"])
        #expect(style([25 * m + 37 * s, 6 * m + 27 * s]) == ["25 min 37 s", "6 min 27 s"])
        // Whole minutes and hours say no seconds.
        #expect(style([90 * m, 2 * h]) == ["1 h 30 min", "2 h 00 min"])
        #expect(style([2 * h, 5 * h]) == ["2 h", "5 h"])
        #expect(style([30 * s, 1_500_000]) == ["30.0 s", "1.5 s"])
        // Past a minute, parts of a second round away.
        #expect(style([12 * m + 54_379_000, 13 * m + 4 * s]) == ["12 min 54 s", "13 min 04 s"])
        #expect(style([3 * 24 * h + 2 * h]) == ["3 d 02 h"])
        #expect(style([-(5 * m)]) == ["-5 min"])
        #expect(style([Int64.min]).count == 1)
    }

    @Test func notesAndSummariesFollowTheCharset() throws {
        let s = makeSession()
        var info: [String] = []
        s.run("set charset ascii; load datasets/rides.csv") { _, o in
            for output in o.outputs { if case .info = output { info.append(OutputText.text(output, settings: s.settings)) } }
        }
        let summary = try #require(info.last)
        #expect(summary.hasPrefix("rides: 3,200 rows, 20 columns - 2020-02-17 01:17 -> 2020-04-05 22:35 (UTC)"))
        #expect(summary.unicodeScalars.allSatisfy { $0.isASCII })
    }
}

/// `month = "March"` means March of any year, as `weekday = "Saturday"` means Saturdays.
@Suite struct MonthNameTests {
    @Test func aMonthsNameMatchesThatMonth() throws {
        let s = makeSession()
        #expect(s.failure("load datasets/rides.csv") == nil)
        let march = try s.table("where month = \"2020-03\" | count").strings("count")
        #expect(march != ["0"])
        for name in ["March", "march", "Mar", " MARCH "] {
            #expect(try s.table("where month = \"\(name)\" | count").strings("count") == march, "\(name)")
        }
        let all = try s.table("count").strings("count")
        let notMarch = try s.table("where month != \"March\" | count").strings("count")
        #expect(Int(notMarch[0])! + Int(march[0])! == Int(all[0])!)
        // The month of the year as a bucket of its own, January first.
        #expect(try s.table("count by month_of_year").strings("month_of_year") == ["Feb", "Mar", "Apr"])
        #expect(try s.table("where month_of_year = \"April\" | count").strings("count") == (try s.table("where month = \"2020-04\" | count").strings("count")))
        // Before and after are not guessed from a name.
        #expect(s.failure("where month < \"March\" | count") != nil)
    }
}
