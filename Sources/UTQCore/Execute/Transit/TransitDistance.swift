/// Metres between two points given in degrees of latitude and longitude: every distance the
/// transit verbs measure (segments, walking between stops, stops moved between two feeds)
/// goes through this one function, so a more exact figure of the earth changes them all at
/// once and their tests with them.
enum TransitDistance {
    /// The great-circle distance on a sphere of the earth's mean radius (haversine).
    @inline(__always)
    static func metres(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        Geo.haversine(lat1: lat1, lng1: lon1, lat2: lat2, lng2: lon2)
    }
}
