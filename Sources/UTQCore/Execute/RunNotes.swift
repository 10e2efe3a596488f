import Foundation

/// Warnings that arise while a plan runs without stopping it (a text that is no time
/// becomes null), one per kind however many rows give it: the session shows them with the
/// command's result.
public final class RunNotes: @unchecked Sendable {
    /// What a note is: a warning about the data, or word of where the work ran.
    public enum Category: Sendable, Equatable {
        /// Something in the data the answer passes over (a text that is no time is null).
        case warning
        /// Where work ran and what moved (rows brought from a database, a table copied in):
        /// information, not a warning.
        case placement
        /// What the answer rests on, found while it ran (the unit a feed's distances are in):
        /// information, not a warning.
        case info
    }

    private let lock = NSLock()
    private var order: [String] = []
    private var texts: [String: (text: String, category: Category)] = [:]

    public init() {}

    /// Adds a note of a kind unless one of that kind is there already; `kind` tells notes
    /// apart, so one kind is said once however many rows give it.
    public func add(_ kind: String, _ text: @autoclosure () -> String, as category: Category = .warning) {
        lock.lock()
        defer { lock.unlock() }
        guard texts[kind] == nil else { return }
        order.append(kind)
        texts[kind] = (text(), category)
    }

    /// Another's notes added after ours, each kind once.
    public func add(_ other: RunNotes) {
        other.lock.lock()
        let theirs = other.order.map { ($0, other.texts[$0]!) }
        other.lock.unlock()
        for (kind, note) in theirs { add(kind, note.text, as: note.category) }
    }

    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { texts[$0]?.text }
    }

    private var timingOrder: [String] = []
    private var seconds: [String: Double] = [:]

    /// Adds time spent on a part of the work (`in db`, `reading its rows`), for `set timer on`.
    public func time(_ label: String, _ s: Double) {
        lock.lock()
        defer { lock.unlock() }
        if seconds[label] == nil { timingOrder.append(label) }
        seconds[label, default: 0] += s
    }

    /// The parts' times, in the order they were first given.
    public var timings: [(label: String, seconds: Double)] {
        lock.lock()
        defer { lock.unlock() }
        return timingOrder.map { ($0, seconds[$0]!) }
    }

    /// Every note in order, with what it is.
    public var entries: [(text: String, category: Category)] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { texts[$0] }
    }
}

/// What a function sees besides its arguments: the table's time zone (`parse_time` reads in
/// it), where to leave a note, and Ctrl-C's flag.
public struct CallContext: Sendable {
    public var zone: ZoneRules
    public var notes: RunNotes?
    /// Ctrl-C's flag: a function row by row looks at it every few thousand rows.
    public var cancel: CancellationFlag?
}
