/// Stable codes for what the checks of a feed find, named as MobilityData's gtfs-validator
/// names its notices where one fits, so a warning can be looked up, counted and compared
/// with the validator's report. Whatever raises a warning of a feed chooses its code; the
/// cases are in the order `help gtfs` lists them.
enum GTFSNoticeCode: String, CaseIterable, Sendable {
    case leadingOrTrailingWhitespaces = "leading_or_trailing_whitespaces"
    case missingRequiredColumn = "missing_required_column"
    case unknownColumn = "unknown_column"
    case missingRequiredField = "missing_required_field"
    case duplicateKey = "duplicate_key"
    case foreignKeyViolation = "foreign_key_violation"
    case unusedEntity = "unused_entity"
    case invalidTimezone = "invalid_timezone"
    case startAndEndRangeOutOfOrder = "start_and_end_range_out_of_order"
    case unexpectedEnumValue = "unexpected_enum_value"
    case duplicateCalendarDate = "duplicate_calendar_date"
    case pointNearOrigin = "point_near_origin"
    case invalidHeadway = "invalid_headway"
    case duplicateRouteName = "duplicate_route_name"
    case stopTimeWithArrivalBeforePreviousDepartureTime = "stop_time_with_arrival_before_previous_departure_time"
    case stopTimeWithOnlyArrivalOrDepartureTime = "stop_time_with_only_arrival_or_departure_time"
    case missingTripEdge = "missing_trip_edge"
    case numberOutOfRange = "number_out_of_range"
    case tripWithOneStop = "trip_with_one_stop"
    case stopsTooClose = "stops_too_close"
    case unknownShape = "unknown_shape"
    case invalidRowLength = "invalid_row_length"
    case invalidDate = "invalid_date"
    case invalidTime = "invalid_time"
    case missingRequiredFile = "missing_required_file"
    case missingCalendarAndCalendarDateFiles = "missing_calendar_and_calendar_date_files"
    case emptyFile = "empty_file"
    case unknownFile = "unknown_file"

    /// What the notice means for an analysis.
    var meaning: String {
        switch self {
        case .leadingOrTrailingWhitespaces:
            return "A column name has spaces or other characters around it; utq reads it by its name, but tools that match names exactly miss the column."
        case .missingRequiredColumn:
            return "A column GTFS requires is not there; questions that need it get nulls."
        case .unknownColumn:
            return "A column GTFS does not define; kept as it is, unchecked."
        case .missingRequiredField:
            return "A value GTFS requires is empty; rows without it drop out of joins and counts on it."
        case .duplicateKey:
            return "An id or a sequence number appears twice; joins on it match twice and counts grow."
        case .foreignKeyViolation:
            return "A row names an id no other file defines (a trip of a route that is not in routes.txt); an inner join drops it."
        case .unusedEntity:
            return "Something defined that no trip uses (a stop no trip calls at); harmless, but it counts in totals of that table."
        case .invalidTimezone:
            return "The agency's time zone is missing or unknown; times of day are read in the zone utq chose, as the load says."
        case .startAndEndRangeOutOfOrder:
            return "An end comes before its start; that service or frequency never runs."
        case .unexpectedEnumValue:
            return "A coded value GTFS does not define; rows with it are kept, but service and type questions may leave them out."
        case .duplicateCalendarDate:
            return "calendar_dates.txt gives one service the same date twice; service on that day uses both."
        case .pointNearOrigin:
            return "A position outside the world or at 0, 0; maps and distances from it are wrong."
        case .invalidHeadway:
            return "frequencies.txt gives a headway that is zero or negative."
        case .duplicateRouteName:
            return "Routes named alike (or a route without a name); group by route_id, not by name."
        case .stopTimeWithArrivalBeforePreviousDepartureTime:
            return "A trip arrives before it left the stop before; its durations and speeds are wrong."
        case .stopTimeWithOnlyArrivalOrDepartureTime:
            return "A stop time has an arrival or a departure, not both; headways use departures only."
        case .missingTripEdge:
            return "A trip's first or last stop has no time; the trip's span and service hours cannot be told."
        case .numberOutOfRange:
            return "A number GTFS wants at zero or more is negative; stop order still follows it."
        case .tripWithOneStop:
            return "A trip calls at one stop only; it has no travel time or distance."
        case .stopsTooClose:
            return "Two stops a few metres apart, likely one stop given twice; counts per stop split between them."
        case .unknownShape:
            return "A trip names a shape shapes.txt does not have; distances come from stops instead."
        case .invalidRowLength:
            return "A line has more or fewer cells than the header; missing cells are empty, extra cells are dropped, so values may sit under the wrong column."
        case .invalidDate:
            return "A date not written YYYYMMDD is left empty; a service with an empty start_date or end_date runs on no day."
        case .invalidTime:
            return "A time not written HH:MM:SS is left empty; the stop counts as having no time (as a stop that is no timepoint)."
        case .missingRequiredFile:
            return "A file GTFS requires is not in the feed; questions that need it cannot be answered, and without agency.txt times are read in UTC."
        case .missingCalendarAndCalendarDateFiles:
            return "Neither calendar.txt nor calendar_dates.txt: the feed does not say on which days its trips run, so service on and the other transit verbs cannot choose a day."
        case .emptyFile:
            return "A file with nothing in it (not even a header) is left out; the feed is read as if it had no such file."
        case .unknownFile:
            return "A file GTFS does not define; loaded as a table of its own, unchecked. A name close to a GTFS file is often a typo."
        }
    }

    /// The notice a warning of reading (a file's cells, its dates) is filed under; nil for
    /// what no notice covers (an encoding converted, line ends mixed). Those warnings come
    /// from the CSV reader, which knows no GTFS, so the kind it gave them is mapped here.
    init?(reading kind: LoadWarning.Kind) {
        switch kind {
        case .rowLength: self = .invalidRowLength
        case .unreadableCell(.timestamp(.compact)): self = .invalidDate
        case .unreadableCell(.duration(.clock)): self = .invalidTime
        case .unreadableCell, .other: return nil
        }
    }

    /// The notice a file that cannot be read is filed under, by why it cannot; nil when
    /// no notice covers the reason.
    init?(unreadable kind: LoadError.Kind) {
        switch kind {
        case .emptyFile: self = .emptyFile
        case .noSuchFile, .isFolder, .permissionDenied, .other: return nil
        }
    }
}

/// A notice as `help gtfs` shows it: its code and what it means.
struct GTFSNotice: Sendable {
    let code: String
    let meaning: String
}

enum GTFSNotices {
    static let all: [GTFSNotice] = GTFSNoticeCode.allCases.map { GTFSNotice(code: $0.rawValue, meaning: $0.meaning) }
}
