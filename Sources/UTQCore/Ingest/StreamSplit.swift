import Foundation

/// A compressed CSV read in two parts, as a plain one is on two cores. Its text can only be
/// had in order, so the second part decompresses it again from the start on a stream of its
/// own (`second`), passing over the first half (decompressing is several times faster than
/// parsing), finds the first line break after `middle` and says where the record after it
/// starts; the first part reads freely up to `middle` and then up to that cut. Each part
/// parses about half of the text, and memory is two streams' few megabytes more.
final class StreamSplit: @unchecked Sendable {
    enum Cut: Equatable {
        /// The first part reads to here.
        case at(Int)
        /// The text ends before a record after the middle: the first part reads it all.
        case none
        /// The second part failed; the first stops.
        case abandoned
    }

    let second: FileSource
    let middle: Int
    private let condition = NSCondition()
    private var found: Cut?

    init(second: FileSource, middle: Int) {
        self.second = second
        self.middle = middle
    }

    /// Said once by the second part; later calls change nothing.
    func publish(_ cut: Cut) {
        condition.lock()
        if found == nil { found = cut }
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the second part found a record to start at.
    var foundRecord: Bool {
        condition.lock()
        defer { condition.unlock() }
        if case .at = found { return true }
        return false
    }

    /// Waits until the second part has said where the first ends.
    func cut() -> Cut {
        condition.lock()
        defer { condition.unlock() }
        while found == nil { condition.wait() }
        return found!
    }
}

/// Work on a thread of its own, not the dispatch pool's: the first part of a split waits for
/// the second, so the second must run whatever else holds the pool's threads (a pattern's
/// files are loaded on them, and a pool with its threads taken runs work one after another).
final class OwnThread: @unchecked Sendable {
    private var thread = pthread_t()

    /// nil when no thread can be started.
    init?(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        if started != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
    }

    func join() { pthread_join(thread, nil) }
}
