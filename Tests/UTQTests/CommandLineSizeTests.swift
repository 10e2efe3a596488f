import Foundation
import Testing
@testable import UTQCore

/// The command line's sizes — `--width` of kernel and notebook, and COLUMNS and LINES — take
/// what `set width` and `set height` take: a size outside that is refused with a message
/// (or, from the environment, passed over), and never reaches a chart, whose layout
/// overflowed on a width near the end of whole numbers.
@Suite struct CommandLineSizeTests {
    static let outside = ["19", "1001", "0", "-5", "9223372036854775807"]
    static let chart = #"{"id": 1, "op": "execute", "code": "load datasets/market.json; count by hour | chart line"}"# + "\n"

    @Test(arguments: outside)
    func theKernelRefusesAWidthOutsideTheRange(_ width: String) throws {
        let r = try runUTQ(["kernel", "--width=\(width)"], stdin: Self.chart)
        #expect(r.exited, "--width=\(width) ended by a signal")
        #expect(r.status == 64, "--width=\(width): \(r.status)")
        #expect(r.stderr.contains("Error: --width is a whole number from 20 to 1000, not \(width)"), "\(r.stderr)")
    }

    @Test(arguments: outside)
    func theNotebookRefusesAWidthOutsideTheRange(_ width: String) throws {
        let r = try runUTQ(["notebook", "examples/tour.utq", "--width=\(width)"])
        #expect(r.exited && r.status == 64, "--width=\(width): \(r.status)")
        #expect(r.stderr.contains("Error: --width is a whole number from 20 to 1000, not \(width)"), "\(r.stderr)")
    }

    @Test func theEndsOfTheRangeDrawCharts() throws {
        for width in ["20", "1000"] {
            let r = try runUTQ(["kernel", "--width", width], stdin: Self.chart)
            #expect(r.exited && r.status == 0, "--width \(width): \(r.stderr)")
            #expect(r.stdout.contains(#""status":"ok""#), "--width \(width): \(r.stdout.suffix(200))")
        }
    }

    @Test func aTerminalSizeOutsideTheRangeIsPassedOver() throws {
        for (name, value) in [("COLUMNS", "9223372036854775807"), ("COLUMNS", "100000"), ("LINES", "9223372036854775807"), ("LINES", "-3")] {
            let r = try runUTQ(["-c", "load datasets/market.json; count by hour | chart line; set width; set height"], environment: [name: value])
            #expect(r.exited && r.status == 0, "\(name)=\(value): \(r.stderr.prefix(300))")
            // Without a terminal, the sizes are the defaults, not the environment's.
            #expect(r.stdout.contains("width auto (100)\n") && r.stdout.contains("height auto (40)\n"), "\(name)=\(value): \(r.stdout.suffix(100))")
        }
        let r = try runUTQ(["-c", "set width; set height"], environment: ["COLUMNS": "1000", "LINES": "5"])
        #expect(r.stdout == "width auto (1000)\nheight auto (5)\n", "\(r.stdout)")
    }
}
