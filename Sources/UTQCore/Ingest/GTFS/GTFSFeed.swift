/// One file of a feed after reading: its table, the line each row came from, and how the
/// file is named in messages.
struct GTFSFileTable {
    /// The GTFS name, `stops.txt`.
    let name: String
    /// `feed.zip/stops.txt`, for warnings.
    let path: String
    var table: Table
    var rowLines: [Int32]
    /// Warnings from reading the text (cells, encoding, bad values), already counted per kind.
    var readWarnings: [LoadWarning]

    /// The line a row starts on, when known.
    func line(_ row: Int) -> Int? {
        row >= 0 && row < rowLines.count ? Int(rowLines[row]) : nil
    }

    func has(_ column: String) -> Bool { table.columnIndex(column) != nil }

    func text(_ column: String) -> TextValues? { TextValues(table, column) }

    func numbers(_ column: String) -> NumberValues? { NumberValues(table, column) }
}

/// The files of a feed, by GTFS name, for checks that look across them.
struct GTFSFeed {
    private(set) var files: [String: GTFSFileTable] = [:]

    subscript(_ name: String) -> GTFSFileTable? { files[name] }

    mutating func put(_ file: GTFSFileTable) { files[file.name] = file }
}

/// A text column read row by row without making a String per row: codes into the
/// column's dictionary of distinct values. Columns of other types are turned into text.
struct TextValues {
    let codes: [UInt32]
    let dictionary: [String]
    private let present: Bitmap?
    private let allMissing: Bool

    var count: Int { codes.count }

    init?(_ table: Table, _ name: String) {
        guard let column = table.column(name) else { return nil }
        switch column.storage {
        case .string(let s):
            codes = s.codes.wide; dictionary = s.dictionary; present = column.validity; allMissing = false
        case .null(let n):
            codes = Array(repeating: 0, count: n); dictionary = []; present = nil; allMissing = true
        default:
            var interner = ByteInterner()
            codes = (0..<column.count).map { row in
                switch column.value(at: row) {
                case .int(let v): return interner.intern(String(v))
                case .double(let v): return interner.intern(NumberText.double(v))
                case .bool(let v): return interner.intern(v ? "true" : "false")
                case .string(let v): return interner.intern(v)
                default: return interner.intern("")
                }
            }
            dictionary = interner.strings(); present = column.validity; allMissing = false
        }
    }

    /// The code of a row's value, or nil when the cell is empty.
    @inline(__always)
    func code(_ row: Int) -> Int? {
        if allMissing || !(present?[row] ?? true) { return nil }
        let c = Int(codes[row])
        return c < dictionary.count && !dictionary[c].isEmpty ? c : nil
    }

    func text(_ row: Int) -> String? { code(row).map { dictionary[$0] } }

    /// The distinct values that appear in some row.
    func values() -> Set<String> {
        var used = [Bool](repeating: false, count: dictionary.count)
        for row in 0..<count { if let c = code(row) { used[c] = true } }
        return Set(dictionary.indices.filter { used[$0] }.map { dictionary[$0] })
    }
}

/// A numeric column (integers, numbers, service times as microseconds) read row by row.
struct NumberValues {
    private let column: Column

    var count: Int { column.count }

    init?(_ table: Table, _ name: String) {
        guard let column = table.column(name) else { return nil }
        self.column = column
    }

    /// The value as a whole number; nil when empty or not a whole number.
    func int(_ row: Int) -> Int64? {
        guard column.isValid(row) else { return nil }
        switch column.storage {
        case .int(let a), .duration(let a), .timestamp(let a): return a[row]
        case .double(let a):
            let v = a[row]
            return v == v.rounded() && abs(v) < 9e15 ? Int64(v) : nil
        default: return nil
        }
    }

    func double(_ row: Int) -> Double? {
        guard column.isValid(row) else { return nil }
        switch column.storage {
        case .int(let a): return Double(a[row])
        case .double(let a): return a[row]
        default: return nil
        }
    }
}
