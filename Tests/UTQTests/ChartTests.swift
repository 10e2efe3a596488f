import Foundation
import Testing
@testable import UTQCore

/// Charts drawn from the market-square study, checked by measuring what was drawn.
@Suite struct ChartTests {
    /// A session with the market study loaded, drawing at a fixed size.
    func market(charset: RenderOptions.Charset = .unicode, width: Int = 100) throws -> Session {
        let s = makeSession(zone: .utc)
        s.settings.render = RenderOptions(width: width, height: 24, maxRows: 40, charset: charset, color: false)
        try s.load("load datasets/market.json")
        return s
    }

    /// The text of the chart a line draws, failing on an error or on a missing chart.
    func chart(_ s: Session, _ line: String) throws -> String {
        var text: String? = nil
        var failure: Diagnostic? = nil
        s.run(line, name: "<test>") { _, outcome in
            if let e = outcome.error { failure = e }
            for case .chart(let c) in outcome.outputs { text = c.text }
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        guard let text else { throw TestError(description: "no chart from: \(line)") }
        return text
    }

    /// Length of a bar drawn with full and partial blocks, in eighths of a cell.
    func eighths(_ line: Substring) -> Int {
        let partial: [Character: Int] = ["▏": 1, "▎": 2, "▍": 3, "▌": 4, "▋": 5, "▊": 6, "▉": 7, "█": 8]
        return line.reduce(0) { $0 + (partial[$1] ?? 0) }
    }

    func counts(_ s: Session, _ line: String, key: String) throws -> [String: Double] {
        let t = try s.table(line)
        var out: [String: Double] = [:]
        for (k, v) in zip(t.strings(key), t.strings("count")) { out[k] = Double(v) }
        return out
    }

    // MARK: the examples

    @Test func barLengthsFollowTheSessionTotals() throws {
        let s = try market()
        let totals = try counts(s, "count by hour", key: "hour")
        let text = try chart(s, "count by hour | chart bar")
        var lengths: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard let hour = fields.first.flatMap({ Int($0) }) else { continue }
            lengths[hour] = eighths(line)
        }
        #expect(Set(lengths.keys) == Set(totals.keys.compactMap { Int($0) }))
        let longest = try #require(lengths.max { $0.value < $1.value })
        #expect(longest.key == 12)
        // Every bar is its total's share of the longest, to within an eighth of a cell.
        let top = try #require(totals["12"])
        for (hour, length) in lengths {
            let expected = try #require(totals[String(hour)]) / top * Double(longest.value)
            #expect(abs(Double(length) - expected) <= 1, "hour \(hour): \(length) eighths, expected \(expected)")
        }
        let ratio = Double(lengths[8]!) / Double(lengths[12]!)
        #expect(abs(ratio - totals["8"]! / top) < 0.01)
        // The value is printed at the end of each bar.
        for line in text.split(separator: "\n") where line.hasPrefix("  08") {
            #expect(line.hasSuffix(" " + String(Int(totals["8"]!))))
        }
    }

    @Test func stackedBarsAddUpAndHaveAKey() throws {
        let s = try market()
        let text = try chart(s, "count by hour, legend | chart bar")
        let lines = text.split(separator: "\n")
        let key = try #require(lines.last)
        for legend in try s.table("count by legend").strings("legend") { #expect(key.contains(legend)) }
        // Each part has its own fill; the 12 o'clock bar holds Walking's fill and others.
        let noon = try #require(lines.first { $0.hasPrefix("  12") })
        #expect(noon.contains("█") && noon.contains("▒"))
        #expect(noon.hasSuffix(" 154"))
    }

    @Test func groupedBarsLabelEachPart() throws {
        let s = try market()
        let text = try chart(s, "count by hour, legend | chart bar grouped")
        let rows = try s.table("count by hour, legend").rowCount
        // A header and one line per row of the table.
        #expect(text.split(separator: "\n").count == rows + 1)
        #expect(text.contains("Dog walking"))
    }

    @Test func topKeepsTheLargestAndAddsUpTheRest() throws {
        let s = try market()
        let all = try counts(s, "count by legend", key: "legend")
        let text = try chart(s, "count by legend | chart bar top 3")
        let kept = all.sorted { $0.value > $1.value }.prefix(3)
        let rest = all.values.reduce(0, +) - kept.map(\.value).reduce(0, +)
        let other = try #require(text.split(separator: "\n").first { $0.hasPrefix("other") })
        #expect(other.hasSuffix(" " + String(Int(rest))))
        for (legend, _) in kept { #expect(text.contains(legend)) }
        #expect(text.contains("other: the 4 smaller legend values added up"))
    }

    @Test func heatmapHasARowPerLegendAndAScale() throws {
        let s = try market()
        let legends = try s.table("count by legend").strings("legend")
        let text = try chart(s, "count by legend, hour | chart heatmap")
        let lines = text.split(separator: "\n").map(String.init)
        for legend in legends { #expect(lines.contains { $0.hasPrefix(legend + " ") }) }
        let header = try #require(lines.first)
        for hour in ["08", "12", "16", "19", "23"] { #expect(header.contains(hour)) }
        #expect(lines.contains { $0.hasPrefix("count") && $0.contains("█") })
        // Walking at noon is the largest cell: the darkest shade.
        let walking = try #require(lines.first { $0.hasPrefix("Walking") })
        #expect(walking.contains("█"))
        let dog = try #require(lines.first { $0.hasPrefix("Dog walking") })
        #expect(!dog.contains("█") && dog.contains("░"))
        // The shades are quarters of the cells, so the other legends are not all the lowest:
        // Bike's 13 at 16:00 is in the third quarter. Numbers stand beside their shades.
        let bike = try #require(lines.first { $0.hasPrefix("Bike") })
        #expect(bike.contains("▓▓  13") && bike.contains("▒▒   5"))
        #expect(walking.contains("██ 132"))
        #expect(lines.contains { $0.contains("░ 1   ▒ 4–5   ▓ 6–13   █ 31–132") })
        #expect(text.contains("shades: quarters of the cells"))
        // Too narrow for numbers: shades alone.
        s.settings.render.width = 30
        let narrow = try chart(s, "count by legend, hour | chart heatmap")
        #expect(!narrow.contains("132") || narrow.contains("31–132"))
        #expect(try #require(narrow.split(separator: "\n").first { $0.hasPrefix("Walking") }).allSatisfy { !$0.isNumber })
    }

    /// Bars and columns start at zero; a line may not, and then says so.
    @Test func aLineSaysWhenItsAxisDoesNotStartAtZero() throws {
        let s = try market()
        let high = try chart(s, "count by every 1m | where count > 20 | chart line")
        #expect(high.contains("y axis from 23, not 0: changes look larger than they are"))
        let low = try chart(s, "count by every 10m | chart line")
        #expect(!low.contains("y axis from"))
        #expect(!(try chart(s, "count by every 1m | where count > 20 | chart column")).contains("y axis from"))
    }

    @Test func mapKeepsTheSquaresProportions() throws {
        let s = try market()
        s.settings.render.height = 40
        let text = try chart(s, "chart map")
        let lines = text.split(separator: "\n").map(String.init)
        let top = try #require(lines.first)
        #expect(top.hasPrefix("┌") && top.hasSuffix("┐"))
        let inside = lines.prefix { !$0.hasPrefix("└") }.dropFirst()
        let columns = TextWidth.of(top) - 2, rows = inside.count
        // Cells are about twice as tall as wide: columns / (2 × rows) ≈ 824 / 768.
        let aspect = Double(columns) / Double(2 * rows)
        #expect(abs(aspect - 824.0 / 768.0) < 0.08, "aspect \(aspect)")
        let drawn = inside.map { $0.filter { "●○◆◇■□▲△★☆".contains($0) }.count }.reduce(0, +)
        #expect(drawn > 100)
        #expect(text.contains("● Walking (451)"))
    }

    @Test func mapPutsTopLeftEntriesTopLeft() throws {
        let s = try market()
        // The entry nearest the origin, drawn alone, lands in the first rows and columns.
        let text = try chart(s, "sort x + y | limit 1 | chart map")
        let lines = text.split(separator: "\n").map(String.init)
        let row = try #require(lines.firstIndex { $0.contains("●") || $0.contains("○") || $0.contains("□") })
        #expect(row <= 3)
        let line = lines[row]
        let column = line.distance(from: line.startIndex, to: line.firstIndex { "●○□".contains($0) }!)
        #expect(column <= 5)
    }

    @Test func arrowsPointWhereTheEntryWasGoing() throws {
        let s = try market()
        // angle 0 is east, 90 is down the screen.
        #expect(Glyphs(ascii: false).arrow(0) == "→")
        #expect(Glyphs(ascii: false).arrow(90) == "↓")
        #expect(Glyphs(ascii: false).arrow(-90) == "↑")
        #expect(Glyphs(ascii: false).arrow(180) == "←")
        #expect(Glyphs(ascii: true).arrow(-179.5) == "<")
        let text = try chart(s, "where hour = 12 and angle is not null | chart map arrows")
        #expect(text.contains { "→↘↓↙←↖↑↗".contains($0) })
    }

    @Test func geographicMapsPutNorthUp() throws {
        let s = makeSession()
        try s.load("load Tests/Golden/data/stops-small.csv as stops")
        let text = try chart(s, "stops | chart map line")
        let lines = text.split(separator: "\n").map(String.init)
        // Sunny Hill (the most northern and eastern stop, Line 4) is on the top row, right.
        let row = try #require(lines.firstIndex { $0.contains("○") })
        #expect(row == 1)
        #expect(text.contains("north up"))
    }

    // MARK: time keys

    @Test func timeKeysGetTimeLabels() throws {
        let s = try market()
        let line = try chart(s, "where hour = 12 | count by every 1m | chart line")
        #expect(line.contains("12:12") && line.contains("time on 2017-03-23"))
        #expect(!line.contains("12:12:00"))
        let bars = try chart(s, "count by hour | chart column")
        #expect(bars.contains("08") && bars.contains("23"))
        let days = try chart(s, "count by weekday | chart bar")
        #expect(days.contains("Thu"))
    }

    @Test func calendarKeysLeaveOutTheYearTheyShare() throws {
        let path = try temporaryFile("rides-\(UUID().uuidString).csv", """
            t,kind,ride
            2024-01-03 10:00,walk,00:07:00
            2024-01-10 11:00,bike,00:21:30
            2024-02-20 12:00,walk,00:12:00
            2024-03-05 09:00,car,01:02:00
            """)
        let s = makeSession()
        try s.load("load \(path) as rides")
        let weeks = try chart(s, "rides | count by week | chart column")
        #expect(weeks.contains("W01") && weeks.contains("W10") && weeks.contains("week in 2024"))
        #expect(!weeks.contains("2024-W"))
        let months = try chart(s, "rides | count by month | chart bar")
        #expect(months.contains("\nJan ") && months.contains("\nMar ") && months.hasPrefix("month in 2024"))
        // Durations bin by whole clock steps and read as times.
        let rides = try chart(s, "rides | chart hist ride bins 4")
        #expect(rides.contains("bins of 15 min") && rides.contains("30 min"))
    }

    @Test func fillShowsTheEmptyHours() throws {
        let s = try market()
        let gaps = try chart(s, "count by hour | chart spark")
        let filled = try chart(s, "count by hour | fill | chart spark")
        func spark(_ text: String) -> String {
            let line = text.split(separator: "\n")[1]
            return String(line.dropFirst(7).prefix(16))
        }
        // Hours 8 … 23 each have a place: blank without fill, the lowest level after it.
        #expect(spark(gaps).count == 16 && spark(gaps).contains(" "))
        #expect(!spark(filled).contains(" ") && spark(filled).contains("▁"))
        let columns = try chart(s, "count by hour | fill | chart column")
        for hour in 8...23 { #expect(columns.contains(hour < 10 ? "0\(hour)" : "\(hour)")) }
    }

    @Test func histogramCountsEveryValue() throws {
        let s = try market()
        let text = try chart(s, "market | chart hist angle bins 24")
        let valued = try s.table("where angle is not null | count").strings("count")[0]
        #expect(text.contains("angle · \(valued) values in 24 bins of 15"))
        let nulls = try s.table("where angle is null | count").strings("count")[0]
        #expect(text.contains("left out: \(nulls) null angle values"))
    }

    // MARK: sizes, character sets, colour

    @Test(arguments: [RenderOptions.Charset.ascii, .unicode])
    func everyKindFitsTheWidthAndTheCharset(_ charset: RenderOptions.Charset) throws {
        for width in [40, 100, 150] {
            let s = try market(charset: charset, width: width)
            for line in ChartTests.everyKind {
                let text = try chart(s, line)
                for row in text.split(separator: "\n") {
                    #expect(TextWidth.of(String(row)) <= width, "\(line) at \(width): \(row)")
                }
                if charset == .ascii {
                    #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(line) prints bytes that are not ASCII")
                } else {
                    #expect(text.unicodeScalars.contains { $0.value > 0x7F }, "\(line) draws no Unicode")
                }
            }
        }
    }

    static let everyKind = [
        "count by hour | chart bar", "count by hour, legend | chart bar", "count by hour, legend | chart bar grouped",
        "count by hour | fill | chart column", "count by hour, legend | chart column", "count by hour, legend | chart column grouped",
        "count by hour | fill | chart line", "count by legend, hour | fill | chart line", "where hour = 12 | count by every 1m | chart line",
        "count by legend, hour | chart spark", "chart hist angle bins 24", "chart hist x",
        "count by legend, hour | chart heatmap", "count by weekday, hour | chart heatmap",
        "chart map", "where hour = 12 | chart map arrows",
    ]

    @Test func labelsAreFoldedToASCII() throws {
        let s = makeSession()
        s.settings.render.charset = .ascii
        try s.load("load Tests/Golden/data/stops-small.csv as stops")
        let text = try chart(s, "stops | chart bar boardings title \"Påstigninger – Prishtinë\"")
        #expect(text.hasPrefix("Pastigninger - Prishtine\n"))
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func colourOnlyWhenAskedFor() throws {
        let s = try market()
        #expect(!(try chart(s, "count by hour, legend | chart bar")).contains("\u{1B}"))
        s.settings.render.color = true
        #expect(try chart(s, "count by hour, legend | chart bar").contains("\u{1B}[38;5;"))
    }

    @Test func chartsFollowHeightAndWidthOptions() throws {
        let s = try market()
        let small = try chart(s, "count by hour | chart column height 6")
        let large = try chart(s, "count by hour | chart column height 20")
        #expect(small.split(separator: "\n").count < large.split(separator: "\n").count)
        let narrow = try chart(s, "count by hour | chart bar width 40")
        #expect(narrow.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 40 })
    }
}

extension Session {
    /// Runs commands that print no table (load, set), failing on an error.
    func load(_ text: String) throws {
        var failure: Diagnostic? = nil
        run(text, name: "<test>") { _, outcome in if let e = outcome.error { failure = e } }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
    }
}
