// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

extension Geodesic {
    /// Length in metres of a path through the points in order (sum of geodesics).
    public func length(lats: [Double], lons: [Double]) -> Double {
        precondition(lats.count == lons.count, "Geodesic.length: as many latitudes as longitudes")
        var total = GeodesicAccumulator()
        for i in lats.indices.dropFirst() {
            total.add(solveInverse(lat1: lats[i - 1], lon1: lons[i - 1], lat2: lats[i], lon2: lons[i], withArea: false).distance)
        }
        return total.sum()
    }

    /// Area in square metres (positive, whatever the ring's direction) and perimeter in metres of a closed ring
    /// (the first point may or may not be repeated at the end), as GeographicLib's PolygonArea gives it
    /// (area of the smaller side: for a ring traversed either way, the same positive area).
    ///
    /// Edges are geodesics. A self-intersecting ring counts its loops with their signs (the two
    /// halves of a figure eight cancel). Fewer than two points give (0, 0).
    public func ringArea(lats: [Double], lons: [Double]) -> (area: Double, perimeter: Double) {
        precondition(lats.count == lons.count, "Geodesic.ringArea: as many latitudes as longitudes")
        guard lats.count >= 2 else { return (0, 0) }
        var perimeter = GeodesicAccumulator()
        var area = GeodesicAccumulator()
        var crossings = 0
        for i in lats.indices.dropFirst() {
            let edge = solveInverse(lat1: lats[i - 1], lon1: lons[i - 1], lat2: lats[i], lon2: lons[i], withArea: true)
            perimeter.add(edge.distance)
            area.add(edge.area)
            crossings += Self.primeMeridianCrossing(lons[i - 1], lons[i])
        }
        // The closing edge, summed as PolygonArea sums it: a zero-length one (the first point
        // repeated) then leaves the perimeter's sum exactly as it was.
        let last = lats.count - 1
        let closing = solveInverse(lat1: lats[last], lon1: lons[last], lat2: lats[0], lon2: lons[0], withArea: true)
        area.add(closing.area)
        crossings += Self.primeMeridianCrossing(lons[last], lons[0])
        let signedArea = reducedRingArea(area, crossings: crossings)
        return (abs(signedArea), perimeter.sum(adding: closing.distance))
    }

    /// The ring's area counter-clockwise positive, in (-A/2, A/2] for A the area of the ellipsoid.
    ///
    /// The edges' areas are measured to the equator, so a ring that goes round a pole (it
    /// crosses the prime meridian an odd number of times) is off by half the ellipsoid.
    private func reducedRingArea(_ clockwiseArea: GeodesicAccumulator, crossings: Int) -> Double {
        let total = 4 * Double.pi * c2
        var area = clockwiseArea
        area.reduce(modulo: total)
        if crossings & 1 != 0 {
            area.add((area.sum() < 0 ? 1 : -1) * total / 2)
        }
        area.negate()
        if area.sum() > total / 2 {
            area.add(-total)
        } else if area.sum() <= -total / 2 {
            area.add(total)
        }
        return 0.0 + area.sum()
    }

    /// 1 or -1 when the edge from lon1 to lon2 crosses the prime meridian going east or west,
    /// else 0; the difference is taken as the inverse solution takes it, so both agree.
    static func primeMeridianCrossing(_ lon1: Double, _ lon2: Double) -> Int {
        let lon12 = GeodesicMath.angleDifference(lon1, lon2).difference
        let lon1 = GeodesicMath.normalizeAngle(lon1)
        let lon2 = GeodesicMath.normalizeAngle(lon2)
        if lon12 > 0 && ((lon1 < 0 && lon2 >= 0) || (lon1 > 0 && lon2 == 0)) { return 1 }
        if lon12 < 0 && lon1 >= 0 && lon2 < 0 { return -1 }
        return 0
    }

    /// S12 of the geodesic in canonical form: the area between it and the equator, from the
    /// area integral (I4) plus c² times the change of azimuth along it.
    func areaToEquator(sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
                       salp1: Double, calp1: Double, salp2: Double, calp2: Double,
                       meridian: Bool, somg12: Double, comg12: Double, omg12: Double) -> Double {
        typealias M = GeodesicMath
        // sin α0 = sin α1 cos β1
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var s12: Double
        if calp0 != 0 && salp0 != 0 {
            // tan β = tan σ cos α
            var (ssig1, csig1) = (sbet1, calp1 * cbet1)
            var (ssig2, csig2) = (sbet2, calp2 * cbet2)
            let k2 = M.sq(calp0) * ep2
            let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
            // a² e² cos α0 sin α0
            let a4 = M.sq(a) * calp0 * salp0 * e2
            (ssig1, csig1) = M.normalize(ssig1, csig1)
            (ssig2, csig2) = M.normalize(ssig2, csig2)
            let c4 = series.c4(eps)
            s12 = a4 * (c4.sum(sin: ssig2, cos: csig2) - c4.sum(sin: ssig1, cos: csig1))
        } else {
            // Along a meridian or the equator σ is undefined, and the integral vanishes.
            s12 = 0
        }

        var somg12 = somg12, comg12 = comg12
        if !meridian && somg12 == 2 {
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }
        let alp12: Double
        if !meridian && comg12 > -0.7071 && sbet2 - sbet1 < 1.75 {
            // ω12 < 3π/4 and the latitudes not too far apart: the azimuth change from
            // tan(γ/2) = tan(ω12/2) (tan(β1/2) + tan(β2/2)) / (1 + tan(β1/2) tan(β2/2)), which
            // keeps its accuracy for short edges.
            let domg12 = 1 + comg12, dbet1 = 1 + cbet1, dbet2 = 1 + cbet2
            alp12 = 2 * atan2(somg12 * (sbet1 * dbet2 + sbet2 * dbet1),
                              domg12 * (sbet1 * sbet2 + dbet1 * dbet2))
        } else {
            // α12 = α2 - α1 (atan2 needs no normalization).
            var salp12 = salp2 * calp1 - calp2 * salp1
            var calp12 = calp2 * calp1 + salp2 * salp1
            // Going from α1 = ±180 to α2 = 0 must give -180, which rests on the sign of the zero.
            if salp12 == 0 && calp12 < 0 {
                salp12 = GeodesicTolerance.tiny * calp1
                calp12 = -1
            }
            alp12 = atan2(salp12, calp12)
        }
        s12 += c2 * alp12
        return s12
    }
}

/// A running sum kept as a double and its error term, so that the large areas of the edges
/// (up to half the ellipsoid each) cancel down to a small ring's area without losing it.
struct GeodesicAccumulator {
    private var s = 0.0
    private var t = 0.0

    mutating func add(_ y: Double) {
        // Shewchuk's exact sum, starting at the least significant end: the sum is then s + t + u
        // exactly, and u is folded into t (an approximation of at most an ulp of t per add).
        let (y1, u) = GeodesicMath.errorFreeSum(y, t)
        (s, t) = GeodesicMath.errorFreeSum(y1, s)
        if s == 0 {
            s = u
        } else {
            t += u
        }
    }

    func sum(adding y: Double = 0) -> Double {
        if y == 0 { return s }
        var copy = self
        copy.add(y)
        return copy.s
    }

    mutating func negate() {
        s = -s
        t = -t
    }

    /// Reduces the sum to [-y/2, y/2].
    mutating func reduce(modulo y: Double) {
        s = remainder(s, y)
        add(0.0)
    }
}
