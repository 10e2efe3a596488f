import Foundation

/// Warnings that arise while a plan runs without stopping it (a text that is no time
/// becomes null), one per kind however many rows give it: the session shows them with the
/// command's result.
public final class RunNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var order: [String] = []
    private var texts: [String: String] = [:]

    public init() {}

    /// Adds a note of a kind unless one of that kind is there already.
    public func add(_ kind: String, _ text: @autoclosure () -> String) {
        lock.lock()
        defer { lock.unlock() }
        guard texts[kind] == nil else { return }
        order.append(kind)
        texts[kind] = text()
    }

    /// Another's notes added after ours, each kind once.
    public func add(_ other: RunNotes) {
        other.lock.lock()
        let theirs = other.order.map { ($0, other.texts[$0]!) }
        other.lock.unlock()
        for (kind, text) in theirs { add(kind, text) }
    }

    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { texts[$0] }
    }

    /// Notes of kinds that say where the work ran (a database's), which are information
    /// rather than warnings: their kinds start with "where:".
    public static let wherePrefix = "where:"

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

    /// Every note in order, with whether it is a warning or says where work ran.
    public var entries: [(text: String, isWarning: Bool)] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { kind in texts[kind].map { ($0, !kind.hasPrefix(Self.wherePrefix)) } }
    }
}

/// What a function sees besides its arguments: the table's time zone (`parse_time` reads in
/// it) and where to leave a note.
public struct CallContext: Sendable {
    public var zone: ZoneRules
    public var notes: RunNotes?
}
