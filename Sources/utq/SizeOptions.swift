import ArgumentParser
import Foundation
import UTQCore

/// The command line's numbers, checked in one place against the ranges `set width` and
/// `set height` take: tables and charts are laid out on a grid of that size, and a size
/// outside them is no drawing (past a million columns the layout's arithmetic overflows).
enum SizeLimits {
    /// A size given on the command line, or an error that says what it may be.
    static func check(_ option: String, _ value: Int, _ range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) is a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
    }

    /// A size from the environment (COLUMNS, LINES), or nil when it is not one within `range`.
    static func environment(_ name: String, _ range: ClosedRange<Int>) -> Int? {
        guard let text = Environment.value(name), let n = Int(text), range.contains(n) else { return nil }
        return n
    }
}

/// `--width`, for the commands that draw to a fixed width (kernel, notebook).
struct WidthOption: ParsableArguments {
    @Option(help: ArgumentHelp("The width tables and charts are drawn to in plain text: \(Settings.widthRange.lowerBound) to \(Settings.widthRange.upperBound) columns."))
    var width: Int = 100

    func validate() throws { try SizeLimits.check("--width", width, Settings.widthRange) }
}
