import Foundation
import Testing
@testable import UTQCore

/// The analytic layer on the shipped data: shares and windows, the thesis's table wide,
/// directions on the circle, text into values, range joins, and the messages for what goes
/// wrong. (The differential oracle checks the same constructs against DuckDB on random data.)
@Suite struct AnalyticTests {
    func market() throws -> Session {
        let s = makeSession(zone: ZoneRules.named("Europe/Oslo")!)
        #expect(s.run("load datasets/market.json").isEmpty)
        return s
    }

    @Test func theTorgetTableWide() throws {
        let t = try market().table("count by legend, hour | pivot hour")
        #expect(t.columnNames == ["legend", "8", "12", "16", "19", "23"])
        #expect(t.strings("legend").first == "Walking")
        #expect(t.strings("8").first == "31" && t.strings("12").first == "132")
        // Every hour's column adds up to the session's entries: 36, 154, 145, 103, 78.
        let totals = ["8", "12", "16", "19", "23"].map { c in t.values(c).reduce(Int64(0)) { if case .int(let v) = $1 { return $0 + v } else { return $0 } } }
        #expect(totals == [36, 154, 145, 103, 78])
        // Missing combinations of a count are 0, of a mean null.
        #expect(t.strings("8").contains("0"))
        let mean = try market().table("avg x by legend, hour | pivot hour")
        #expect(mean.strings("8").contains("null"))
    }

    @Test func directionsOnTheCircle() throws {
        let t = try market().table("where angle is not null | circmean angle, avg angle by legend")
        let bike = try #require(t.strings("legend").firstIndex(of: "Bike"))
        guard case .double(let mean) = t.values("circmean_angle")[bike] else { Issue.record("circmean"); return }
        #expect(abs(mean - 160.8) < 0.05, "\(mean)")
        guard case .double(let plain) = t.values("avg_angle")[bike] else { Issue.record("avg"); return }
        #expect(abs(plain - 17.3) < 0.05)
        // 179 and -179 point the same way; their plain mean points the other.
        let s = makeSession()
        s.workspace.put([Table(name: "a", columns: [Column.doubles("angle", [179, -179, nil])])], makeCurrent: true)
        guard case .double(let c) = try s.table("circmean angle").values("circmean_angle")[0] else { Issue.record("c"); return }
        #expect(abs(abs(c) - 180) < 1e-9)
        #expect(try s.table("avg angle").values("avg_angle") == [.double(0)])
    }

    @Test func sharesAndWindows() throws {
        let s = try market()
        let shares = try s.table("count by legend | let share = count / sum(count) | sum share")
        guard case .double(let one) = shares.values("sum_share")[0] else { Issue.record("share"); return }
        #expect(abs(one - 1) < 1e-12)
        let byHour = try s.table("count by legend, hour | let share = count / sum(count) by hour | sum share by hour")
        #expect(byHour.values("sum_share").allSatisfy { if case .double(let v) = $0 { return abs(v - 1) < 1e-12 } else { return false } })
        let w = try s.table("sort time | let gap = time - prev(time), nth = row_number(), ahead = next(x, 2), r = rank(x), rs = running_sum(x) by legend | where legend = \"Bike\" | limit 3")
        #expect(w.strings("nth") == ["1", "2", "3"])
        #expect(w.strings("gap").first == "null")
        #expect(w.column("gap")?.type == .duration)
        let xs = w.values("x").compactMap(\.doubleValue)
        #expect(w.values("rs").compactMap(\.doubleValue) == [xs[0], xs[0] + xs[1], xs[0] + xs[1] + xs[2]])
        let bikes = try s.table("where legend = \"Bike\" | sort time | select x")
        #expect(w.values("ahead").first == bikes.values("x")[2])
        // Ranks: 1 is the largest x among the bikes.
        let top = try s.table("let r = rank(x) by legend | where legend = \"Bike\" and r = 1")
        #expect(top.values("x") == (try s.table("where legend = \"Bike\" | max x").values("max_x")))
    }

    @Test func textIntoValuesAndClockTimes() throws {
        let s = try market()
        let t = try s.table("select lat = number(split(\"69.648,19.0008\", \",\", 1)), lng = number(split(\"69.648,19.0008\", \",\", 2)), km = number(extract(\"4.1 km\", \"[0-9.]+\")), when = parse_time(concat(text(20180802), \"0820\"), \"%Y%m%d%H%M\") | limit 1")
        #expect(t.values("lat") == [.double(69.648)] && t.values("lng") == [.double(19.0008)] && t.values("km") == [.double(4.1)])
        #expect(t.strings("when") == ["2018-08-02T08:20:00+02:00"])
        // Clock times in the table's zone.
        let lunch = try s.table("where timeofday between \"12:00\" and \"12:20\" | count").strings("count")
        #expect(lunch == (try s.table("where hour = 12 | count").strings("count")))
        let d = try #require(s.failure("where time > \"12:00\""))
        #expect(d.hint == "to compare the time of day, write: timeofday > \"12:00\"")
        // A text that does not fit the format is null, with one warning naming it.
        var warnings: [String] = []
        s.run("select t = parse_time(legend, \"%Y\") | limit 3") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings == ["parse_time: \"Walking\" does not fit %Y; such values are null"])
        // A pivot's probe runs its input once (for its columns) and keeps the rows for the pivot;
        // what that run noted is still told.
        warnings = []
        s.run("let t = parse_time(legend, \"%Y\") | count by legend, t | pivot legend") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings == ["parse_time: \"Walking\" does not fit %Y; such values are null"])
    }

    @Test func rangeJoinsAndUnion() throws {
        let s = try market()
        #expect(s.run("load datasets/market-weather.csv as weather; use market").isEmpty)
        let t = try s.table("join weather on time between start and end | count by session")
        #expect(t.strings("count") == ["36", "154", "145", "103", "78"])
        // One entry falls on the last minute of its session: between holds it, < end does not.
        let strict = try s.table("join weather on time >= start and time < end | count")
        #expect(strict.strings("count") == ["515"])
        let u = try s.table("where legend = \"Bike\" | select time, legend | union weather | count")
        #expect(u.strings("count") == ["26"])
    }

    @Test func whatGoesWrongIsSaidClearly() throws {
        let s = try market()
        #expect(s.failure("let g = prev(lgend) by legend")?.kind == .unknownColumn("lgend", suggestion: "legend", columns: ["time", "legend", "icon", "x", "y", "angle", "note", "tag"]))
        #expect(s.failure("count by legend, hour | pivot hours")?.message.hasPrefix("unknown column \"hours\"") == true)
        let many = Table(name: "many", columns: [Column.ints("k", (0..<2500).map { Int64($0) }), Column.ints("v", (0..<2500).map { Int64($0) })])
        s.workspace.put([many], makeCurrent: false)
        #expect(s.failure("many | pivot k values v")?.message == "pivot would make 2,500 columns, one for each value of k; it makes at most 2,000")
        #expect(s.failure("count by legend | union market.legends")?.message == nil)
        let clash = Table(name: "clash", columns: [Column.texts("count", ["x"])])
        s.workspace.put([clash], makeCurrent: false)
        #expect(s.failure("count by legend | union clash")?.message == "union cannot put count together: it is integer in the rows before union and text in clash")
        #expect(s.failure("select r = extract(note, \"(ab\")")?.message == "\"(ab\" is not a valid regular expression: expected ')' (at character 1)")
        #expect(s.failure("join market.legends on legend < icon")?.message == "cannot compare legend (text) with icon (integer)")
        #expect(s.failure("let y = x * 2 by legend")?.message.hasPrefix("let … by needs a function that looks at the group") == true)
        #expect(s.failure("where prev(x) > 1")?.message == "prev looks at the rows around each row; it belongs in let")
        #expect(s.failure("select t = parse_time(note, \"%Q\")")?.message == "%Q is not a field parse_time knows")
        // A where that keeps nothing says why it may have.
        var notes: [String] = []
        s.run("where legend = \"bike\" | count by hour") { _, o in for case .info(let i) in o.outputs { notes.append(i) } }
        #expect(notes == ["legend has no value \"bike\" — did you mean \"Bike\"?"])
    }
}
