import Foundation

/// The type a loader has decided for a column, from a sample of its values.
public enum CellType: Sendable, Equatable {
    case undetermined
    case int
    case double
    case bool
    case timestamp(TimestampParser.DateOrder)
    case duration(DurationParser.Style)
    case string

    var dataType: DataType {
        switch self {
        case .undetermined: return .null
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .timestamp: return .timestamp
        case .duration: return .duration
        case .string: return .string
        }
    }

    /// What a cell of this type looks like, for messages about one that does not.
    var expectation: String {
        switch self {
        case .undetermined, .string: return "text"
        case .int: return "a whole number"
        case .double: return "a number"
        case .bool: return "true or false"
        case .timestamp(.compact): return "a date written YYYYMMDD"
        case .timestamp: return "a date or time"
        case .duration(.clock): return "a time written H:MM:SS"
        case .duration: return "a duration"
        }
    }
}

/// A cell did not fit the type chosen for its column: the loader widens the type and reads again.
struct TypeConflict: Error {
    let column: Int
    let widened: CellType
}

/// Fills one typed column from cells as a loader reads them, without making a Swift
/// String or a Value per cell. Text cells are parsed straight from the file's bytes.
final class ColumnBuilder {
    let name: String
    let index: Int
    private(set) var type: CellType
    let zone: ZoneRules
    let decimalComma: Bool

    // Internal, not private: joining parts (ColumnBuilder+Join.swift) moves them.
    var ints: StagedArray<Int64>       // ints, timestamps, durations
    var doubles: StagedArray<Double>
    var codes: StagedArray<UInt32>
    var flags: StagedArray<Bool>
    var interner = ByteInterner()
    /// The slab this part writes its values into, when a load's parts share one (ColumnSlab),
    /// and whether the parts' values were joined there.
    let slab: AnyObject?
    var joinedInPlace = false
    /// The code of the last text interned, to skip hashing when a value repeats (sorted or
    /// grouped data), and how often the last value has come again lately (4096 for every
    /// time): where values rarely repeat, comparing with the last first is work thrown away.
    private var lastCode: UInt32 = .max
    private var repeatScore: Int32 = 4096
    /// A set bit for each null row, up to the last null (empty until the first: most columns
    /// have none). A bit a row, not a row number a null: a column of many nulls (an angle only
    /// bikes have) wrote 32 bits each into fresh memory, and copied them as the list grew.
    var nulls = Bitmap()
    var count = 0
    /// Timestamps read without a written offset: their wall time is what the file meant.
    private(set) var sawFloatingTime = false
    private(set) var sawOffsetTime = false
    private(set) var sawTimeOfDay = false
    /// The one UTC offset every time in this column was written with, if there is one.
    private(set) var writtenOffset: Int32?
    private(set) var mixedOffsets = false
    /// Instants where the written offset changed, with the new offset: enough to tell which
    /// time zones agree with the file.
    private(set) var offsetChanges: [(instant: Int64, offset: Int32)] = []
    private var timeCache = TimestampParser.DayCache()
    /// Wall times that do not exist in the zone (in the hour skipped when clocks go
    /// forward), and the first of them.
    private(set) var gapTimes = 0
    private(set) var firstGap: Int64?
    /// Dates read day first whose day and month could be either way round (01/02/2021),
    /// the first of them, and whether any date could only be day first (13/02/2021).
    private(set) var firstAmbiguousDate: String?
    private(set) var sawDayAboveTwelve = false
    private var datesLookedAt = 0

    /// `slab` (from `ColumnSlabs.make` for this type) and `part` say where a part of a load
    /// read in parallel writes; without one, the column gets room for `capacity` rows.
    init(name: String, index: Int, type: CellType, zone: ZoneRules, decimalComma: Bool = false, capacity: Int = 0,
         slab: AnyObject? = nil, part: Int = 0) {
        self.name = name
        self.index = index
        self.type = type
        self.zone = zone
        self.decimalComma = decimalComma
        self.slab = slab
        ints = StagedArray(capacity: slab == nil && [.int, .timestamp, .duration].contains(type.dataType) ? capacity : 0)
        doubles = StagedArray(capacity: slab == nil && type == .double ? capacity : 0)
        codes = StagedArray(capacity: slab == nil && type == .string ? capacity : 0)
        flags = StagedArray(capacity: slab == nil && type == .bool ? capacity : 0)
        if let s = slab as? ColumnSlab<Int64> { ints = s.region(part: part) }
        if let s = slab as? ColumnSlab<Double> { doubles = s.region(part: part) }
        if let s = slab as? ColumnSlab<UInt32> { codes = s.region(part: part) }
        if let s = slab as? ColumnSlab<Bool> { flags = s.region(part: part) }
    }

    deinit {
        ints.release(); doubles.release(); codes.release(); flags.release()
    }

    // MARK: appending

    @inline(__always)
    func appendNull() {
        switch type {
        case .int, .timestamp, .duration: ints.append(0)
        case .double: doubles.append(0)
        case .bool: flags.append(false)
        case .string: codes.append(0)
        case .undetermined: break
        }
        markNull()
        count += 1
    }

    /// Marks row `count` null: the rows since the last null are not.
    @inline(__always)
    private func markNull() {
        nulls.set(growingTo: count)
    }

    /// Another part's null rows after this one's `count` rows.
    func appendNulls(of other: ColumnBuilder) {
        guard other.nulls.count > 0 else { return }
        if nulls.count < count { nulls.append(repeating: false, count: count - nulls.count) }
        nulls.append(contentsOf: other.nulls)
    }

    /// A run of text cells, one column of a batch of CSV records (`fields[r * stride]` is row
    /// r's): the type is looked at once for the run, not once per cell, and the loop of the
    /// common types is the parser alone. A cell the fast loop does not take goes through
    /// `appendText`, which widens or refuses it; the rest of the run then starts over.
    func appendTexts(_ fields: UnsafePointer<UnsafeRawBufferPointer>, stride: Int, count n: Int) throws {
        var r = 0
        while r < n {
            switch type {
            case .string:
                while r < n {
                    let b = fields[r &* stride]
                    if b.count == 0 { appendNull() } else { codes.append(internText(b)); count += 1 }
                    r += 1
                }
            case .double where !decimalComma:
                while r < n {
                    let b = fields[r &* stride]
                    if b.count == 0 { appendNull(); r += 1; continue }
                    // Whole numbers of 16 digits and more, and NaN or Infinity, take the long way.
                    guard b.count < 16, let v = NumberParser.double(b) else { break }
                    doubles.append(v); count += 1
                    r += 1
                }
            case .int:
                while r < n {
                    let b = fields[r &* stride]
                    if b.count == 0 { appendNull(); r += 1; continue }
                    guard let v = NumberParser.int(b) else { break }
                    ints.append(v); count += 1
                    r += 1
                }
            case .timestamp(let order):
                while r < n {
                    let b = fields[r &* stride]
                    if b.count == 0 { appendNull(); r += 1; continue }
                    guard let p = TimestampParser.parseFast(b, order: order, cache: &timeCache) else { break }
                    appendTime(p, b, order: order)
                    r += 1
                }
            default:
                break
            }
            guard r < n else { return }
            // The general path for one cell (and for every cell of the other types).
            try appendText(fields[r &* stride])
            r += 1
        }
    }

    /// A run of JSON values, one member of a batch of records read by a template
    /// (`cells[r * stride]` is row r's). The template only hands a column the kinds its type
    /// reads, and numbers it could read exactly come with their value, so the loops below are
    /// mostly stores; a cell they do not take goes through `appendText`, which widens or
    /// refuses it as for any JSON value.
    func appendJSONCells(_ cells: UnsafePointer<JSONCell>, stride: Int, count n: Int) throws {
        var r = 0
        while r < n {
            switch type {
            case .string:
                while r < n {
                    let cell = cells[r &* stride]
                    if cell.text == nil { appendNull() } else { codes.append(internText(cell.bytes)); count += 1 }
                    r += 1
                }
            case .double:
                numbers: while r < n {
                    let cell = cells[r &* stride]
                    if cell.text == nil { appendNull(); r += 1; continue }
                    let v: Double
                    switch cell.kind {
                    case .double: v = Double(bitPattern: cell.bits)
                    case .int:
                        // A whole number past 2^53 would change as a double: the long way refuses it.
                        let whole = Int64(bitPattern: cell.bits)
                        guard whole.magnitude <= 1 << 53 else { break numbers }
                        v = Double(whole)
                    case .text:
                        guard cell.count < 16, let d = NumberParser.double(cell.bytes) else { break numbers }
                        v = d
                    }
                    doubles.append(v); count += 1
                    r += 1
                }
            case .int:
                while r < n {
                    let cell = cells[r &* stride]
                    if cell.text == nil { appendNull(); r += 1; continue }
                    if cell.kind == .int { ints.append(Int64(bitPattern: cell.bits)); count += 1; r += 1; continue }
                    guard cell.kind == .text, let v = NumberParser.int(cell.bytes) else { break }
                    ints.append(v); count += 1
                    r += 1
                }
            case .timestamp(let order):
                while r < n {
                    let cell = cells[r &* stride]
                    if cell.text == nil { appendNull(); r += 1; continue }
                    guard let p = TimestampParser.parseFast(cell.bytes, order: order, cache: &timeCache) else { break }
                    appendTime(p, cell.bytes, order: order)
                    r += 1
                }
            case .bool:
                while r < n {
                    let cell = cells[r &* stride]
                    if cell.text == nil { appendNull() } else { flags.append(cell.text!.load(as: UInt8.self) == 0x74); count += 1 }
                    r += 1
                }
            default:
                break
            }
            guard r < n else { return }
            let cell = cells[r &* stride]
            if cell.text == nil { appendNull() } else { try appendText(cell.bytes, emptyIsNull: false) }
            r += 1
        }
    }

    /// A text cell (CSV field or JSON string). Empty text is null.
    @inline(__always)
    func appendText(_ b: UnsafeRawBufferPointer, emptyIsNull: Bool = true) throws {
        if b.count == 0 && emptyIsNull { appendNull(); return }
        switch type {
        case .string:
            codes.append(internText(b)); count += 1
        case .int:
            if let v = NumberParser.int(b) { ints.append(v); count += 1; return }
            if NumberParser.isWholeNumberText(b) { throw TypeConflict(column: index, widened: .string) }
            if NumberParser.double(b, decimalComma: decimalComma) != nil || NumberParser.special(b) != nil {
                try promoteToDouble()
                try appendText(b, emptyIsNull: emptyIsNull)
                return
            }
            throw TypeConflict(column: index, widened: .string)
        case .double:
            guard let v = NumberParser.double(b, decimalComma: decimalComma) ?? NumberParser.special(b) else { throw TypeConflict(column: index, widened: .string) }
            // A whole number a double cannot hold exactly makes the column text, so no value changes.
            if b.count >= 16, NumberParser.isWholeNumberText(b), (NumberParser.int(b)?.magnitude ?? .max) > 1 << 53 {
                throw TypeConflict(column: index, widened: .string)
            }
            doubles.append(v); count += 1
        case .bool:
            guard let v = Self.bool(b) else { throw TypeConflict(column: index, widened: .string) }
            flags.append(v); count += 1
        case .timestamp(let order):
            guard let p = TimestampParser.parseFast(b, order: order, cache: &timeCache) else { throw TypeConflict(column: index, widened: .string) }
            appendTime(p, b, order: order)
        case .duration:
            guard let d = DurationParser.parse(b) else { throw TypeConflict(column: index, widened: .string) }
            ints.append(d.micros); count += 1
        case .undetermined:
            settle(Self.infer(b, decimalComma: decimalComma))
            try appendText(b, emptyIsNull: emptyIsNull)
        }
    }

    @inline(__always)
    private func appendTime(_ p: TimestampParser.Parsed, _ b: UnsafeRawBufferPointer, order: TimestampParser.DateOrder) {
        if let o = p.offset {
            if !sawOffsetTime { sawOffsetTime = true; writtenOffset = o }
            if o != writtenOffset { mixedOffsets = true }
            if o != (offsetChanges.last?.offset ?? Int32.min) && offsetChanges.count < 512 { offsetChanges.append((p.instant(in: zone), o)) }
            ints.append(p.wall &- Int64(o) &* 1_000_000)
        } else {
            sawFloatingTime = true
            let (instant, inGap) = zone.resolve(wallMicros: p.wall)
            if inGap { gapTimes += 1; if firstGap == nil { firstGap = p.wall } }
            ints.append(instant)
        }
        if order == .dayFirst && !sawDayAboveTwelve && datesLookedAt < 4096 { lookAtDayAndMonth(b) }
        if p.hasTime { sawTimeOfDay = true }
        count += 1
    }

    /// Notes, for a date written with its day and month as numbers, whether only day first
    /// reads it (13/02/2021) or either order would (01/02/2021).
    private func lookAtDayAndMonth(_ b: UnsafeRawBufferPointer) {
        datesLookedAt += 1
        var i = 0
        func number() -> Int? {
            var v = 0, digits = 0
            while i < b.count, b[i] &- 48 <= 9, digits < 3 { v = v * 10 + Int(b[i] &- 48); i += 1; digits += 1 }
            return (1...2).contains(digits) ? v : nil
        }
        guard let first = number(), i < b.count, [0x2F, 0x2E, 0x2D].contains(b[i]) else { return }
        i += 1
        guard let second = number(), i < b.count, [0x2F, 0x2E, 0x2D].contains(b[i]) else { return }
        if first > 12 { sawDayAboveTwelve = true; return }
        if second <= 12 && first != second && firstAmbiguousDate == nil {
            firstAmbiguousDate = String(decoding: b.prefix(10), as: UTF8.self)
        }
    }

    @inline(__always)
    private func internText(_ b: UnsafeRawBufferPointer) -> UInt32 {
        if repeatScore >= 800 && lastCode != .max && interner.equals(Int(lastCode), b) {
            repeatScore += 256 - repeatScore >> 4
            return lastCode
        }
        let code = interner.intern(b)
        // Learnt also when the last was not compared: the code says whether it repeated.
        repeatScore += (code == lastCode ? 256 : 0) - repeatScore >> 4
        lastCode = code
        return code
    }

    /// A JSON number, given with its raw text for string columns.
    @inline(__always)
    func appendNumber(int: Int64?, double: Double, raw: UnsafeRawBufferPointer) throws {
        switch type {
        case .int:
            if let int { ints.append(int); count += 1; return }
            if NumberParser.isWholeNumberText(raw) { throw TypeConflict(column: index, widened: .string) }
            try promoteToDouble()
            try appendNumber(int: int, double: double, raw: raw)
        case .double:
            if let int, int.magnitude > 1 << 53 { throw TypeConflict(column: index, widened: .string) }
            if int == nil, raw.count >= 16, NumberParser.isWholeNumberText(raw) { throw TypeConflict(column: index, widened: .string) }
            doubles.append(double); count += 1
        case .string:
            codes.append(internText(raw)); count += 1
        case .undetermined:
            settle(int != nil ? .int : (NumberParser.isWholeNumberText(raw) ? .string : .double))
            try appendNumber(int: int, double: double, raw: raw)
        default:
            throw TypeConflict(column: index, widened: .string)
        }
    }

    func appendBool(_ v: Bool) throws {
        switch type {
        case .bool: flags.append(v); count += 1
        case .string:
            let text: StaticString = v ? "true" : "false"
            codes.append(internText(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))); count += 1
        case .undetermined:
            settle(.bool)
            try appendBool(v)
        default:
            throw TypeConflict(column: index, widened: .string)
        }
    }

    /// Values already decoded (structured loaders such as Behaviour Mapper and GTFS).
    func append(_ value: Value) throws {
        switch value {
        case .null: appendNull()
        case .int(let v):
            var text = String(v)
            try text.withUTF8 { try appendNumber(int: v, double: Double(v), raw: UnsafeRawBufferPointer($0)) }
        case .double(let v):
            var text = NumberText.double(v)
            try text.withUTF8 { try appendNumber(int: nil, double: v, raw: UnsafeRawBufferPointer($0)) }
        case .bool(let v): try appendBool(v)
        case .string(var s): try s.withUTF8 { try appendText(UnsafeRawBufferPointer($0), emptyIsNull: false) }
        case .timestamp(let v):
            if case .undetermined = type { settle(.timestamp(.dayFirst)) }
            guard case .timestamp = type else { throw TypeConflict(column: index, widened: .string) }
            sawOffsetTime = true; sawTimeOfDay = true
            ints.append(v); count += 1
        case .duration(let v):
            if case .undetermined = type { settle(.duration(.words)) }
            guard case .duration = type else { throw TypeConflict(column: index, widened: .string) }
            ints.append(v); count += 1
        case .geometry(let g):
            var text = WKT.text(g)
            try text.withUTF8 { try appendText(UnsafeRawBufferPointer($0), emptyIsNull: false) }
        }
    }

    /// Fixes the type of a column that had only nulls so far.
    func settle(_ newType: CellType) {
        guard case .undetermined = type else { return }
        type = newType
        // Nulls appended while the type was undetermined need storage slots now.
        switch type {
        case .int, .timestamp, .duration: ints.append(repeating: 0, count: count)
        case .double: doubles.append(repeating: 0, count: count)
        case .bool: flags.append(repeating: false, count: count)
        case .string: codes.append(repeating: 0, count: count)
        case .undetermined: break
        }
    }

    /// Whole numbers become numbers, unless one is too large for a double to hold exactly:
    /// then the column is text, so no value is changed.
    private func promoteToDouble() throws {
        let old = ints.take()
        if old.contains(where: { $0.magnitude > 1 << 53 }) {
            ints.append(contentsOf: old)
            throw TypeConflict(column: index, widened: .string)
        }
        doubles.append(contentsOf: old.map { Double($0) })
        type = .double
    }

    /// Appends another builder's rows (the next part of the same file, read in parallel),
    /// and empties it, so the two parts are not both held for long.
    func absorb(_ other: ColumnBuilder) throws {
        if case .undetermined = other.type {
            for _ in 0..<other.count { appendNull() }
            return
        }
        if case .undetermined = type { settle(other.type) }
        if type == .int && other.type == .double { try promoteToDouble() }
        guard type.dataType == other.type.dataType || (type == .double && other.type == .int) else {
            throw TypeConflict(column: index, widened: .string)
        }
        appendNulls(of: other)
        switch type {
        case .string:
            let strings = other.interner.strings()
            let remap = strings.map { interner.intern($0) }
            // A part whose cells in this column were all empty has nulls (code 0) and no
            // strings to map them through; a null's code is never read.
            codes.append(contentsOf: other.codes.take().map { Int($0) < remap.count ? remap[Int($0)] : 0 })
        case .bool:
            flags.append(contentsOf: other.flags.take())
        case .double where other.type == .int:
            let whole = other.ints.take()
            if whole.contains(where: { $0.magnitude > 1 << 53 }) { throw TypeConflict(column: index, widened: .string) }
            doubles.append(contentsOf: whole.map { Double($0) })
        case .double:
            doubles.append(contentsOf: other.doubles.take())
        default:
            ints.append(contentsOf: other.ints.take())
        }
        count += other.count
        absorbFacts(other)
    }

    /// What another part learnt about its times, added to this one's.
    func absorbFacts(_ other: ColumnBuilder) {
        sawFloatingTime = sawFloatingTime || other.sawFloatingTime
        sawTimeOfDay = sawTimeOfDay || other.sawTimeOfDay
        gapTimes += other.gapTimes
        firstGap = firstGap ?? other.firstGap
        firstAmbiguousDate = firstAmbiguousDate ?? other.firstAmbiguousDate
        sawDayAboveTwelve = sawDayAboveTwelve || other.sawDayAboveTwelve
        if other.sawOffsetTime {
            if !sawOffsetTime { writtenOffset = other.writtenOffset }
            if other.mixedOffsets || other.writtenOffset != writtenOffset { mixedOffsets = true }
            sawOffsetTime = true
            for change in other.offsetChanges where offsetChanges.count < 512 && change.offset != offsetChanges.last?.offset {
                offsetChanges.append(change)
            }
        }
    }

    // MARK: inference

    static func bool(_ b: UnsafeRawBufferPointer) -> Bool? {
        switch b.count {
        case 4: if (b[0] | 0x20) == 0x74 && (b[1] | 0x20) == 0x72 && (b[2] | 0x20) == 0x75 && (b[3] | 0x20) == 0x65 { return true }
        case 5: if (b[0] | 0x20) == 0x66 && (b[1] | 0x20) == 0x61 && (b[2] | 0x20) == 0x6c && (b[3] | 0x20) == 0x73 && (b[4] | 0x20) == 0x65 { return false }
        default: break
        }
        return nil
    }

    /// The narrowest type one text value fits.
    static func infer(_ b: UnsafeRawBufferPointer, decimalComma: Bool) -> CellType {
        if NumberParser.int(b) != nil { return .int }
        // A whole number past 64 bits (a 20-digit id) is text, so no digit of it changes.
        if NumberParser.isWholeNumberText(b) { return .string }
        if NumberParser.double(b, decimalComma: decimalComma) != nil { return .double }
        if bool(b) != nil { return .bool }
        if TimestampParser.parse(b, order: .dayFirst) != nil { return .timestamp(.dayFirst) }
        if TimestampParser.parse(b, order: .monthFirst) != nil { return .timestamp(.monthFirst) }
        if let d = DurationParser.parse(b) { return .duration(d.style) }
        return .string
    }

    // MARK: finishing

    func finish() -> Column {
        var valid: Bitmap? = nil
        if nulls.count > 0 {
            if nulls.count < count { nulls.append(repeating: false, count: count - nulls.count) }
            valid = ~nulls
            nulls = Bitmap()
        }
        switch type {
        case .undetermined: return Column.nulls(name, count: count)
        case .int: return Column(name: name, storage: .int(ints.take()), validity: valid)
        case .double: return Column(name: name, storage: .double(doubles.take()), validity: valid)
        case .bool: return Column(name: name, storage: .bool(flags.take()), validity: valid)
        case .string:
            var dict = interner.strings()
            if dict.isEmpty { dict = [""] }
            interner = ByteInterner()
            return Column(name: name, storage: .string(StringStorage(codes: codes.take(), dictionary: dict)), validity: valid)
        case .timestamp:
            var c = Column(name: name, storage: .timestamp(ints.take()), validity: valid, unit: sawTimeOfDay ? .automatic : .day)
            c.floating = sawFloatingTime && !sawOffsetTime
            return c
        case .duration(let style):
            return Column(name: name, storage: .duration(ints.take()), validity: valid, unit: style == .clock ? .clock : .automatic)
        }
    }
}

/// Notes about how times were read, once per column: wall times in the hour a zone skips,
/// and dates whose day and month could be either way round.
func timeNotes(_ builders: [ColumnBuilder], zone: ZoneRules) -> [String] {
    var notes: [String] = []
    var ambiguous: [(column: String, date: String)] = []
    for b in builders {
        if b.gapTimes > 0, let wall = b.firstGap {
            let shown = TimeText.display(wall, zone: .utc, unit: .minute)
            notes.append("\(b.name): \(b.gapTimes == 1 ? "1 time falls" : "\(NumberText.grouped(b.gapTimes)) times fall") in the hour \(zone.identifier) skips "
                         + "when clocks go forward (the first: \(shown)); read as an hour later")
        }
        if case .timestamp(.dayFirst) = b.type, !b.sawDayAboveTwelve, let date = b.firstAmbiguousDate {
            ambiguous.append((b.name, date))
        }
    }
    // Once for the file: its date columns are written alike.
    if let first = ambiguous.first {
        notes.append(ambiguous.map(\.column).joined(separator: ", ") + ": dates such as \(first.date) could be day or month first; "
                     + "no date says which, so they are read day first")
    }
    return notes
}

/// The zone a freshly read table should show its times in, and a note when it is a guess.
/// Times written with one fixed offset throughout (`+01:00`) show in that offset, as the file
/// wrote them. Times whose offsets change (summer time) show in the session's zone when it
/// agrees with every offset; otherwise the note names zones that would.
func inferredZone(_ builders: [ColumnBuilder], default zone: ZoneRules) -> (zone: ZoneRules, note: String?) {
    guard let first = builders.first(where: { if case .timestamp = $0.type { return true } else { return false } }),
          first.sawOffsetTime, !first.sawFloatingTime, let offset = first.writtenOffset else { return (zone, nil) }
    func agrees(_ z: ZoneRules) -> Bool {
        first.offsetChanges.allSatisfy { z.offsetSeconds(atMicros: $0.instant) == $0.offset }
    }
    if !first.mixedOffsets {
        if zone.isFixed && zone.offsetSeconds(atSecond: 0) == offset { return (zone, nil) }
        if offset == 0 { return (.utc, nil) }
        return (ZoneRules.fixedOffsetZone(TimeText.offsetText(Int(offset))) ?? zone, nil)
    }
    if agrees(zone) { return (zone, nil) }
    let candidates = ZoneGuess.zones(agreeingWith: first.offsetChanges)
    let offsets = Set(first.offsetChanges.map(\.offset)).sorted().map { $0 == 0 ? "+00:00" : TimeText.offsetText(Int($0)) }.joined(separator: " and ")
    var note = "\(first.name) was written with offsets \(offsets); times show in \(zone.identifier)"
    if let best = candidates.first { note += " — set timezone \(best) to see them in local time" }
    return (zone, note)
}

/// Which named zones agree with a list of (instant, offset) readings.
enum ZoneGuess {
    /// Zones people in this field most often use come first.
    static let preferred = ["Europe/London", "Europe/Oslo", "Europe/Berlin", "Europe/Paris", "Europe/Belgrade",
                            "Europe/Helsinki", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
                            "Australia/Sydney", "Europe/Dublin", "Europe/Lisbon"]

    static func zones(agreeingWith readings: [(instant: Int64, offset: Int32)]) -> [String] {
        guard !readings.isEmpty else { return [] }
        func agrees(_ name: String) -> Bool {
            guard let z = ZoneRules.named(name) else { return false }
            return readings.allSatisfy { z.offsetSeconds(atMicros: $0.instant) == $0.offset }
        }
        if let p = preferred.first(where: agrees) { return [p] }
        return TimeZoneNames.all.filter { $0.contains("/") && agrees($0) }.prefix(3).map { $0 }
    }
}

/// Type inference over a sample of text values: the narrowest type every value fits.
struct TypeVote {
    private var seen = 0
    private var allInt = true, allDouble = true, allBool = true
    private var allDayFirst = true, allMonthFirst = true, allDuration = true
    /// Cells that did not read as each type, counted while they are few (see `mostly`).
    private var intMisses = 0, doubleMisses = 0, dayFirstMisses = 0, monthFirstMisses = 0, durationMisses = 0
    /// A whole number a double cannot hold exactly: the column cannot be numbers unless all are whole.
    private var bigInt = false
    /// NaN and Infinity seen among the values.
    private var specials = 0
    private var clockDurations = 0
    private var decimalComma: Bool

    init(decimalComma: Bool = false) { self.decimalComma = decimalComma }

    /// Misses past which a type is no longer tried: a twentieth of the cells, and one more.
    private var few: Int { seen / 20 + 1 }

    mutating func add(_ b: UnsafeRawBufferPointer) {
        if b.count == 0 { return }
        seen += 1
        if let v = NumberParser.int(b) { if v.magnitude > 1 << 53 { bigInt = true } } else {
            allInt = false
            intMisses += 1
            if NumberParser.isWholeNumberText(b) { bigInt = true }
        }
        if doubleMisses <= few && NumberParser.double(b, decimalComma: decimalComma) == nil {
            // NaN and Infinity belong to a column of numbers, but do not make one alone.
            if NumberParser.special(b) != nil { specials += 1 } else { allDouble = false; doubleMisses += 1 }
        }
        if allBool && ColumnBuilder.bool(b) == nil { allBool = false }
        if dayFirstMisses <= few && TimestampParser.parse(b, order: .dayFirst) == nil { allDayFirst = false; dayFirstMisses += 1 }
        if monthFirstMisses <= few && TimestampParser.parse(b, order: .monthFirst) == nil { allMonthFirst = false; monthFirstMisses += 1 }
        if durationMisses <= few {
            if let d = DurationParser.parse(b) { if d.style == .clock { clockDurations += 1 } } else { allDuration = false; durationMisses += 1 }
        }
    }

    var result: CellType {
        if seen == 0 { return .undetermined }
        if allInt { return .int }
        if allDouble && !bigInt && specials < seen { return .double }
        if allBool { return .bool }
        if allDayFirst { return .timestamp(.dayFirst) }
        if allMonthFirst { return .timestamp(.monthFirst) }
        if allDuration { return .duration(clockDurations == seen ? .clock : .words) }
        return .string
    }

    /// For a column voted text: the type all but a few of its cells have (at most one in
    /// twenty, or a single cell among three or more), so the load can say which cells kept
    /// it text, as it does for cells after the sample.
    var mostly: CellType? {
        guard seen >= 3, !bigInt, result == .string else { return nil }
        // A type no longer tried stopped at `few` + 1 misses, more than either rule lets pass.
        let candidates: [(CellType, Int)] = [(.int, intMisses), (.double, doubleMisses), (.timestamp(.dayFirst), dayFirstMisses),
                                             (.timestamp(.monthFirst), monthFirstMisses), (.duration(.words), durationMisses)]
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 >= 1, best.1 * 20 <= seen || best.1 == 1 else { return nil }
        return best.0
    }
}
