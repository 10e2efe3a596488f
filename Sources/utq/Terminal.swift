import Foundation
import UTQCore

/// Facts about the terminal utq runs in.
enum Terminal {
    static var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// Columns: COLUMNS when it is a width `set width` takes, else the terminal's, else 100.
    static var width: Int {
        if let n = SizeLimits.environment("COLUMNS", Settings.widthRange) { return n }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        return 100
    }

    /// Columns for help and usage text: the terminal's (or COLUMNS), and 80 in a pipe or a
    /// file, where no window says otherwise and 80 is what text is read at.
    static var textWidth: Int {
        if let n = SizeLimits.environment("COLUMNS", Settings.widthRange) { return n }
        return stdoutIsTTY ? width : 80
    }

    /// Lines: LINES when it is a height `set height` takes, else the terminal's, else 40.
    static var height: Int {
        if let n = SizeLimits.environment("LINES", Settings.heightRange) { return n }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row >= 5 { return Int(size.ws_row) }
        return 40
    }

    /// Colour only for a terminal, and never when NO_COLOR is set.
    static var colorAllowed: Bool {
        if let v = Environment.value("NO_COLOR"), !v.isEmpty { return false }
        if Environment.value("TERM") == "dumb" { return false }
        return stdoutIsTTY
    }

    static func write(_ s: String, to fd: Int32) {
        var text = s
        text.withUTF8 { p in
            var done = 0
            while done < p.count {
                let n = Foundation.write(fd, p.baseAddress! + done, p.count - done)
                if n < 0 { if errno == EINTR { continue }; return }
                done += n
            }
        }
    }

    static func out(_ s: String) { write(s, to: STDOUT_FILENO) }
    static func err(_ s: String) { write(s, to: STDERR_FILENO) }
}
