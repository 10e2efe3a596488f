import Foundation
import Testing

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
