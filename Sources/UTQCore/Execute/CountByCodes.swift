import Foundation

/// The common summary — `count by` a few small keys (a legend, the hour, the weekday) — in
/// one pass over the rows, without a column per key or a group number per row: each row's
/// slot is computed from its keys and counted, in parts on every core, and the parts' counts
/// are added. Gives exactly what the general path gives, in the same order.
struct CountByCodes {
    /// How one key turns a row into a small number.
    enum Source {
        /// Text: the row's dictionary code (nulls get `nullCode`).
        case codes(DictionaryCodes, validity: Bitmap?, nullCode: Int)
        /// Whole numbers in a small range.
        case small([Int64], low: Int64, validity: Bitmap?, nullCode: Int)
        /// Hour of the day, or weekday, of a timestamp in a zone.
        case hour([Int64], zone: ZoneRules, validity: Bitmap?)
        case weekday([Int64], zone: ZoneRules, validity: Bitmap?)

        var cardinality: Int {
            switch self {
            case .codes(_, _, let nullCode), .small(_, _, _, let nullCode): return nullCode + 1
            case .hour: return 25
            case .weekday: return 8
            }
        }
    }

    let sources: [Source]
    let slots: Int

    /// The fast path applies when every key is a text column, a small whole-number column, or
    /// the hour or weekday of a timestamp column, and their combinations are few.
    init?(keys: [NamedExpr], table: Table) {
        var sources: [Source] = []
        for k in keys {
            switch k.expr {
            case .column(let i, _):
                let c = table.columns[i]
                switch c.storage {
                case .string(let s): sources.append(.codes(s.codes, validity: c.validity, nullCode: s.dictionary.count))
                case .int(let a):
                    guard let (lo, hi) = CountByCodes.span(a, under: 4096) else { return nil }
                    sources.append(.small(a, low: lo, validity: c.validity, nullCode: Int(hi - lo) + 1))
                default: return nil
                }
            case .bucket(.hour, .column(let i, _), let zone):
                guard case .timestamp(let a) = table.columns[i].storage else { return nil }
                sources.append(.hour(a, zone: zone, validity: table.columns[i].validity))
            case .bucket(.weekday, .column(let i, _), let zone):
                guard case .timestamp(let a) = table.columns[i].storage else { return nil }
                sources.append(.weekday(a, zone: zone, validity: table.columns[i].validity))
            default:
                return nil
            }
        }
        var product = 1
        for s in sources { product *= s.cardinality; if product > 1 << 16 { return nil } }
        self.sources = sources
        slots = product
    }

    /// The least and greatest of `values` when they lie within `limit` of each other; nil as
    /// soon as two do not. A column of ids is told apart in its first rows, where taking its
    /// least and greatest first read a hundred million rows twice on one core (a fifth of
    /// `count by` such a column).
    static func span(_ values: [Int64], under limit: Int64) -> (Int64, Int64)? {
        guard let first = values.first else { return nil }
        var lo = first, hi = first
        for x in values {
            if x < lo { lo = x } else if x > hi { hi = x } else { continue }
            if hi &- lo >= limit || hi &- lo < 0 { return nil }
        }
        return (lo, hi)
    }

    /// Counts per slot and the first row of each slot, over `rows`.
    func count(_ rows: Range<Int>) -> (counts: [Int64], first: [Int32]) {
        var counts = [Int64](repeating: 0, count: slots)
        var first = [Int32](repeating: -1, count: slots)
        counts.withUnsafeMutableBufferPointer { countsBuffer in
            first.withUnsafeMutableBufferPointer { firstBuffer in
                let (c, f) = (countsBuffer.baseAddress!, firstBuffer.baseAddress!)
                if sources.count == 1, case .codes(let codes, nil, _) = sources[0] {
                    // One text key without nulls: its codes are the slots. Four counts a slot,
                    // a row's in turn, so that rows of one value do not each wait for the last
                    // one's count to be stored.
                    let lanes = UnsafeMutablePointer<UInt32>.allocate(capacity: slots * 4)
                    defer { lanes.deallocate() }
                    lanes.initialize(repeating: 0, count: slots * 4)
                    let (l0, l1, l2, l3) = (lanes, lanes + slots, lanes + 2 * slots, lanes + 3 * slots)
                    func tally<C: FixedWidthInteger>(_ k: UnsafeBufferPointer<C>) {
                        let p = k.baseAddress!
                        var r = rows.lowerBound
                        // A part has at most a table's rows, under 2^31: its counts fit 32 bits.
                        while r &+ 4 <= rows.upperBound {
                            l0[Int(p[r])] &+= 1
                            l1[Int(p[r &+ 1])] &+= 1
                            l2[Int(p[r &+ 2])] &+= 1
                            l3[Int(p[r &+ 3])] &+= 1
                            r &+= 4
                        }
                        while r < rows.upperBound { l0[Int(p[r])] &+= 1; r += 1 }
                        var present = 0
                        for s in 0..<slots {
                            c[s] = Int64(l0[s]) + Int64(l1[s]) + Int64(l2[s]) + Int64(l3[s])
                            if c[s] > 0 { present += 1 }
                        }
                        // Each slot's first row: a few rows read, as every value comes early.
                        r = rows.lowerBound
                        while present > 0 {
                            let s = Int(k[r])
                            if f[s] < 0 { f[s] = Int32(r); present -= 1 }
                            r += 1
                        }
                    }
                    codes.withLanes(tally, tally, tally)
                } else {
                    countSlots(rows, counts: c, first: f)
                }
            }
        }
        return (counts, first)
    }

    /// Slot = Σ code_k × stride_k, built key by key into a small block of rows at a time.
    private func countSlots(_ rows: Range<Int>, counts: UnsafeMutablePointer<Int64>, first: UnsafeMutablePointer<Int32>) {
        let block = 4096
        let slot = UnsafeMutablePointer<Int>.allocate(capacity: block)
        defer { slot.deallocate() }
        var start = rows.lowerBound
        while start < rows.upperBound {
            let end = min(rows.upperBound, start + block)
            let m = end - start
            slot.update(repeating: 0, count: m)
            for source in sources {
                let card = source.cardinality
                switch source {
                case .codes(let codes, let validity, let nullCode):
                    func add<C: FixedWidthInteger>(_ c: UnsafeBufferPointer<C>) {
                        if let validity {
                            for j in 0..<m { let r = start + j; slot[j] = slot[j] * card + (validity[r] ? Int(c[r]) : nullCode) }
                        } else {
                            for j in 0..<m { slot[j] = slot[j] * card + Int(c[start + j]) }
                        }
                    }
                    codes.withLanes(add, add, add)
                case .small(let values, let low, let validity, let nullCode):
                    values.withUnsafeBufferPointer { v in
                        for j in 0..<m {
                            let r = start + j
                            slot[j] = slot[j] * card + ((validity?[r] ?? true) ? Int(v[r] &- low) : nullCode)
                        }
                    }
                case .hour(let times, let zone, let validity):
                    var cursor = zone.makeCursor()
                    times.withUnsafeBufferPointer { t in
                        for j in 0..<m {
                            let r = start + j
                            let h = (validity?[r] ?? true)
                                ? Int(CivilTime.floorMod(cursor.wall(t[r]), CivilTime.microsPerDay) / CivilTime.microsPerHour) : 24
                            slot[j] = slot[j] * card + h
                        }
                    }
                case .weekday(let times, let zone, let validity):
                    var cursor = zone.makeCursor()
                    times.withUnsafeBufferPointer { t in
                        for j in 0..<m {
                            let r = start + j
                            let w = (validity?[r] ?? true)
                                ? CivilTime.isoWeekday(days: CivilTime.floorDiv(cursor.wall(t[r]), CivilTime.microsPerDay)) - 1 : 7
                            slot[j] = slot[j] * card + w
                        }
                    }
                }
            }
            for j in 0..<m {
                let s = slot[j]
                if counts[s] == 0 { first[s] = Int32(start + j) }
                counts[s] += 1
            }
            start = end
        }
    }

    /// Counts over all rows, in parts on every core for large tables.
    func run(rowCount n: Int, cancel: CancellationFlag?) throws -> (counts: [Int64], first: [Int32]) {
        let parts = n >= 200_000 ? max(1, min(Workers.available, n / 100_000)) : 1
        if parts == 1 { return count(0..<n) }
        let results = ParallelParts<([Int64], [Int32])>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { p in
            let lo = n * p / parts, hi = n * (p + 1) / parts
            results.set(p, .success(count(lo..<hi)))
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        var counts = [Int64](repeating: 0, count: slots)
        var first = [Int32](repeating: -1, count: slots)
        // Parts in row order, so the first row of a slot is the first part's that has one.
        for p in 0..<parts {
            let (c, f) = try results.get(p)
            for s in 0..<slots where c[s] > 0 {
                if counts[s] == 0 { first[s] = f[s] }
                counts[s] += c[s]
            }
        }
        return (counts, first)
    }
}
