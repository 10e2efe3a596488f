/// Calendar arithmetic on the proleptic Gregorian calendar, without Foundation:
/// these run once per row in time buckets, so they must be plain integer math.
/// Algorithms after Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms".
public enum CivilTime {
    public static let microsPerSecond: Int64 = 1_000_000
    public static let microsPerMinute: Int64 = 60_000_000
    public static let microsPerHour: Int64 = 3_600_000_000
    public static let microsPerDay: Int64 = 86_400_000_000

    /// Days since 1970-01-01 of the given date.
    @inlinable
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day number (days since 1970-01-01).
    @inlinable
    public static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    /// Floor division that rounds toward negative infinity (times before 1970 stay correct).
    @inlinable
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        // Int64.min / -1 does not fit; no caller divides by a negative step.
        if b == -1 { return 0 &- a }
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable
    public static func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
        // Every whole number divides by -1 (and Int64.min % -1 would trap).
        if b == -1 { return 0 }
        let r = a % b
        return (r != 0 && (r < 0) != (b < 0)) ? r + b : r
    }

    /// ISO weekday of a day number: 1 = Monday … 7 = Sunday.
    @inlinable
    public static func isoWeekday(days: Int64) -> Int {
        // 1970-01-01 was a Thursday (4).
        Int(floorMod(days + 3, 7)) + 1
    }

    /// ISO 8601 week-numbering year and week of a day number.
    public static func isoWeek(days: Int64) -> (year: Int, week: Int) {
        let weekday = Int64(isoWeekday(days: days))
        let thursday = days - weekday + 4  // the Thursday of this ISO week decides the year
        let year = civilFromDays(thursday).year
        let jan1 = daysFromCivil(year: year, month: 1, day: 1)
        return (year, Int((thursday - jan1) / 7) + 1)
    }

    /// Day number of the Monday that starts the ISO week containing `days`.
    @inlinable
    public static func weekStart(days: Int64) -> Int64 {
        days - Int64(isoWeekday(days: days) - 1)
    }

    public static func isLeapYear(_ y: Int) -> Bool {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        default: return isLeapYear(year) ? 29 : 28
        }
    }

    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

/// A wall-clock date and time, as read from text or shown to a user.
public struct LocalDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var microsecond: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, microsecond: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.microsecond = microsecond
    }

    /// Microseconds since the epoch as if this wall time were UTC.
    public var wallMicros: Int64 {
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        return days * CivilTime.microsPerDay
            + Int64(hour) * CivilTime.microsPerHour
            + Int64(minute) * CivilTime.microsPerMinute
            + Int64(second) * CivilTime.microsPerSecond
            + Int64(microsecond)
    }

    public init(wallMicros: Int64) {
        let days = CivilTime.floorDiv(wallMicros, CivilTime.microsPerDay)
        var rest = wallMicros - days * CivilTime.microsPerDay
        let (y, m, d) = CivilTime.civilFromDays(days)
        year = y; month = m; day = d
        hour = Int(rest / CivilTime.microsPerHour); rest %= CivilTime.microsPerHour
        minute = Int(rest / CivilTime.microsPerMinute); rest %= CivilTime.microsPerMinute
        second = Int(rest / CivilTime.microsPerSecond)
        microsecond = Int(rest % CivilTime.microsPerSecond)
    }

    public var isValid: Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= CivilTime.daysInMonth(year: year, month: month)
            && hour >= 0 && hour <= 24 && minute >= 0 && minute < 60 && second >= 0 && second <= 60
    }
}
