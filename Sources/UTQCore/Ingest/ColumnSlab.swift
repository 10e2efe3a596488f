import Foundation

/// The memory of one column for all the parts of a load read in parallel.
///
/// Each part writes its values into a region of the slab sized from its share of the file,
/// with room to spare; when the parts are done, each one's values are moved down behind the
/// values of the parts before it, and the slab is the column. Before, each part filled
/// columns of its own and the first part's took in the others' by copying them: the copy
/// went into memory never touched before, and on a virtual machine the kernel clearing those
/// fresh pages was a fifth of a load of ten million rows. The move here stays in memory the
/// parts have already touched, and the room a part did not use goes back to the system.
final class ColumnSlab<T>: @unchecked Sendable {  // each part writes its own region only
    private var array: [T]
    private let base: UnsafeMutablePointer<T>
    private var starts: [Int]
    private var rooms: [Int]
    /// Regions are added while parts already take theirs (StreamChunks).
    private let lock = NSLock()

    /// Room for `rooms[w]` values for part w. Each region starts on a 2 MB boundary: a part
    /// starting inside a huge page another part ends in made loading ten million rows spend
    /// two to four times as long in the kernel (measured: 0.5-1.6 s against 0.24-0.28 s of
    /// system time for the 10M-row CSV).
    init(rooms: [Int]) {
        let huge = HugePages.size / MemoryLayout<T>.stride
        let all = rooms.reduce(0) { $0 + $1 + huge }
        self.rooms = rooms
        // Counted as values from the start, as they are never read before being written:
        // a slab is only ever read through the array `joined` returns, up to the rows written.
        array = [T](unsafeUninitializedCapacity: all) { buffer, count in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: all * MemoryLayout<T>.stride)
            count = all
        }
        let base = array.withUnsafeMutableBufferPointer { $0.baseAddress! }
        self.base = base
        var starts: [Int] = []
        var at = 0
        for room in rooms {
            // The first part's values start the array; the others' regions start on a boundary.
            let address = Int(bitPattern: base + at)
            if !starts.isEmpty { at += (((address + HugePages.size - 1) & ~(HugePages.size - 1)) - address) / MemoryLayout<T>.stride }
            starts.append(at)
            at += room
        }
        self.starts = starts
    }

    /// Room for `capacity` values, the parts' regions added in order by `addRegion`, each
    /// right after the one before (StreamChunks, whose parts' rooms are exact).
    init(capacity: Int) {
        array = [T](unsafeUninitializedCapacity: capacity) { buffer, count in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: capacity * MemoryLayout<T>.stride)
            count = capacity
        }
        base = array.withUnsafeMutableBufferPointer { $0.baseAddress! }
        starts = []
        rooms = []
    }

    /// A region for the next part, after the last one: `room` values, or as many as are left
    /// (a part whose region fills up writes the rest into an array of its own). Called in
    /// part order, one call at a time, before the part's `region`.
    func addRegion(room: Int) {
        lock.withLock {
            let at = (starts.last ?? 0) + (rooms.last ?? 0)
            starts.append(at)
            rooms.append(max(0, min(room, array.count - at)))
        }
    }

    /// Where part w writes.
    func region(part w: Int) -> StagedArray<T> {
        lock.withLock { StagedArray(region: base, start: starts[w], room: rooms[w]) }
    }

    /// The parts' values, in order, as one array: part w's `counts[w]` values go behind the
    /// values of the parts before it, through `move(to, from, count, w)` for each part after
    /// the first (a plain move, or a move that maps codes). The slab is empty afterwards.
    func joined(counts: [Int], move: (UnsafeMutablePointer<T>, UnsafeMutablePointer<T>, Int, Int) -> Void) -> [T] {
        precondition(starts[0] == 0)
        var rows = counts[0]
        for w in counts.indices.dropFirst() {
            precondition(starts[w] >= rows && counts[w] <= rooms[w])
            move(base + rows, base + starts[w], counts[w], w)
            rows += counts[w]
        }
        HugePages.release(UnsafeMutableRawPointer(base + rows), bytes: (array.count - rows) * MemoryLayout<T>.stride)
        array.removeLast(array.count - rows)
        let done = array
        array = []
        return done
    }
}

enum ColumnSlabs {
    /// A slab for the values of a column of this type, the rooms in rows.
    static func make(for type: CellType, rooms: [Int]) -> AnyObject? {
        rooms.count > 1 ? make(for: type, .rooms(rooms)) : nil
    }

    /// A slab whose parts' regions are added in order (`addRegion`), for `capacity` values.
    static func make(for type: CellType, capacity: Int) -> AnyObject? {
        make(for: type, .capacity(capacity))
    }

    private enum Layout { case rooms([Int]), capacity(Int) }

    /// The slab of the element type a column of this type is stored in; nil for the others.
    private static func make(for type: CellType, _ layout: Layout) -> AnyObject? {
        func slab<T>(_: T.Type) -> AnyObject {
            switch layout {
            case .rooms(let rooms): return ColumnSlab<T>(rooms: rooms)
            case .capacity(let capacity): return ColumnSlab<T>(capacity: capacity)
            }
        }
        switch type.dataType {
        case .int, .timestamp, .duration: return slab(Int64.self)
        case .double: return slab(Double.self)
        case .bool: return slab(Bool.self)
        case .string: return slab(UInt32.self)
        default: return nil
        }
    }

    /// Adds the next part's region to a slab `make` made.
    static func addRegion(_ slab: AnyObject?, room: Int) {
        switch slab {
        case let s as ColumnSlab<Int64>: s.addRegion(room: room)
        case let s as ColumnSlab<Double>: s.addRegion(room: room)
        case let s as ColumnSlab<Bool>: s.addRegion(room: room)
        case let s as ColumnSlab<UInt32>: s.addRegion(room: room)
        default: break
        }
    }
}
