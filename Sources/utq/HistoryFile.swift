import Foundation
import UTQCore

/// The prompt keeps its history in a file only when that file is one: absent, empty, or
/// libedit's history, whose first line is `_HiStOrY_V2_`. Anything else a path may name (a
/// CSV given to UTQ_HISTORY by mistake, a pipe, a device) is left as it is, with a warning,
/// and the session keeps no history.
enum HistoryFile {
    static let firstLine = "_HiStOrY_V2_"

    /// The file to keep the history in: `path`, or nil (after a warning) when it is no place
    /// for one.
    static func checked(_ path: String?) -> String? {
        guard let path else { return nil }
        guard let why = refusal(path) else { return path }
        Terminal.err("warning: \(path) \(why); no history is kept (UTQ_HISTORY names another file, or none when empty)\n")
        return nil
    }

    /// Why `path` cannot hold the history (to follow the path in a message), or nil when it can.
    /// It is never opened in a way that waits: opening a pipe to read waits for a writer,
    /// so a pipe is known by stat first, and the open that reads the first line does not wait.
    static func refusal(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return errno == ENOENT ? nil : "cannot be read: " + String(cString: strerror(errno))
        }
        if let kind = AtomicFile.notAFile(st.st_mode) { return "is " + kind }
        if st.st_size == 0 { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return "cannot be read: " + String(cString: strerror(errno)) }
        defer { close(fd) }
        // What was looked at may have been replaced since: the file opened is the one read.
        guard fstat(fd, &st) == 0, AtomicFile.notAFile(st.st_mode) == nil else { return "is not a regular file" }
        let wanted = Array((firstLine + "\n").utf8)
        var bytes = [UInt8](repeating: 0, count: wanted.count)
        var got = 0
        while got < wanted.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, wanted.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        // The first line alone, without its newline, is a history of no lines too.
        let head = Array(bytes[..<got])
        if head == wanted || head == Array(firstLine.utf8) { return nil }
        return "is not a utq history file (its first line is not \(firstLine))"
    }
}
