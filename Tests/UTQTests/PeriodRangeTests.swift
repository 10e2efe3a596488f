import Testing
@testable import UTQCore

/// A condition on a day, week, month or year is sent to a database as a range of the time
/// (TimeBuckets.period): the range must hold exactly the instants whose bucket is the value,
/// as memory computes buckets, next to every change of clock; where it cannot, there is none.
@Suite struct PeriodRangeTests {
    func buckets(_ b: TimeBucket, _ times: [Int64], _ zone: ZoneRules) throws -> [Int64] {
        let c = Column(name: "t", storage: .timestamp(times))
        guard case .column(let out) = try Buckets.apply(b, .column(c), zone: zone, times.count), case .timestamp(let v) = out.storage else { return [] }
        return v
    }

    @Test(arguments: ["Europe/London", "Europe/Oslo", "America/New_York", "America/Santiago", "Asia/Tehran", "Australia/Lord_Howe", "UTC"])
    func aRangeHoldsExactlyTheBucketsInstants(_ name: String) throws {
        let zone = try #require(ZoneRules.named(name))
        let hour = CivilTime.microsPerHour, day = CivilTime.microsPerDay
        // Every half hour over 2020 and into 2021.
        let first: Int64 = 1_577_836_800_000_000 - 2 * day, last: Int64 = 1_612_137_600_000_000
        let times: [Int64] = Array(stride(from: first, to: last, by: Int(hour / 2)))
        var ranges = 0, refused = 0
        for b in [TimeBucket.day, .week, .month] {
            let values = try buckets(b, times, zone)
            for v in Set(values) {
                guard let p = TimeBuckets.period(b, v, zone: zone) else { refused += 1; continue }
                ranges += 1
                for (t, bucket) in zip(times, values) where (t >= p.start && t < p.end) != (bucket == v) {
                    Issue.record("\(name) \(b) \(v): \(t) is in bucket \(bucket), range \(p.start)..<\(p.end)")
                    break
                }
            }
        }
        #expect(ranges > 400)
        // Only days next to a change of clock are refused, never most.
        #expect(refused < 30, "\(refused) periods refused in \(name)")
        // A value that starts no bucket has no range.
        #expect(TimeBuckets.period(.day, zone.instant(wallMicros: 18_310 * day + 3 * hour), zone: zone) == nil)
    }

    /// Chile turns its clocks back at midnight: the hour after the change belongs to the day
    /// before, so that day has no single range.
    @Test func aDayWhoseMidnightRepeatsHasNoRange() throws {
        let zone = try #require(ZoneRules.named("America/Santiago"))
        let day = CivilTime.microsPerDay
        let sunday = zone.instant(wallMicros: CivilTime.daysFromCivil(year: 2020, month: 4, day: 5) * day)
        #expect(TimeBuckets.period(.day, sunday, zone: zone) == nil)
        let monday = zone.instant(wallMicros: CivilTime.daysFromCivil(year: 2020, month: 4, day: 6) * day)
        #expect(TimeBuckets.period(.day, monday, zone: zone) != nil)
    }

    @Test func aYearIsItsFirstInstantToTheNext() throws {
        let zone = try #require(ZoneRules.named("Europe/Oslo"))
        let p = try #require(TimeBuckets.period(.year, 2020, zone: zone))
        #expect(p.start == 1_577_833_200 * 1_000_000 && p.end == 1_609_455_600 * 1_000_000)
        #expect(TimeBuckets.period(.year, 0, zone: zone) == nil && TimeBuckets.period(.year, 99_999, zone: zone) == nil)
    }
}
