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

    private var ints: [Int64] = []
    private var doubles: [Double] = []
    private var bools: [Bool] = []
    private var codes: [UInt32] = []
    private var interner = ByteInterner()
    private var validity = Bitmap()
    private var nulls = 0
    private(set) var count = 0
    /// Timestamps read without a written offset: their wall time is what the file meant.
    private(set) var sawFloatingTime = false
    private(set) var sawOffsetTime = false
    private(set) var sawTimeOfDay = false
    /// The one UTC offset every time in this column was written with, if there is one.
    private(set) var writtenOffset: Int32?
    private(set) var mixedOffsets = false

    init(name: String, index: Int, type: CellType, zone: ZoneRules, decimalComma: Bool = false, capacity: Int = 0) {
        self.name = name
        self.index = index
        self.type = type
        self.zone = zone
        self.decimalComma = decimalComma
        validity.reserveCapacity(capacity)
        switch type {
        case .int, .timestamp, .duration: ints.reserveCapacity(capacity)
        case .double: doubles.reserveCapacity(capacity)
        case .string: codes.reserveCapacity(capacity)
        default: break
        }
    }

    // MARK: appending

    @inline(__always)
    func appendNull() {
        switch type {
        case .int, .timestamp, .duration: ints.append(0)
        case .double: doubles.append(0)
        case .bool: bools.append(false)
        case .string: codes.append(0)
        case .undetermined: break
        }
        validity.append(false)
        nulls += 1
        count += 1
    }

    @inline(__always)
    private func present() {
        validity.append(true)
        count += 1
    }

    /// A text cell (CSV field or JSON string). Empty text is null.
    func appendText(_ b: UnsafeRawBufferPointer, emptyIsNull: Bool = true) throws {
        if b.count == 0 && emptyIsNull { appendNull(); return }
        switch type {
        case .string:
            codes.append(interner.intern(b)); present()
        case .int:
            if let v = NumberParser.int(b) { ints.append(v); present(); return }
            if NumberParser.double(b, decimalComma: decimalComma) != nil {
                try promoteToDouble()
                try appendText(b, emptyIsNull: emptyIsNull)
                return
            }
            throw TypeConflict(column: index, widened: .string)
        case .double:
            guard let v = NumberParser.double(b, decimalComma: decimalComma) else { throw TypeConflict(column: index, widened: .string) }
            doubles.append(v); present()
        case .bool:
            guard let v = Self.bool(b) else { throw TypeConflict(column: index, widened: .string) }
            bools.append(v); present()
        case .timestamp(let order):
            guard let p = TimestampParser.parse(b, order: order) else { throw TypeConflict(column: index, widened: .string) }
            if let o = p.offset {
                sawOffsetTime = true
                if writtenOffset == nil { writtenOffset = o } else if o != writtenOffset { mixedOffsets = true }
            } else { sawFloatingTime = true }
            if p.hasTime { sawTimeOfDay = true }
            ints.append(p.instant(in: zone)); present()
        case .duration:
            guard let d = DurationParser.parse(b) else { throw TypeConflict(column: index, widened: .string) }
            ints.append(d.micros); present()
        case .undetermined:
            type = Self.infer(b, decimalComma: decimalComma)
            backfillNulls()
            try appendText(b, emptyIsNull: emptyIsNull)
        }
    }

    /// A JSON number, given with its raw text for string columns.
    func appendNumber(int: Int64?, double: Double, raw: UnsafeRawBufferPointer) throws {
        switch type {
        case .int:
            if let int { ints.append(int); present(); return }
            try promoteToDouble()
            doubles.append(double); present()
        case .double:
            doubles.append(double); present()
        case .string:
            codes.append(interner.intern(raw)); present()
        case .undetermined:
            type = int != nil ? .int : .double
            backfillNulls()
            try appendNumber(int: int, double: double, raw: raw)
        default:
            throw TypeConflict(column: index, widened: .string)
        }
    }

    func appendBool(_ v: Bool) throws {
        switch type {
        case .bool: bools.append(v); present()
        case .string:
            let text: StaticString = v ? "true" : "false"
            codes.append(interner.intern(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))); present()
        case .undetermined:
            type = .bool
            backfillNulls()
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
            if case .undetermined = type { type = .timestamp(.dayFirst); backfillNulls() }
            guard case .timestamp = type else { throw TypeConflict(column: index, widened: .string) }
            sawOffsetTime = true; sawTimeOfDay = true
            ints.append(v); present()
        case .duration(let v):
            if case .undetermined = type { type = .duration(.words); backfillNulls() }
            guard case .duration = type else { throw TypeConflict(column: index, widened: .string) }
            ints.append(v); present()
        }
    }

    /// Fixes the type of a column that had only nulls so far.
    func settle(_ newType: CellType) {
        guard case .undetermined = type else { return }
        type = newType
        backfillNulls()
    }

    /// Whole numbers become numbers, unless one is too large for a double to hold exactly:
    /// then the column is text, so no value is changed.
    private func promoteToDouble() throws {
        if ints.contains(where: { $0.magnitude > 1 << 53 }) { throw TypeConflict(column: index, widened: .string) }
        doubles = ints.map { Double($0) }
        ints = []
        type = .double
    }

    /// Nulls appended while the type was undetermined need storage slots now.
    private func backfillNulls() {
        let n = count
        switch type {
        case .int, .timestamp, .duration: ints = Array(repeating: 0, count: n)
        case .double: doubles = Array(repeating: 0, count: n)
        case .bool: bools = Array(repeating: false, count: n)
        case .string: codes = Array(repeating: 0, count: n)
        case .undetermined: break
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
        if NumberParser.double(b, decimalComma: decimalComma) != nil { return .double }
        if bool(b) != nil { return .bool }
        if TimestampParser.parse(b, order: .dayFirst) != nil { return .timestamp(.dayFirst) }
        if TimestampParser.parse(b, order: .monthFirst) != nil { return .timestamp(.monthFirst) }
        if let d = DurationParser.parse(b) { return .duration(d.style) }
        return .string
    }

    // MARK: finishing

    func finish() -> Column {
        let valid: Bitmap? = nulls == 0 ? nil : validity
        switch type {
        case .undetermined: return Column.nulls(name, count: count)
        case .int: return Column(name: name, storage: .int(ints), validity: valid)
        case .double: return Column(name: name, storage: .double(doubles), validity: valid)
        case .bool: return Column(name: name, storage: .bool(bools), validity: valid)
        case .string:
            return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: interner.strings())), validity: valid)
        case .timestamp:
            var c = Column(name: name, storage: .timestamp(ints), validity: valid, unit: sawTimeOfDay ? .automatic : .day)
            c.floating = sawFloatingTime && !sawOffsetTime
            return c
        case .duration(let style):
            return Column(name: name, storage: .duration(ints), validity: valid, unit: style == .clock ? .clock : .automatic)
        }
    }
}

/// The zone a freshly read table should show its times in: when its first time column was
/// written with one fixed offset throughout (`+01:00`), that offset, so times print as the
/// file wrote them; otherwise the session's zone.
func inferredZone(_ builders: [ColumnBuilder], default zone: ZoneRules) -> ZoneRules {
    guard let first = builders.first(where: { if case .timestamp = $0.type { return true } else { return false } }),
          first.sawOffsetTime, !first.sawFloatingTime, !first.mixedOffsets, let offset = first.writtenOffset else { return zone }
    if zone.isFixed && zone.offsetSeconds(atSecond: 0) == offset { return zone }
    if offset == 0 { return .utc }
    return ZoneRules.fixedOffsetZone(TimeText.offsetText(Int(offset))) ?? zone
}

/// Type inference over a sample of text values: the narrowest type every value fits.
struct TypeVote {
    private var seen = 0
    private var allInt = true, allDouble = true, allBool = true
    private var allDayFirst = true, allMonthFirst = true, allDuration = true
    /// A whole number a double cannot hold exactly: the column cannot be numbers unless all are whole.
    private var bigInt = false
    private var clockDurations = 0
    private var decimalComma: Bool

    init(decimalComma: Bool = false) { self.decimalComma = decimalComma }

    mutating func add(_ b: UnsafeRawBufferPointer) {
        if b.count == 0 { return }
        seen += 1
        if let v = NumberParser.int(b) { if v.magnitude > 1 << 53 { bigInt = true } } else { allInt = false }
        if allDouble && NumberParser.double(b, decimalComma: decimalComma) == nil { allDouble = false }
        if allBool && ColumnBuilder.bool(b) == nil { allBool = false }
        if allDayFirst && TimestampParser.parse(b, order: .dayFirst) == nil { allDayFirst = false }
        if allMonthFirst && TimestampParser.parse(b, order: .monthFirst) == nil { allMonthFirst = false }
        if allDuration {
            if let d = DurationParser.parse(b) { if d.style == .clock { clockDurations += 1 } } else { allDuration = false }
        }
    }

    var result: CellType {
        if seen == 0 { return .undetermined }
        if allInt { return .int }
        if allDouble && !bigInt { return .double }
        if allBool { return .bool }
        if allDayFirst { return .timestamp(.dayFirst) }
        if allMonthFirst { return .timestamp(.monthFirst) }
        if allDuration { return .duration(clockDurations == seen ? .clock : .words) }
        return .string
    }
}
