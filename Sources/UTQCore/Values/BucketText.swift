/// Buckets written as they are shown: a month as `2017-10`, an ISO week as `2017-W43`, a
/// year as `2017`, read back to the instant the bucket starts, so `where month = "2017-10"`
/// compares with the bucket the way it reads.
public enum BucketText {
    public static func start(_ text: String, unit: DisplayUnit, zone: ZoneRules) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let parts = t.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        switch unit {
        case .month:
            guard parts.count == 2, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m) else { return nil }
            return zone.instant(wallMicros: CivilTime.daysFromCivil(year: y, month: m, day: 1) * CivilTime.microsPerDay)
        case .week:
            guard parts.count == 2, parts[0].count == 4, let y = Int(parts[0]), parts[1].uppercased().hasPrefix("W"),
                  let w = Int(parts[1].dropFirst()), (1...53).contains(w) else { return nil }
            // Week 1 is the week with the year's first Thursday; it starts on its Monday.
            let jan4 = CivilTime.daysFromCivil(year: y, month: 1, day: 4)
            let monday = CivilTime.weekStart(days: jan4) + Int64(w - 1) * 7
            guard CivilTime.isoWeek(days: monday).week == w else { return nil }
            return zone.instant(wallMicros: monday * CivilTime.microsPerDay)
        case .year:
            guard parts.count == 1, t.count == 4, let y = Int(t) else { return nil }
            return zone.instant(wallMicros: CivilTime.daysFromCivil(year: y, month: 1, day: 1) * CivilTime.microsPerDay)
        default:
            return nil
        }
    }
}

import Foundation
