/// What the GTFS Schedule reference (gtfs.org/documentation/schedule/reference) says about
/// its files and columns: which files exist, which columns each must have, and what kind
/// of value a column holds, so that ids stay text and service times stay service times.
enum GTFSSchema {
    /// How a column is read.
    enum Kind: Sendable {
        /// Ids, codes, names, colours, URLs: text even when they look like numbers, so
        /// `0012` stays `0012` and joins between files match.
        case text
        case integer
        case number
        /// `YYYYMMDD`, a timestamp at local midnight in the feed's zone.
        case date
        /// `H:MM:SS` since the start of the service day; may pass 24:00:00.
        case serviceTime

        var cellType: CellType {
            switch self {
            case .text: return .string
            case .integer: return .int
            case .number: return .double
            case .date: return .timestamp(.compact)
            case .serviceTime: return .duration(.clock)
            }
        }
    }

    struct File: Sendable {
        /// `stops.txt`.
        let name: String
        /// What one row is called in summaries.
        let rowNoun: String
        /// Columns that must be there.
        let required: [String]
        /// Columns GTFS requires in some feeds, with when: a missing one is reported with why.
        let conditional: [(column: String, when: String)]
        let optional: [String]
        /// When false, GTFS defines the file but utq does not check its columns.
        let columnsChecked: Bool

        /// `stops`: the table's name after the feed's.
        var table: String { String(name.dropLast(4)) }

        var knownColumns: [String] { required + conditional.map(\.column) + optional }

        init(_ name: String, _ rowNoun: String, required: [String] = [], conditional: [(String, String)] = [],
             optional: [String] = [], columnsChecked: Bool = true) {
            self.name = name
            self.rowNoun = rowNoun
            self.required = required
            self.conditional = conditional.map { (column: $0.0, when: $0.1) }
            self.optional = optional
            self.columnsChecked = columnsChecked
        }
    }

    /// Without these there is no timetable to analyse: a feed missing one does not load.
    static let essentialFiles = ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The files in the order their tables are listed.
    static let files: [File] = [
        // agency_id is required when a feed has several agencies: the checks look at that.
        File("agency.txt", "agencies", required: ["agency_name", "agency_url", "agency_timezone"],
             optional: ["agency_id", "agency_lang", "agency_phone", "agency_fare_url", "agency_email", "cemv_support"]),
        File("stops.txt", "stops", required: ["stop_id"],
             conditional: [("stop_name", "for stops, stations and entrances"), ("stop_lat", "for stops, stations and entrances"),
                           ("stop_lon", "for stops, stations and entrances")],
             optional: ["stop_code", "tts_stop_name", "stop_desc", "zone_id", "stop_url", "location_type", "parent_station",
                        "stop_timezone", "wheelchair_boarding", "level_id", "platform_code", "stop_access"]),
        File("routes.txt", "routes", required: ["route_id", "route_type"],
             optional: ["agency_id", "route_short_name", "route_long_name", "route_desc", "route_url", "route_color", "route_text_color",
                        "route_sort_order", "continuous_pickup", "continuous_drop_off", "network_id", "cemv_support"]),
        File("trips.txt", "trips", required: ["route_id", "service_id", "trip_id"],
             optional: ["trip_headsign", "trip_short_name", "direction_id", "block_id", "shape_id", "wheelchair_accessible",
                        "bikes_allowed", "cars_allowed"]),
        File("stop_times.txt", "stop times", required: ["trip_id", "stop_sequence"],
             conditional: [("stop_id", "unless stops are given as flexible locations"),
                           ("arrival_time", "for at least the first and last stop of every trip"),
                           ("departure_time", "for at least the first and last stop of every trip")],
             optional: ["location_group_id", "location_id", "stop_headsign", "start_pickup_drop_off_window",
                        "end_pickup_drop_off_window", "pickup_type", "drop_off_type", "continuous_pickup", "continuous_drop_off",
                        "shape_dist_traveled", "timepoint", "pickup_booking_rule_id", "drop_off_booking_rule_id"]),
        File("calendar.txt", "services", required: ["service_id"] + weekdays + ["start_date", "end_date"]),
        File("calendar_dates.txt", "service dates", required: ["service_id", "date", "exception_type"]),
        File("frequencies.txt", "headway periods", required: ["trip_id", "start_time", "end_time", "headway_secs"],
             optional: ["exact_times"]),
        File("shapes.txt", "shape points", required: ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"],
             optional: ["shape_dist_traveled"]),
        File("transfers.txt", "transfers", required: ["transfer_type"],
             optional: ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id",
                        "min_transfer_time"]),
        File("fare_attributes.txt", "fares", required: ["fare_id", "price", "currency_type", "payment_method", "transfers"],
             optional: ["agency_id", "transfer_duration"]),
        File("fare_rules.txt", "fare rules", required: ["fare_id"],
             optional: ["route_id", "origin_id", "destination_id", "contains_id"]),
        File("pathways.txt", "pathways", required: ["pathway_id", "from_stop_id", "to_stop_id", "pathway_mode", "is_bidirectional"],
             optional: ["length", "traversal_time", "stair_count", "max_slope", "min_width", "signposted_as",
                        "reversed_signposted_as"]),
        File("levels.txt", "levels", required: ["level_id", "level_index"], optional: ["level_name"]),
        File("feed_info.txt", "rows", required: ["feed_publisher_name", "feed_publisher_url", "feed_lang"],
             optional: ["default_lang", "feed_start_date", "feed_end_date", "feed_version", "feed_contact_email",
                        "feed_contact_url"]),
        File("attributions.txt", "attributions", required: ["organization_name"],
             optional: ["attribution_id", "agency_id", "route_id", "trip_id", "is_producer", "is_operator", "is_authority",
                        "attribution_url", "attribution_email", "attribution_phone"]),
        File("translations.txt", "translations", required: ["table_name", "field_name", "language", "translation"],
             optional: ["record_id", "record_sub_id", "field_value"]),
    ] + [
        // Fares v2 and flexible services: read like the rest, their columns not checked.
        "areas", "stop_areas", "networks", "route_networks", "fare_media", "fare_products", "fare_leg_rules",
        "fare_leg_join_rules", "fare_transfer_rules", "timeframes", "rider_categories", "location_groups",
        "location_group_stops", "booking_rules",
    ].map { File($0 + ".txt", "rows", columnsChecked: false) }

    static func file(named name: String) -> File? {
        files.first { $0.name == name }
    }

    /// The kind of a column, by its name: GTFS gives a name the same meaning in every file.
    static func kind(of column: String) -> Kind? {
        if let kind = columnKinds[column] { return kind }
        if column.hasSuffix("_id") { return .text }
        return nil
    }

    /// Columns that are not text. Every other column a file defines is text.
    private static let columnKinds: [String: Kind] = {
        var kinds: [String: Kind] = [:]
        for c in ["location_type", "wheelchair_boarding", "route_type", "route_sort_order", "continuous_pickup",
                  "continuous_drop_off", "direction_id", "wheelchair_accessible", "bikes_allowed", "cars_allowed",
                  "stop_sequence", "pickup_type", "drop_off_type", "timepoint", "exception_type", "payment_method",
                  "transfers", "transfer_duration", "headway_secs", "exact_times", "transfer_type", "min_transfer_time",
                  "shape_pt_sequence", "pathway_mode", "is_bidirectional", "traversal_time", "stair_count",
                  "is_producer", "is_operator", "is_authority", "stop_access", "cemv_support"] + weekdays {
            kinds[c] = .integer
        }
        for c in ["stop_lat", "stop_lon", "shape_pt_lat", "shape_pt_lon", "shape_dist_traveled", "price", "length",
                  "max_slope", "min_width", "level_index"] {
            kinds[c] = .number
        }
        for c in ["start_date", "end_date", "date", "feed_start_date", "feed_end_date"] { kinds[c] = .date }
        for c in ["arrival_time", "departure_time", "start_time", "end_time", "start_pickup_drop_off_window",
                  "end_pickup_drop_off_window"] {
            kinds[c] = .serviceTime
        }
        for file in files where file.columnsChecked {
            for c in file.knownColumns where kinds[c] == nil { kinds[c] = .text }
        }
        return kinds
    }()

    /// File names a feed is recognised by, in a folder or a zip.
    static let recognisingFiles: Set<String> = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt",
                                                "calendar.txt", "calendar_dates.txt"]
}
