/// Stable codes for what the checks of a feed find, named as MobilityData's gtfs-validator
/// names its notices where one fits, so a warning can be looked up, counted and compared
/// with the validator's report. Each says what it means for an analysis.
struct GTFSNotice: Sendable {
    let code: String
    /// The kinds of warning (as the checks file them) this notice stands for; a kind ending
    /// in a space stands for every kind that starts with it (`duplicate ` for `duplicate stop_id`).
    let kinds: [String]
    let meaning: String
    /// Words that mark a warning of reading (a file's cells, its dates) as this notice: those
    /// warnings come from the CSV reader, which knows no GTFS kinds.
    var says: [String] = []
}

enum GTFSNotices {
    static let all: [GTFSNotice] = [
        GTFSNotice(code: "leading_or_trailing_whitespaces", kinds: ["column name"],
                   meaning: "A column name has spaces or other characters around it; utq reads it by its name, but tools that match names exactly miss the column."),
        GTFSNotice(code: "missing_required_column", kinds: ["missing column"],
                   meaning: "A column GTFS requires is not there; questions that need it get nulls."),
        GTFSNotice(code: "unknown_column", kinds: ["unknown column"],
                   meaning: "A column GTFS does not define; kept as it is, unchecked."),
        GTFSNotice(code: "missing_required_field", kinds: ["no ", "no stop_sequence", "no position"],
                   meaning: "A value GTFS requires is empty; rows without it drop out of joins and counts on it."),
        GTFSNotice(code: "duplicate_key", kinds: ["duplicate ", "repeated stop_sequence", "repeated shape_pt_sequence"],
                   meaning: "An id or a sequence number appears twice; joins on it match twice and counts grow."),
        GTFSNotice(code: "foreign_key_violation", kinds: ["undefined "],
                   meaning: "A row names an id no other file defines (a trip of a route that is not in routes.txt); an inner join drops it."),
        GTFSNotice(code: "unused_entity", kinds: ["unused "],
                   meaning: "Something defined that no trip uses (a stop no trip calls at); harmless, but it counts in totals of that table."),
        GTFSNotice(code: "invalid_timezone", kinds: ["zone"],
                   meaning: "The agency's time zone is missing or unknown; times of day are read in the zone utq chose, as the load says."),
        GTFSNotice(code: "start_and_end_range_out_of_order", kinds: ["date order", "time order"],
                   meaning: "An end comes before its start; that service or frequency never runs."),
        GTFSNotice(code: "unexpected_enum_value", kinds: ["weekday value", "exception_type", "route_type", "location_type"],
                   meaning: "A coded value GTFS does not define; rows with it are kept, but service and type questions may leave them out."),
        GTFSNotice(code: "duplicate_calendar_date", kinds: ["duplicate date"],
                   meaning: "calendar_dates.txt gives one service the same date twice; service on that day uses both."),
        GTFSNotice(code: "point_near_origin", kinds: ["bad position"],
                   meaning: "A position outside the world or at 0, 0; maps and distances from it are wrong."),
        GTFSNotice(code: "invalid_headway", kinds: ["headway"],
                   meaning: "frequencies.txt gives a headway that is zero or negative."),
        GTFSNotice(code: "duplicate_route_name", kinds: ["repeated route name", "route name"],
                   meaning: "Routes named alike (or a route without a name); group by route_id, not by name."),
        GTFSNotice(code: "stop_time_with_arrival_before_previous_departure_time", kinds: ["time goes back"],
                   meaning: "A trip arrives before it left the stop before; its durations and speeds are wrong."),
        GTFSNotice(code: "stop_time_with_only_arrival_or_departure_time", kinds: ["half a time"],
                   meaning: "A stop time has an arrival or a departure, not both; headways use departures only."),
        GTFSNotice(code: "missing_trip_edge", kinds: ["end without time"],
                   meaning: "A trip's first or last stop has no time; the trip's span and service hours cannot be told."),
        GTFSNotice(code: "number_out_of_range", kinds: ["negative stop_sequence"],
                   meaning: "A number GTFS wants at zero or more is negative; stop order still follows it."),
        GTFSNotice(code: "trip_with_one_stop", kinds: ["one stop"],
                   meaning: "A trip calls at one stop only; it has no travel time or distance."),
        GTFSNotice(code: "stops_too_close", kinds: ["stops too close"],
                   meaning: "Two stops a few metres apart, likely one stop given twice; counts per stop split between them."),
        GTFSNotice(code: "unknown_shape", kinds: ["shape_id"],
                   meaning: "A trip names a shape shapes.txt does not have; distances come from stops instead."),
        GTFSNotice(code: "invalid_row_length", kinds: [],
                   meaning: "A line has more or fewer cells than the header; missing cells are empty, extra cells are dropped, so values may sit under the wrong column.",
                   says: ["cells where the header has", "missing cells", "extra cells"]),
        GTFSNotice(code: "invalid_date", kinds: [],
                   meaning: "A date not written YYYYMMDD is left empty; a service with an empty start_date or end_date runs on no day.",
                   says: ["is not a date written YYYYMMDD"]),
        GTFSNotice(code: "invalid_time", kinds: [],
                   meaning: "A time not written HH:MM:SS is left empty; the stop counts as having no time (as a stop that is no timepoint).",
                   says: ["is not a time of day", "is not a GTFS time"]),
        GTFSNotice(code: "missing_required_file", kinds: [],
                   meaning: "A file GTFS requires is not in the feed; questions that need it cannot be answered, and without agency.txt times are read in UTC.",
                   says: ["which GTFS requires; without an agency_timezone"]),
        GTFSNotice(code: "missing_calendar_and_calendar_date_files", kinds: [],
                   meaning: "Neither calendar.txt nor calendar_dates.txt: the feed does not say on which days its trips run, so service on and the other transit verbs cannot choose a day.",
                   says: ["there is neither calendar.txt nor calendar_dates.txt"]),
        GTFSNotice(code: "empty_file", kinds: [],
                   meaning: "A file with nothing in it (not even a header) is left out; the feed is read as if it had no such file.",
                   says: ["the file is empty"]),
        GTFSNotice(code: "unknown_file", kinds: [],
                   meaning: "A file GTFS does not define; loaded as a table of its own, unchecked. A name close to a GTFS file is often a typo.",
                   says: ["is not a GTFS file"]),
    ]

    /// The notice a kind of warning is filed under.
    static func code(for kind: String) -> String? {
        if let exact = all.first(where: { $0.kinds.contains(kind) }) { return exact.code }
        return all.first(where: { n in n.kinds.contains { $0.hasSuffix(" ") && kind.hasPrefix($0) } })?.code
    }

    static func notice(_ code: String) -> GTFSNotice? { all.first { $0.code == code } }

    /// The notice a warning of reading is, by what it says; nil for what no notice covers
    /// (an encoding converted, line ends mixed).
    static func code(forMessage message: String) -> String? {
        all.first { n in n.says.contains { message.contains($0) } }?.code
    }
}
