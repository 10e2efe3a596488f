/// Names for GTFS `route_type` codes, so a table can say "Bus" where the file says 3.
enum GTFSRouteTypes {
    /// The basic codes of the GTFS reference.
    static let basic: [Int64: String] = [
        0: "Tram", 1: "Subway", 2: "Rail", 3: "Bus", 4: "Ferry", 5: "Cable tram", 6: "Aerial lift",
        7: "Funicular", 11: "Trolleybus", 12: "Monorail",
    ]

    /// The extended codes (Google's, from the European Hierarchical Vehicle Type list),
    /// named by their family: every code from 700 to 799 is a kind of bus.
    static let families: [Int64: String] = [
        100: "Rail", 200: "Coach", 300: "Suburban rail", 400: "Urban rail", 500: "Metro", 600: "Underground",
        700: "Bus", 800: "Trolleybus", 900: "Tram", 1000: "Water transport", 1100: "Air", 1200: "Ferry",
        1300: "Aerial lift", 1400: "Funicular", 1500: "Taxi", 1600: "Self drive", 1700: "Miscellaneous",
    ]

    /// The name of a code, or nil when GTFS does not define it.
    static func name(_ code: Int64) -> String? {
        if let name = basic[code] { return name }
        guard code >= 100, code < 1800 else { return nil }
        return families[code / 100 * 100]
    }

    /// A `route_type_name` column beside `route_type`, and the rows whose code has no name.
    static func nameColumn(for codes: Column) -> (column: Column, unknown: [Int]) {
        var interner = ByteInterner()
        var out: [UInt32] = []
        var validity = Bitmap()
        var unknown: [Int] = []
        out.reserveCapacity(codes.count)
        for row in 0..<codes.count {
            var name: String? = nil
            switch codes.value(at: row) {
            case .int(let code):
                name = Self.name(code)
                if name == nil { unknown.append(row) }
            case .null: break
            default: unknown.append(row)
            }
            out.append(name.map { interner.intern($0) } ?? 0)
            validity.append(name != nil)
        }
        let column = Column(name: "route_type_name", storage: .string(StringStorage(codes: out, dictionary: interner.strings())),
                            validity: validity)
        return (column, unknown)
    }
}
