import Foundation

/// Runs a spatial join: the right side's geometries in an R-tree of their boxes, each left
/// row's box (grown by the distance asked, in degrees that hold that many metres at its
/// latitude) looked up in it, and each candidate tested exactly. Left rows are shared out
/// between the cores in blocks, and the blocks' matches joined in order.
extension SpatialJoinNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let l = inputs[0], r = inputs[1]
        let context = executor.context
        let leftColumn = try Evaluator(table: l, notes: context.notes, cancel: context.cancel).column(leftGeometry)
        let rightColumn = try Evaluator(table: r, notes: context.notes, cancel: context.cancel).column(rightGeometry)
        let side = SpatialSide(leftColumn), other = SpatialSide(rightColumn, prepare: test.reach == 0)
        let tree = PlanarBoxTree(count: other.count) { i in other.box(i) ?? (.nan, .nan, .nan, .nan) }
        let matcher = SpatialMatcher(test: test, left: side, right: other, tree: tree)
        let workers = Workers.available
        let block = 4096
        let blocks = (l.rowCount + block - 1) / block
        let parts = ParallelParts<SpatialMatches>(count: blocks)
        let next = SpatialCounter(), matched = SpatialCounter()
        let cancel = context.cancel, memoryLimit = context.memoryLimit
        let width = l.columns.count + r.columns.count + 1
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, blocks))) { _ in
            var stack: [Int] = []
            while true {
                let b = next.take()
                guard b < blocks else { return }
                if cancel?.isCancelled == true || parts.failed { parts.set(b, .failure(CancellationError())); continue }
                var m = SpatialMatches()
                for row in (b * block)..<min(l.rowCount, (b + 1) * block) { matcher.match(row, into: &m, stack: &stack) }
                // Pairs are not known before they are found: past the memory there is, stop.
                do {
                    try HashJoin.checkSize(matched.take(adding: m.left.count) + m.left.count, width: width, memoryLimit: memoryLimit)
                    parts.set(b, .success(m))
                } catch var d as Diagnostic {
                    d.hint = "keep fewer rows on either side first (where …), or ask for a shorter distance or fewer nearest"
                    parts.set(b, .failure(d))
                } catch {
                    parts.set(b, .failure(error))
                }
            }
        }
        let found = try (0..<blocks).map { try parts.get($0) }
        var leftRows: [Int32] = [], rightRows: [Int32] = [], distances: [Double] = []
        let total = found.reduce(0) { $0 + $1.left.count }
        leftRows.reserveCapacity(total); rightRows.reserveCapacity(total); distances.reserveCapacity(total)
        var nextLeft: Int32 = 0
        for m in found {
            for k in m.left.indices {
                // A left join keeps each left row without a match once, in its place.
                if kind == .left { while nextLeft < m.left[k] { leftRows.append(nextLeft); rightRows.append(-1); distances.append(.nan); nextLeft += 1 } }
                leftRows.append(m.left[k]); rightRows.append(m.right[k]); distances.append(m.distance[k])
                nextLeft = m.left[k] + 1
            }
        }
        if kind == .left { while nextLeft < Int32(l.rowCount) { leftRows.append(nextLeft); rightRows.append(-1); distances.append(.nan); nextLeft += 1 } }
        var columns = l.columns.map { $0.gather(leftRows) }
        for (k, c) in r.columns.enumerated() {
            var col = c.gather(rightRows)
            col.name = schema.fields[l.columns.count + k].name
            columns.append(col)
        }
        if let distanceColumn {
            var valid = Bitmap(count: distances.count, value: true)
            for (i, d) in distances.enumerated() where d.isNaN { valid[i] = false }
            columns.append(Column(name: distanceColumn, storage: .double(distances), validity: valid))
        }
        var out = Table(name: l.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: l.rowNoun)
        out.rowCount = leftRows.count
        return out
    }
}

/// Hands out block numbers to the workers, one at a time.
final class SpatialCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func take(adding n: Int = 1) -> Int {
        lock.lock(); defer { lock.unlock() }
        defer { value += n }
        return value
    }
}

/// The matches of a block of left rows: left row, right row, distance (NaN when none asked).
struct SpatialMatches: Sendable {
    var left: [Int32] = []
    var right: [Int32] = []
    var distance: [Double] = []
}

/// One side's geometries as a join reads them: points straight from the coordinate arrays,
/// anything else made once per row.
struct SpatialSide: @unchecked Sendable {
    let column: Column
    let storage: GeometryStorage
    let geometries: [Geometry?]
    /// Polygons with their edges indexed, for the many points looked up in each.
    let areas: [Planar.PreparedArea?]

    init(_ c: Column, prepare: Bool = false) {
        column = c
        if case .geometry(let s) = c.storage { storage = s } else { storage = .points(xs: [], ys: [], space: .lnglat) }
        if storage.isPoints {
            geometries = []
            areas = []
        } else {
            let s = storage
            geometries = (0..<s.count).map { c.isValid($0) ? s[$0] : nil }
            areas = prepare ? geometries.map { g in g.flatMap { $0.kind.dimension == 2 ? Planar.PreparedArea($0) : nil } } : []
        }
    }

    var count: Int { storage.count }
    var space: GeoSpace { storage.space }

    /// The row's point, when the side is points.
    @inline(__always) func point(_ row: Int) -> (Double, Double)? {
        guard storage.isPoints, column.isValid(row) else { return nil }
        let x = storage.xs[row], y = storage.ys[row]
        return x.isFinite && y.isFinite ? (x, y) : nil
    }

    func geometry(_ row: Int) -> Geometry? {
        if storage.isPoints { return point(row).map { .point($0.0, $0.1, space: space) } }
        return geometries[row]
    }

    func box(_ row: Int) -> (Double, Double, Double, Double)? {
        if let (x, y) = point(row) { return (x, y, x, y) }
        guard let b = geometry(row)?.bounds else { return nil }
        return (b.minX, b.minY, b.maxX, b.maxY)
    }
}

/// The exact test of one left row against the candidates the tree gives.
struct SpatialMatcher: @unchecked Sendable {
    let test: SpatialJoinNode.Test
    let left: SpatialSide
    let right: SpatialSide
    let tree: PlanarBoxTree

    /// A box grown by `d`: in the plan's units, or in degrees that hold at least `d` metres
    /// around its latitudes (a degree of latitude is at least 110,574 m, one of longitude
    /// at least 111,319 m × cos(latitude)).
    func grown(_ b: (Double, Double, Double, Double), by d: Double) -> (Double, Double, Double, Double) {
        guard d > 0 else { return b }
        guard left.space == .lnglat else { return (b.0 - d, b.1 - d, b.2 + d, b.3 + d) }
        guard d.isFinite else { return (-.infinity, -.infinity, .infinity, .infinity) }
        let dLat = d / 110_574 * 1.01
        let widest = min(90, max(abs(b.1), abs(b.3)) + dLat)
        let cosine = cos(widest * .pi / 180)
        let dLng = cosine < 1e-6 ? 360 : d / (111_319.49 * cosine) * 1.01
        return (b.0 - dLng, b.1 - dLat, b.2 + dLng, b.3 + dLat)
    }

    func distance(_ row: Int, _ other: Int) -> Double {
        if let (x1, y1) = left.point(row), let (x2, y2) = right.point(other) {
            if left.space == .plane { return ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot() }
            return GeoMeasure.geodesic.inverse(lat1: y1, lon1: x1, lat2: y2, lon2: x2).distance
        }
        guard let a = left.geometry(row), let b = right.geometry(other) else { return .nan }
        return GeoMeasure.distance(a, b)
    }

    func holds(_ row: Int, _ other: Int) -> Bool {
        if let (x, y) = left.point(row), !right.areas.isEmpty, let area = right.areas[other] {
            let at = area.locate(x, y)
            switch test {
            case .within: return at == .interior
            case .intersects: return at != .exterior
            default: break
            }
        }
        guard let b = right.geometry(other) else { return false }
        if let (x, y) = left.point(row) {
            let at = Planar.locate(x, y, in: b)
            switch test {
            case .within: return at == .interior
            case .intersects: return at != .exterior
            default: break
            }
        }
        guard let a = left.geometry(row) else { return false }
        switch test {
        case .within: return Planar.within(a, b)
        case .contains: return Planar.contains(a, b)
        default: return Planar.intersects(a, b)
        }
    }

    func match(_ row: Int, into m: inout SpatialMatches, stack: inout [Int]) {
        guard let box = left.box(row) else { return }
        var candidates: [Int] = []
        switch test {
        case .within, .contains, .intersects:
            tree.query(box.0, box.1, box.2, box.3, stack: &stack) { candidates.append($0); return true }
            candidates.sort()
            for c in candidates where holds(row, c) { m.left.append(Int32(row)); m.right.append(Int32(c)); m.distance.append(.nan) }
        case .near(let d):
            let q = grown(box, by: d)
            tree.query(q.0, q.1, q.2, q.3, stack: &stack) { candidates.append($0); return true }
            candidates.sort()
            for c in candidates {
                let e = distance(row, c)
                if e <= d { m.left.append(Int32(row)); m.right.append(Int32(c)); m.distance.append(e) }
            }
        case .nearest(let k, let limit):
            nearest(row, box, k: k, limit: limit, into: &m, stack: &stack)
        }
    }

    /// The k nearest: boxes within a radius that doubles until k of them are found within it
    /// (or the limit is reached), nearest first, ties by the right side's order.
    func nearest(_ row: Int, _ box: (Double, Double, Double, Double), k: Int, limit: Double?, into m: inout SpatialMatches, stack: inout [Int]) {
        var radius = left.space == .lnglat ? 100.0 : 1.0
        if let limit { radius = min(radius, limit) }
        var best: [(Double, Int)] = []
        while true {
            var candidates: [Int] = []
            let q = grown(box, by: radius)
            tree.query(q.0, q.1, q.2, q.3, stack: &stack) { candidates.append($0); return true }
            best = candidates.map { (distance(row, $0), $0) }.filter { !$0.0.isNaN }
            best.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            let within = best.prefix { $0.0 <= radius }.count
            let everything = candidates.count == right.count
            if within >= k || everything || (limit.map { radius >= $0 } ?? false) { break }
            radius *= 4
            if let limit { radius = min(radius, limit) }
        }
        if let limit { best = best.filter { $0.0 <= limit } }
        for (d, c) in best.prefix(k) { m.left.append(Int32(row)); m.right.append(Int32(c)); m.distance.append(d) }
    }
}
