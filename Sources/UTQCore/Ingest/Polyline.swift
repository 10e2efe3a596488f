/// Google's encoded polyline format: points as zig-zag, base-64-ish chunks of 5 bits,
/// latitude then longitude, each a difference from the point before, at 1e-5 degrees.
public enum Polyline {
    public static func decode(_ text: String) -> [(lat: Double, lng: Double)]? {
        let bytes = Array(text.utf8)
        var i = 0
        var lat = 0, lng = 0
        var points: [(Double, Double)] = []
        func next() -> Int? {
            var result = 0, shift = 0
            while true {
                guard i < bytes.count else { return nil }
                let b = Int(bytes[i]) - 63
                i += 1
                guard b >= 0, b < 64, shift < 60 else { return nil }
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20 { break }
            }
            return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
        }
        while i < bytes.count {
            guard let dLat = next(), let dLng = next() else { return nil }
            // A crafted line can add up past any number: that is no polyline.
            let (la, o1) = lat.addingReportingOverflow(dLat), (ln, o2) = lng.addingReportingOverflow(dLng)
            guard !o1, !o2 else { return nil }
            lat = la; lng = ln
            points.append((Double(lat) / 1e5, Double(lng) / 1e5))
        }
        return points
    }

    public static func encode(_ points: [(lat: Double, lng: Double)]) -> String {
        var out = ""
        var lastLat = 0, lastLng = 0
        func put(_ v: Int) {
            var x = v < 0 ? ~(v << 1) : (v << 1)
            while x >= 0x20 {
                out.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (x & 0x1F)) + 63)))
                x >>= 5
            }
            out.unicodeScalars.append(Unicode.Scalar(UInt8(x + 63)))
        }
        for p in points {
            // Only points on the Earth have a place in a polyline.
            guard p.lat.magnitude <= 90, p.lng.magnitude <= 180 else { continue }
            let lat = Int((p.lat * 1e5).rounded()), lng = Int((p.lng * 1e5).rounded())
            put(lat - lastLat); put(lng - lastLng)
            lastLat = lat; lastLng = lng
        }
        return out
    }

    /// Length in metres along the points.
    public static func length(_ points: [(lat: Double, lng: Double)]) -> Double {
        guard points.count > 1 else { return 0 }
        var total = 0.0
        for k in 1..<points.count {
            total += Geo.haversine(lat1: points[k - 1].lat, lng1: points[k - 1].lng, lat2: points[k].lat, lng2: points[k].lng)
        }
        return total
    }
}
