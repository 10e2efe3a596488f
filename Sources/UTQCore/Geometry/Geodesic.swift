// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// Shortest paths (geodesics) on an ellipsoid of revolution: distances, azimuths, points along
/// a path, and the areas of rings whose edges are geodesics.
///
/// The results are GeographicLib's to round-off, and like them accurate to about 15 nm for
/// |f| ≤ 1/100 (the series are of sixth order). Latitudes and longitudes are in degrees,
/// azimuths in degrees clockwise from north in [-180, 180], lengths in metres. A latitude
/// outside [-90, 90] gives NaN results.
public struct Geodesic: Sendable {
    /// The WGS 84 ellipsoid, that of GPS and of most maps.
    public static let wgs84 = Geodesic(a: 6_378_137, f: 1 / 298.257223563)

    /// Equatorial radius in metres.
    let a: Double
    /// Flattening (negative for a prolate ellipsoid).
    let f: Double
    /// 1 - f.
    let f1: Double
    /// Eccentricity squared.
    let e2: Double
    /// Second eccentricity squared, e² / (1 - e²).
    let ep2: Double
    /// Third flattening, the expansion parameter of the series.
    let n: Double
    /// Polar semi-axis in metres.
    let b: Double
    /// Authalic radius squared: the area of the ellipsoid is 4π c².
    let c2: Double
    /// Below this arc length (radians) a line is short enough to be solved without iterating.
    let shortLineThreshold: Double
    /// The ellipsoid's coefficients of the longitude and area series.
    let series: GeodesicSeries.EllipsoidTerms

    /// An ellipsoid with equatorial radius `a` metres and flattening `f`.
    public init(a: Double, f: Double) {
        self.a = a
        self.f = f
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        precondition(a.isFinite && a > 0, "Geodesic: the equatorial radius must be positive")
        precondition(b.isFinite && b > 0, "Geodesic: the polar semi-axis must be positive")
        let authalicFactor: Double = e2 == 0 ? 1
            : (e2 > 0 ? atanh(sqrt(e2)) : atan(sqrt(-e2))) / sqrt(abs(e2))
        c2 = (a * a + b * b * authalicFactor) / 2
        // The spherical solution with the mean-latitude scale errs by σ² |f| min(1, 1 - f/2) / 2
        // in azimuth; the threshold makes that 1/100 of epsilon (0.1 is the safety factor, and
        // the 0.001 floor keeps it finite near the sphere).
        shortLineThreshold = 0.1 * GeodesicTolerance.sqrtEpsilon
            / sqrt(max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2)
        series = GeodesicSeries.EllipsoidTerms(n: n)
    }

    /// Distance in metres, and the forward azimuths in degrees (clockwise from north, -180...180) at each end.
    public func inverse(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> (distance: Double, azimuth1: Double, azimuth2: Double) {
        let solution = solveInverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2, withArea: false)
        return (solution.distance,
                GeodesicMath.atan2Degrees(solution.salp1, solution.calp1),
                GeodesicMath.atan2Degrees(solution.salp2, solution.calp2))
    }

    /// The point reached from (lat1, lon1) going `distance` metres at `azimuth` degrees; and the azimuth there.
    ///
    /// The longitude is reduced to [-180, 180].
    public func direct(lat1: Double, lon1: Double, azimuth: Double, distance: Double) -> (lat: Double, lon: Double, azimuth: Double) {
        GeodesicLine(self, lat1: lat1, lon1: lon1, azimuth: azimuth).position(distance: distance)
    }

    /// Points every `step` metres along the geodesic from 1 to 2 (for drawing and for buffers), ends included.
    ///
    /// The first and last points are the given ends (longitudes reduced to [-180, 180]); between
    /// them come the points `step`, 2·`step`, … metres from point 1, up to but excluding point 2.
    /// Coincident or invalid ends, or a step that is not positive, give only the two ends; a step
    /// so small that it would make more than a million intervals is widened to a millionth of
    /// the distance.
    public func waypoints(lat1: Double, lon1: Double, lat2: Double, lon2: Double, step: Double) -> [(lat: Double, lon: Double)] {
        let solution = solveInverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2, withArea: false)
        let start = (lat: lat1, lon: GeodesicMath.normalizeAngle(lon1))
        let end = (lat: lat2, lon: GeodesicMath.normalizeAngle(lon2))
        let distance = solution.distance
        guard distance > 0, distance.isFinite, step > 0 else { return [start, end] }
        let maximumIntervals = 1_000_000.0
        let spacing = max(step, distance / maximumIntervals)
        let intervals = max(1, Int((distance / spacing).rounded(.up)))
        let line = GeodesicLine(self, lat1: lat1, lon1: lon1, salp1: solution.salp1, calp1: solution.calp1)
        var points: [(lat: Double, lon: Double)] = []
        points.reserveCapacity(intervals + 1)
        points.append(start)
        for k in 1..<intervals {
            let point = line.position(distance: Double(k) * spacing)
            points.append((point.lat, point.lon))
        }
        points.append(end)
        return points
    }
}

/// Convergence tolerances of the inverse solution, all powers of two of the double's epsilon.
enum GeodesicTolerance {
    /// √(smallest normal double): a cosine of latitude never goes below this, so the poles
    /// keep a longitude.
    static var tiny: Double { 0x1p-511 }
    static var epsilon: Double { 0x1p-52 }
    static var sqrtEpsilon: Double { 0x1p-26 }
    /// Near the cut through the antipode, where the start is taken on the strip.
    static var nearCut: Double { 200 * epsilon }
    static var stripWidth: Double { 1000 * sqrtEpsilon }
    /// Newton iterations before falling back to bisection alone.
    static var newtonIterations: Int { 20 }
    /// All iterations: enough bisections after Newton to exhaust a double's digits.
    static var maximumIterations: Int { newtonIterations + 53 + 10 }
}
