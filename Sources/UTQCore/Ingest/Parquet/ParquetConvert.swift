/// What is done to a chunk's whole numbers once its pages are decoded: unsigned values
/// widened, time units brought to microseconds, wall-clock times placed in the table's zone.
/// A value that lands outside what utq holds (a time outside the years 1 to 9999) is left
/// empty and counted, so the reader can say so.
extension ChunkDecoder {
    func finish(rows: Int, out: LaneOutput, validity: inout [UInt64]?, outcome: inout ChunkOutcome) throws {
        guard case .int(let p) = out, rows > 0 else { return }
        switch plan.read {
        case .unsigned32:
            for i in 0..<rows { p[i] = Int64(UInt32(truncatingIfNeeded: p[i])) }
        case .unsigned64:
            // Kept as their bits; the reader turns the column into decimals if any is negative.
            for i in 0..<rows where p[i] < 0 && Self.isSet(validity, i) { outcome.pastInt64 = true; break }
        default: break
        }
        guard let time = plan.time else { return }
        var resolver = WallResolver(zone: zone)
        var bad = 0
        for i in 0..<rows where Self.isSet(validity, i) {
            var v = p[i]
            var ok = true
            if time.multiplier != 1 {
                let (m, o) = v.multipliedReportingOverflow(by: time.multiplier)
                v = m
                ok = !o
            }
            if time.divisor != 1 { v = CivilTime.floorDiv(v, time.divisor) }
            if ok && time.isTimestamp {
                if time.local {
                    // Two days' margin: resolving looks a day either side of the wall time.
                    ok = v >= Checked.firstTime - 2 * CivilTime.microsPerDay && v <= Checked.lastTime + 2 * CivilTime.microsPerDay
                    if ok { v = resolver.instant(v) }
                }
                ok = ok && Checked.isTime(v)
            } else if !time.isTimestamp {
                // The one duration with no negation, which showing it needs.
                ok = ok && v != .min
            }
            if ok { p[i] = v; continue }
            p[i] = 0
            bad += 1
            if validity == nil { validity = [UInt64](repeating: ~0, count: (rows + 63) / 64) }
            validity![i >> 6] &= ~(1 << UInt64(i & 63))
        }
        outcome.outOfRange = bad
    }

    @inline(__always)
    static func isSet(_ validity: [UInt64]?, _ i: Int) -> Bool {
        guard let v = validity else { return true }
        return v[i >> 6] >> UInt64(i & 63) & 1 != 0
    }
}

/// Instants of wall-clock times in a zone, for a column of them. Between two changes of
/// offset a wall time has one instant, the wall time less the offset; the interval of the last
/// one found is kept, so times in order (or close together) skip the zone's search. Near a
/// change (a day either side) the zone decides, gaps and overlaps included.
struct WallResolver {
    let zone: ZoneRules
    private var cursor: ZoneRules.Cursor

    init(zone: ZoneRules) {
        self.zone = zone
        cursor = zone.makeCursor()
    }

    @inline(__always)
    mutating func instant(_ wall: Int64) -> Int64 {
        let guess = wall &- cursor.offset
        // The caller keeps wall times within the years utq holds and two days more, so these
        // sums do not overflow; a cursor that has not looked yet (lower > upper) fails both.
        if guess - CivilTime.microsPerDay > cursor.lower && guess + CivilTime.microsPerDay < cursor.upper { return guess }
        let instant = zone.resolve(wallMicros: wall).instant
        _ = cursor.wall(instant)
        return instant
    }
}
