/// A column chunk's statistics (Statistics in parquet.thrift): its least and greatest values
/// as stored, and how many of its values are null. A table whose columns are read later
/// gives its time span from them, so that loading it reads no page.
struct ParquetChunkStatistics {
    var min: [UInt8]?
    var max: [UInt8]?
    var nullCount: Int64?

    init(_ r: inout ThriftReader) throws {
        var oldMin: [UInt8]? = nil, oldMax: [UInt8]? = nil
        try r.readStruct { r, id, type in
            switch id {
            // The old fields (1, 2) compare signed, which is right for the whole numbers
            // times are; the new ones (5, 6) win when both are there.
            case 1: try r.expect(type, .binary); oldMax = Array(try r.binary())
            case 2: try r.expect(type, .binary); oldMin = Array(try r.binary())
            case 3: nullCount = try r.int(type)
            case 5: try r.expect(type, .binary); max = Array(try r.binary())
            case 6: try r.expect(type, .binary); min = Array(try r.binary())
            default: try r.skip(type)
            }
        }
        if min == nil || max == nil { (min, max) = (oldMin, oldMax) }
    }

    /// A stored INT32 or INT64 value.
    static func integer(_ bytes: [UInt8]?, physical: ParquetPhysical) -> Int64? {
        guard let bytes else { return nil }
        switch (physical, bytes.count) {
        case (.int32, 4): return Int64(Int32(bitPattern: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }.littleEndian))
        case (.int64, 8): return Int64(bitPattern: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian)
        default: return nil
        }
    }
}

extension ParquetChunkStatistics {
    /// The first and last instant of a timestamp column as the footer gives them, or nil when
    /// it cannot say exactly what reading the values would: a row group without statistics,
    /// INT96 (whose statistics have no defined order), a value that reading would leave empty
    /// (outside the years utq holds), or a wall-clock time within two days of a change of the
    /// zone's offset (where a later wall time may be an earlier instant). `.some(nil)`: every
    /// value is null.
    static func timeRange(_ plan: ParquetColumnPlan, footer: ParquetFooter, zone: ZoneRules) -> (Int64, Int64)?? {
        guard let time = plan.time, time.isTimestamp, plan.physical == .int32 || plan.physical == .int64 else { return nil }
        var lo = Int64.max, hi = Int64.min
        for group in footer.rowGroups where group.numRows > 0 {
            guard plan.leaf < group.columns.count else { return nil }
            let chunk = group.columns[plan.leaf]
            let stats = chunk.statistics
            guard let least = integer(stats?.min, physical: plan.physical), let most = integer(stats?.max, physical: plan.physical) else {
                // A chunk with no values at all has no least and greatest.
                if let nulls = stats?.nullCount, nulls == group.numRows { continue }
                return nil
            }
            guard least <= most, let a = instant(least, time, zone), let b = instant(most, time, zone) else { return nil }
            lo = Swift.min(lo, a)
            hi = Swift.max(hi, b)
        }
        return .some(lo <= hi ? (lo, hi) : nil)
    }

    /// A stored time as the reader makes it (see ChunkDecoder.finish), or nil when that would
    /// leave it empty or the zone makes the order of instants differ from that of wall times.
    static func instant(_ stored: Int64, _ time: ParquetColumnPlan.TimeConversion, _ zone: ZoneRules) -> Int64? {
        var v = stored
        if time.multiplier != 1 {
            let (m, o) = v.multipliedReportingOverflow(by: time.multiplier)
            if o { return nil }
            v = m
        }
        if time.divisor != 1 { v = CivilTime.floorDiv(v, time.divisor) }
        if time.local {
            let margin = 2 * CivilTime.microsPerDay
            guard v >= Checked.firstTime - margin && v <= Checked.lastTime + margin else { return nil }
            v = zone.resolve(wallMicros: v).instant
            var cursor = zone.makeCursor()
            _ = cursor.wall(v)
            guard v - margin > cursor.lower && v + margin < cursor.upper else { return nil }
        }
        return Checked.isTime(v) ? v : nil
    }
}
