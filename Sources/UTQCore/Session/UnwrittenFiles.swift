import Foundation

/// The files a session that writes none was asked to write, each once, in order. Checking a
/// lesson runs its commands and answers again and again, on altered copies of its data: what
/// they save, draw to a file or record must reach no file, least of all replace the real one.
public final class UnwrittenFiles: @unchecked Sendable {
    /// Why nothing is written, for the notes.
    public let reason: String
    private let lock = NSLock()
    private var names: [String] = []

    public init(reason: String) { self.reason = reason }

    /// The files asked for, as they were written in the commands.
    public var paths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return names
    }

    /// Takes note of a file not written, and says so for the command's outputs.
    func skip(_ path: String) -> String {
        lock.lock()
        if !names.contains(path) { names.append(path) }
        lock.unlock()
        return "not written: \(path) (\(reason))"
    }
}
