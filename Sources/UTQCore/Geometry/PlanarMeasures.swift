import Foundation

extension Planar {
    /// The area of a polygon or multi-polygon, holes subtracted, positive whichever way its
    /// rings turn; 0 for points and lines.
    public static func area(_ g: Geometry) -> Double {
        guard g.kind.dimension == 2 else { return 0 }
        var total = 0.0
        for part in 0..<g.partCount {
            let rings = g.ringRange(part: part)
            for r in rings {
                let a = abs(signedRingArea(g, ring: r))
                total += r == rings.lowerBound ? a : -a
            }
        }
        return total
    }

    /// The length of a line or multi-line; for a polygon the length of every ring, holes too
    /// (as shapely's `length`); 0 for points.
    public static func length(_ g: Geometry) -> Double {
        guard g.kind.dimension >= 1 else { return 0 }
        var total = 0.0
        for r in 0..<g.ringCount {
            let points = g.pointRange(ring: r)
            guard points.count > 1 else { continue }
            var ringLength = 0.0
            for i in points.lowerBound..<(points.upperBound - 1) {
                ringLength += hypotenuse(g.xs[i + 1] - g.xs[i], g.ys[i + 1] - g.ys[i])
            }
            total += ringLength
        }
        return total
    }

    /// The centroid as GEOS computes it: area-weighted over triangles for polygons, length-
    /// weighted over segments for lines, the mean for points. A polygon of zero area falls back
    /// to the centroid of its rings as lines, and a line of zero length to its points. Nil for
    /// an empty geometry. The result keeps the geometry's `space`.
    public static func centroid(_ g: Geometry) -> Geometry? {
        var sums = PlanarCentroidSums()
        for part in 0..<g.partCount {
            let rings = g.ringRange(part: part)
            switch g.kind.dimension {
            case 0:
                for r in rings { for i in g.pointRange(ring: r) { sums.addPoint(g.xs[i], g.ys[i]) } }
            case 1:
                for r in rings { sums.addLineSegments(g, ring: r) }
            default:
                guard let shell = rings.first, !g.pointRange(ring: shell).isEmpty else { continue }
                let base = g.pointRange(ring: shell).lowerBound
                sums.baseX = g.xs[base]; sums.baseY = g.ys[base]
                for r in rings {
                    let counterclockwise = isCounterClockwise(g, ring: r)
                    // GEOS weighs shells positive when clockwise and holes positive when
                    // counterclockwise, so either orientation convention gives the same sums.
                    sums.addRingTriangles(g, ring: r, positive: r == shell ? !counterclockwise : counterclockwise)
                    sums.addLineSegments(g, ring: r)
                }
            }
        }
        guard let (x, y) = sums.centroid else { return nil }
        return Geometry.point(x, y, space: g.space)
    }

    /// The bearing from one point to another in degrees clockwise from +y ("north" when y
    /// grows upward), in 0..<360; 0 when the points are equal.
    public static func bearing(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        if dx == 0 && dy == 0 { return 0 }
        var degrees = atan2(dx, dy) * 180 / Double.pi
        if degrees < 0 { degrees += 360 }
        // A tiny negative angle rounds to exactly 360 after the shift.
        if degrees >= 360 { degrees -= 360 }
        return degrees
    }

    // MARK: rings

    /// The signed area of one closed ring, positive when counterclockwise, by GEOS's shoelace
    /// (relative to the first x, which keeps the products small; GEOS's own sign is the
    /// opposite).
    static func signedRingArea(_ g: Geometry, ring: Int) -> Double {
        let points = g.pointRange(ring: ring)
        let n = points.count
        guard n >= 3 else { return 0 }
        let s = points.lowerBound
        let x0 = g.xs[s]
        var p1x = g.xs[s], p1y = g.ys[s]
        var p2x = g.xs[s + 1] - x0, p2y = g.ys[s + 1]
        var sum = 0.0
        for i in 1..<(n - 1) {
            let p0y = p1y
            p1x = p2x; p1y = p2y
            p2x = g.xs[s + i + 1] - x0; p2y = g.ys[s + i + 1]
            sum += p1x * (p0y - p2y)
        }
        return -sum / 2
    }

    /// Whether a closed ring turns counterclockwise, decided as GEOS does from its highest
    /// point (so a flat or degenerate ring answers false, as there).
    static func isCounterClockwise(_ g: Geometry, ring: Int) -> Bool {
        let points = g.pointRange(ring: ring)
        let s = points.lowerBound
        let n = points.count - 1
        guard n >= 3 else { return false }
        @inline(__always) func x(_ i: Int) -> Double { g.xs[s + i] }
        @inline(__always) func y(_ i: Int) -> Double { g.ys[s + i] }
        var upHigh = 0, upLow = -1
        var previousY = y(0)
        for i in 1...n {
            let py = y(i)
            if py > previousY && py >= y(upHigh) { upHigh = i; upLow = i - 1 }
            previousY = py
        }
        if upHigh == 0 { return false }
        var downLow = upHigh
        repeat { downLow = (downLow + 1) % n } while downLow != upHigh && y(downLow) == y(upHigh)
        let downHigh = downLow > 0 ? downLow - 1 : n - 1
        if x(upHigh) == x(downHigh) && y(upHigh) == y(downHigh) {
            if (x(upLow) == x(upHigh) && y(upLow) == y(upHigh)) || (x(downLow) == x(upHigh) && y(downLow) == y(upHigh))
                || (x(upLow) == x(downLow) && y(upLow) == y(downLow)) { return false }
            return orientation(x(upLow), y(upLow), x(upHigh), y(upHigh), x(downLow), y(downLow)) > 0
        }
        return x(downHigh) - x(upHigh) < 0
    }
}

/// The running sums of GEOS's centroid: triangles fanned from a base point, segment midpoints
/// weighted by length, and points.
private struct PlanarCentroidSums {
    var baseX = 0.0, baseY = 0.0
    var triangleX = 0.0, triangleY = 0.0, doubleArea = 0.0
    var lineX = 0.0, lineY = 0.0, totalLength = 0.0
    var pointX = 0.0, pointY = 0.0, pointCount = 0

    mutating func addPoint(_ x: Double, _ y: Double) {
        pointCount += 1; pointX += x; pointY += y
    }

    mutating func addLineSegments(_ g: Geometry, ring: Int) {
        let points = g.pointRange(ring: ring)
        guard !points.isEmpty else { return }
        var ringLength = 0.0
        for i in points.lowerBound..<(points.upperBound - 1) {
            let segmentLength = Planar.hypotenuse(g.xs[i + 1] - g.xs[i], g.ys[i + 1] - g.ys[i])
            if segmentLength == 0 { continue }
            ringLength += segmentLength
            lineX += segmentLength * ((g.xs[i] + g.xs[i + 1]) / 2)
            lineY += segmentLength * ((g.ys[i] + g.ys[i + 1]) / 2)
        }
        totalLength += ringLength
        if ringLength == 0 { addPoint(g.xs[points.lowerBound], g.ys[points.lowerBound]) }
    }

    mutating func addRingTriangles(_ g: Geometry, ring: Int, positive: Bool) {
        let points = g.pointRange(ring: ring)
        guard points.count > 1 else { return }
        let sign = positive ? 1.0 : -1.0
        for i in points.lowerBound..<(points.upperBound - 1) {
            let x1 = g.xs[i], y1 = g.ys[i], x2 = g.xs[i + 1], y2 = g.ys[i + 1]
            let cx = baseX + x1 + x2, cy = baseY + y1 + y2
            let a2 = (x1 - baseX) * (y2 - baseY) - (x2 - baseX) * (y1 - baseY)
            triangleX += sign * a2 * cx
            triangleY += sign * a2 * cy
            doubleArea += sign * a2
        }
    }

    var centroid: (Double, Double)? {
        if abs(doubleArea) > 0 { return (triangleX / 3 / doubleArea, triangleY / 3 / doubleArea) }
        if totalLength > 0 { return (lineX / totalLength, lineY / totalLength) }
        if pointCount > 0 { return (pointX / Double(pointCount), pointY / Double(pointCount)) }
        return nil
    }
}
