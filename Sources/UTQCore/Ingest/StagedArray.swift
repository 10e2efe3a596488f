import Foundation

/// A Swift array filled through a small staging buffer on raw memory: appending is a store
/// and an increment, and every few thousand values the stage is copied into the array in one
/// go. The per-element uniqueness and exclusivity checks of appending to an array held by a
/// class cost more than parsing the cell, and building on raw memory alone would mean copying
/// every finished column once more — which a load of a million rows cannot afford in memory.
///
/// A part of a load read in parallel writes instead into its region of a column's slab (the
/// memory the finished column will be), so the parts need not be copied together from
/// columns of their own (`ColumnSlab`). A region that fills up is left for an array of its own.
struct StagedArray<T> {
    private(set) var array: [T] = []
    /// Made at the first append: a builder keeps four of these and fills one, and a file
    /// of many columns must not pay for the other three.
    private var stage: UnsafeMutablePointer<T>? = nil
    private var staged = 0
    /// In a slab: where this part's region starts, its room, and how much of it is filled.
    private var region: UnsafeMutablePointer<T>? = nil
    private var regionRoom = 0
    private var regionCount = 0
    static var stageSize: Int { 4096 }

    init(capacity: Int = 0) {
        array = HugePages.array(capacity: capacity)
    }

    /// Writes into `room` values at `base`, which the caller keeps alive (the slab).
    init(region base: UnsafeMutablePointer<T>, start: Int, room: Int) {
        region = base + start
        regionRoom = room
    }

    var count: Int { (region == nil ? array.count : regionCount) + staged }

    /// Whether the values written so far are all in the slab region, or will be once the
    /// stage is flushed (a stage that does not fit leaves the region).
    var inRegion: Bool { region != nil && regionCount + staged <= regionRoom }

    @inline(__always)
    mutating func append(_ v: T) {
        if stage == nil { stage = .allocate(capacity: Self.stageSize) }
        (stage.unsafelyUnwrapped + staged).initialize(to: v)
        staged += 1
        if staged == Self.stageSize { flush() }
    }

    mutating func append(repeating v: T, count n: Int) {
        flush()
        if let region, regionCount + n <= regionRoom {
            (region + regionCount).initialize(repeating: v, count: n)
            regionCount += n
            return
        }
        leaveRegion()
        array.append(contentsOf: repeatElement(v, count: n))
    }

    mutating func append(contentsOf other: [T]) {
        flush()
        if let region, regionCount + other.count <= regionRoom {
            other.withUnsafeBufferPointer { (region + regionCount).initialize(from: $0.baseAddress!, count: $0.count) }
            regionCount += other.count
            return
        }
        leaveRegion()
        // An empty array takes the other's storage: the first part of a load becomes the
        // column instead of being copied into it.
        if array.isEmpty && other.capacity >= array.capacity { array = other } else { array.append(contentsOf: other) }
    }

    mutating func flush() {
        guard staged > 0, let stage else { return }
        if let region, regionCount + staged <= regionRoom {
            (region + regionCount).moveInitialize(from: stage, count: staged)
            regionCount += staged
            staged = 0
            return
        }
        leaveRegion()
        array.append(contentsOf: UnsafeBufferPointer(start: stage, count: staged))
        stage.deinitialize(count: staged)
        staged = 0
    }

    /// The region's values go to an array of this part's own (a region that is full, or a
    /// part whose values are joined another way).
    private mutating func leaveRegion() {
        guard let region else { return }
        array = HugePages.array(capacity: max(regionRoom, regionCount) * 2)
        array.append(contentsOf: UnsafeBufferPointer(start: region, count: regionCount))
        self.region = nil
        regionCount = 0
    }

    /// The finished array; the stage is emptied.
    mutating func take() -> [T] {
        flush()
        leaveRegion()
        let a = array
        array = []
        return a
    }

    /// Hands over the values in the region (the slab now holds them): how many there are.
    mutating func takeRegion() -> Int {
        flush()
        precondition(region != nil, "takeRegion of values outside the slab")
        let n = regionCount
        region = nil
        regionCount = 0
        return n
    }

    /// Takes a finished array (a slab's, with every part's values) as its own.
    mutating func adopt(_ values: [T]) {
        precondition(region == nil && staged == 0 && array.isEmpty)
        array = values
    }

    /// Must be called once the value is no longer used.
    mutating func release() {
        if let stage {
            stage.deinitialize(count: staged)
            stage.deallocate()
        }
        stage = nil
        staged = 0
        region = nil
        regionCount = 0
        array = []
    }
}
