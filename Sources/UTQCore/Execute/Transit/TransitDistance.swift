/// Metres between two points given in degrees of latitude and longitude: every distance the
/// transit verbs measure (segments, walking between stops, stops moved between two feeds)
/// goes through this one function, so a more exact figure of the earth changes them all at
/// once and their tests with them.
enum TransitDistance {
    /// The geodesic distance on WGS 84 (Karney's algorithm, as GeographicLib and PostGIS's
    /// geography measure it), as every distance in lng/lat is measured.
    @inline(__always)
    static func metres(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        GeoMeasure.geodesic.inverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2).distance
    }
}
