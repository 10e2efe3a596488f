import Foundation
import Testing
import UTQCore

/// The utq executable as a user runs it: exit codes, what goes to stdout and stderr.
@Suite struct EndToEndTests {
    @Test func csvOutputOnStdoutIsOnlyCSV() throws {
        let r = try runUTQ(["-c", "load datasets/market.json; set output csv; count by legend, hour"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "legend,hour,count")
        #expect(lines.contains("Walking,12,132"))
        #expect(lines.contains("Bike,16,13"))
        #expect(lines.contains("Standing,23,9"))
        #expect(lines.count == 21)
        // The load summary goes to stderr, not into the CSV.
        #expect(r.stderr.contains("market: 516 entries"))
        #expect(!r.stdout.contains("market:"))
    }

    @Test func scriptErrorNamesFileLineAndColumn() throws {
        let script = try temporaryFile("broken.utq", "load datasets/market.json\ncount by legend\ncount by legnd\ncount\n")
        let r = try runUTQ([script])
        #expect(r.status == 1)
        #expect(r.stderr.contains("broken.utq:3:10: error: unknown column \"legnd\" — did you mean \"legend\"?"))
        // It stopped at the error: the fourth line did not run.
        #expect(r.stdout.components(separatedBy: "[").count == 2)
    }

    @Test func keepGoingReportsAndContinues() throws {
        let r = try runUTQ(["--keep-going", "-c", "load datasets/market.json; count by nope; count"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("unknown column \"nope\""))
        #expect(r.stdout.contains("516"))
    }

    @Test func stdinThatIsNotATerminalIsAScript() throws {
        let r = try runUTQ([], stdin: "load datasets/market.json\nwhere legend = \"Bike\" |\n  count\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains("21"))
        #expect(!r.stdout.contains("utq>"))
    }

    @Test func shebangLineIsAllowed() throws {
        let script = try temporaryFile("shebang.utq", "#!/usr/bin/env utq\nload datasets/market.json\ncount\n")
        let r = try runUTQ([script])
        #expect(r.status == 0)
        #expect(r.stdout.contains("516"))
    }

    @Test func missingFileIsAMessageNotACrash() throws {
        let r = try runUTQ(["-c", "load no/such/file.csv"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("<command line>:1:1: error: cannot load no/such/file.csv: no such file"))
    }
}

/// Papercuts of batch output: what a script prints to a file is only its answers.
@Suite struct BatchOutputTests {
    @Test func aKeptTableIsNotPrintedInBatch() throws {
        let answer = "load datasets/trips.csv; set output csv; trips | count by mode"
        let withHelper = "load datasets/trips.csv; set output csv; let t = trips | count as total; trips | count by mode"
        let plain = try runUTQ(["-c", answer]), helped = try runUTQ(["-c", withHelper])
        #expect(helped.status == 0 && plain.status == 0)
        #expect(helped.stdout == plain.stdout)
        #expect(helped.stdout.hasPrefix("mode,count\n"))
        // The note says it was kept, on stderr, in the singular for one row.
        #expect(helped.stderr.contains("t: kept as a table (1 row)\n"))
        // The kept table is there for what follows.
        let used = try runUTQ(["-c", "load datasets/trips.csv; set output csv; let t = trips | count as total; t"])
        #expect(used.stdout.hasPrefix("total\n"))
    }

    @Test func countsAgreeWithTheirNouns() {
        #expect(NumberText.counted(1, "row") == "1 row")
        #expect(NumberText.counted(2500, "row") == "2,500 rows")
        #expect(NumberText.counted(0, "column") == "0 columns")
        #expect(NumberText.counted(1, "entry", plural: "entries") == "1 entry")
    }
}

@Suite struct AverageOfTrueAndFalseTests {
    @Test func theAverageOfABooleanIsTheShareOfTrue() throws {
        let s = makeSession()
        #expect(s.run("load datasets/market.json").isEmpty)
        let share = try s.table("let far = x > 300 | avg far by legend | sort legend")
        let counts = try s.table("let far = x > 300 | count, sum far as n by legend | sort legend")
        #expect(share.rowCount == counts.rowCount && share.rowCount > 2)
        for i in 0..<share.rowCount {
            guard case .double(let got) = share.values("avg_far")[i], case .int(let n) = counts.values("n")[i],
                  case .int(let all) = counts.values("count")[i] else { Issue.record("row \(i)"); continue }
            #expect(abs(got - Double(n) / Double(all)) < 1e-12)
        }
        // The median of true and false means nothing, and stays refused.
        #expect(s.failure("let far = x > 300 | median far")?.message == "median needs numbers, durations or times, but far is boolean")
    }
}

@Suite struct DayNameTests {
    @Test func aWeekdayMayBeWrittenInFull() throws {
        let s = makeSession()
        s.run("load datasets/trips.csv") { _, o in #expect(o.error == nil) }
        let short = try s.table("where weekday = \"Sat\" | count").strings("count")
        #expect(short != ["0"])
        for written in ["Saturday", "saturday", "SATURDAY", "Satur", "sa"] {
            #expect(try s.table("where weekday = \"\(written)\" | count").strings("count") == short, "\(written)")
        }
        #expect(try s.table("where weekday in (\"Saturday\", \"Sunday\") | count").strings("count")
                == (try s.table("where weekday in (\"Sat\", \"Sun\") | count").strings("count")))
        #expect(try s.table("where weekday != \"Saturday\" | count").strings("count")
                == (try s.table("where weekday != \"Sat\" | count").strings("count")))
        // A text that is no day's name is compared as it is.
        #expect(try s.table("where weekday = \"Caturday\" | count").strings("count") == ["0"])
    }
}

/// The README's table of ways to run utq names every option the program has.
@Suite struct ReadmeOptionsTests {
    @Test func everyOptionIsInTheReadme() throws {
        let help = try runUTQ(["run", "--help"])
        let readme = try String(contentsOfFile: Repo.path("README.md"), encoding: .utf8)
        let options = Set(help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" || $0 == "," })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        #expect(options.contains("--interactive") && options.count >= 6, "\(options)")
        for option in options.sorted() where option != "--help" && option != "--version" {
            #expect(readme.contains(option), "README.md does not mention \(option)")
        }
    }
}
