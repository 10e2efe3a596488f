import Foundation
import UTQCore

/// Values gathered in pieces of a fixed size, so that growing never copies what is held
/// (an array that doubles holds its old and new storage at once), and joined into one
/// array at the end, each piece freed as soon as it is copied. The first piece starts small
/// and doubles up to the size, so a result of three rows holds no more than a few values.
struct PGPieces<T> {
    static var pieceSize: Int { 65_536 }
    private var full: [[T]] = []
    private var current: [T] = []
    private(set) var count = 0

    mutating func append(_ value: T) {
        if current.count == current.capacity {
            if full.isEmpty, current.capacity < Self.pieceSize {
                current.reserveCapacity(max(64, current.capacity * 2))
            } else {
                full.append(current)
                current = []
                current.reserveCapacity(Self.pieceSize)
            }
        }
        current.append(value)
        count += 1
    }

    /// The bytes the pieces hold.
    var bytes: Int { (full.count * Self.pieceSize + current.capacity) * MemoryLayout<T>.stride }

    /// Every value in order.
    mutating func joined() -> [T] {
        if full.isEmpty { defer { current = [] }; return current }
        var out: [T] = []
        out.reserveCapacity(count)
        for k in full.indices { out.append(contentsOf: full[k]); full[k] = [] }
        out.append(contentsOf: current)
        full = []; current = []
        return out
    }
}

/// Reads one column of a streamed result into a column of the plan's type, a cell at a
/// time, straight from libpq's bytes (no text made per cell). What it makes is the column
/// `PGDecode.column` makes from the same cells.
struct PGColumnBuilder {
    let field: Field
    let codes: [String]?
    let labels: [String]?
    private var words = PGPieces<Int64>()      // int, duration, timestamp
    private var doubles = PGPieces<Double>()
    private var flags = PGPieces<Bool>()
    private var strings = PGPieces<UInt32>()
    private var interner = ByteInterner()
    private lazy var geometries = GeometryBuilder(space: field.space)
    /// An enum's labels by their text, while every value is one of them.
    private var labelPlace: [String: UInt32]?
    private var valid: Bitmap? = nil
    private(set) var count = 0

    init(_ field: Field, codes: [String]?, labels: [String]?) {
        self.field = field; self.codes = codes; self.labels = labels
        if codes == nil, let labels {
            var place: [String: UInt32] = [:]
            for (k, l) in labels.enumerated() { place[l] = UInt32(k) }
            labelPlace = place
        }
    }

    /// The memory the column holds so far.
    var bytes: Int {
        words.bytes + doubles.bytes + flags.bytes + strings.bytes + interner.byteSize + (valid?.words.capacity ?? 0) * 8
    }

    /// Adds one cell: its bytes (without the terminating zero libpq puts after them), or nil.
    mutating func append(_ cell: UnsafeRawBufferPointer?) throws {
        if let cell {
            valid?.append(true)
            try add(cell)
        } else {
            if valid == nil {
                var bits = Bitmap()
                bits.append(repeating: true, count: count)
                valid = bits
            }
            valid!.append(false)
            addNull()
        }
        count += 1
    }

    private func text(_ b: UnsafeRawBufferPointer) -> String { String(decoding: b, as: UTF8.self) }

    private func bad(_ b: UnsafeRawBufferPointer) -> Error {
        Diagnostic("the database gave \(text(b).debugDescription) for \(field.name), which is not a \(field.type.displayName)")
    }

    private mutating func add(_ b: UnsafeRawBufferPointer) throws {
        switch field.type {
        case .int:
            words.append(try Self.int64(b) ?? PGDecode.whole(text(b), field) ?? { throw bad(b) }())
        case .duration:
            words.append(try Self.int64(b) ?? PGDecode.wholeMicros(text(b)) ?? { throw bad(b) }())
        case .timestamp:
            words.append(try PGDecode.micros(bytes: b) ?? PGDecode.wholeMicros(text(b)) ?? { throw bad(b) }())
        case .double:
            doubles.append(try Self.double(b) ?? Double(text(b)) ?? { throw bad(b) }())
        case .bool:
            flags.append(b.count == 1 && b[0] == UInt8(ascii: "t"))
        case .string:
            if let codes {
                guard let k = Self.int64(b), k >= 0, k < codes.count else { throw bad(b) }
                strings.append(UInt32(k))
            } else if let place = labelPlace {
                if let k = place[text(b)] {
                    strings.append(k)
                } else {
                    // A value that is no label: the column is plain text, as PGDecode makes it.
                    leaveLabels()
                    strings.append(interner.intern(b))
                }
            } else {
                strings.append(interner.intern(b))
            }
        case .geometry:
            do {
                geometries.append(try Geometry.fromDatabase(b, space: field.space))
            } catch let e as WKT.ParseError {
                throw Diagnostic("the database gave a geometry for \(field.name) that utq cannot read: \(e.message)")
            }
        case .null:
            break
        }
    }

    private mutating func addNull() {
        switch field.type {
        case .int, .duration, .timestamp: words.append(0)
        case .double: doubles.append(0)
        case .bool: flags.append(false)
        case .string: strings.append(0)
        case .geometry: geometries.appendNull()
        case .null: break
        }
    }

    /// Turns the labels' codes so far into codes of the interner, in the order the values came.
    private mutating func leaveLabels() {
        guard let labels else { return }
        labelPlace = nil
        let held = strings.joined()
        strings = PGPieces<UInt32>()
        for (i, code) in held.enumerated() {
            if valid.map({ $0[i] }) ?? true {
                strings.append(interner.intern(labels[Int(code)]))
            } else {
                strings.append(0)
            }
        }
    }

    /// The column, the pieces freed as they are joined.
    mutating func column() -> Column {
        let storage: Column.Storage
        switch field.type {
        case .int: storage = .int(words.joined())
        case .duration: storage = .duration(words.joined())
        case .timestamp: storage = .timestamp(words.joined())
        case .double: storage = .double(doubles.joined())
        case .bool: storage = .bool(flags.joined())
        case .string:
            if let codes {
                storage = .string(StringStorage(codes: strings.joined(), dictionary: codes, ordered: true))
            } else if let labels, labelPlace != nil {
                storage = .string(StringStorage(codes: strings.joined(), dictionary: labels.isEmpty ? [""] : labels, ordered: true))
            } else {
                // Null rows hold code 0: a column of nulls only still needs an entry for it.
                let words = interner.strings()
                storage = .string(StringStorage(codes: strings.joined(), dictionary: words.isEmpty ? [""] : words, ordered: field.ordered))
            }
        case .geometry:
            storage = .geometry(geometries.storage)
        case .null:
            storage = .null(count)
        }
        var c = Column(name: field.name, storage: storage, validity: valid, unit: field.unit)
        c.floating = field.floating
        return c
    }

    /// A whole number in plain digits, or nil (then the text is read as PGDecode reads it).
    static func int64(_ b: UnsafeRawBufferPointer) -> Int64? {
        var i = 0, negative = false
        if b.count > 0, b[0] == UInt8(ascii: "-") { negative = true; i = 1 }
        guard i < b.count, b.count - i <= 18 else { return nil }   // 18 digits cannot overflow
        var v: Int64 = 0
        while i < b.count {
            let d = Int64(b[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
            i += 1
        }
        return negative ? -v : v
    }

    /// A number as strtod reads it when it reads all of the cell (C's reading of a decimal
    /// number is Swift's), else nil.
    static func double(_ b: UnsafeRawBufferPointer) -> Double? {
        guard b.count > 0, b.count < 64 else { return nil }
        var buffer = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        return withUnsafeMutableBytes(of: &buffer) { raw -> Double? in
            raw.copyMemory(from: b)
            raw[b.count] = 0
            let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>? = nil
            let d = strtod(start, &end)
            return end == start + b.count ? d : nil
        }
    }
}
