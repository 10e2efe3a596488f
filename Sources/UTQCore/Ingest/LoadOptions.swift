/// What `load … with NAME=VALUE, …` and `load … sheet NAME` say about a file, where detection
/// would guess wrong or cannot know: nil everywhere means "detect".
public struct LoadOptions: Sendable, Equatable {
    /// Whether the first line names the columns; nil: detected (a first row whose types
    /// differ from the rest's is a header).
    public var header: Bool?
    /// Names for the columns, in order (a file without a header, or names to replace it).
    public var columns: [String]?
    /// The field separator of a delimited file.
    public var delimiter: UInt8?
    /// Zone for times written without an offset, instead of the session's.
    public var timezone: String?
    /// The sheet of a workbook (.xlsx); nil: the first.
    public var sheet: String?
    /// Where the file's geometries lie (lng/lat or a plane); nil: detected from their
    /// coordinates.
    public var crs: GeoSpace?

    public init() {}

    public var isEmpty: Bool { self == LoadOptions() }

    /// The options as `with …` writes them, for `explain` and the syntax printer.
    public var syntax: String {
        var parts: [String] = []
        if let header { parts.append("header=\(header)") }
        if let columns { parts.append("columns=(\(columns.joined(separator: ", ")))") }
        if let delimiter { parts.append("delimiter=\(String(UnicodeScalar(delimiter)).quoted)") }
        if let timezone { parts.append("timezone=\(timezone)") }
        if let crs { parts.append("crs=\(crs.rawValue)") }
        var s = parts.isEmpty ? "" : "with " + parts.joined(separator: ", ")
        if let sheet { s += (s.isEmpty ? "" : " ") + "sheet=\(sheet.quoted)" }
        return s
    }
}

/// The options `load … with` knows: one line each, feeding the parser, `help load` and completion.
public struct LoadOptionSpec: Sendable {
    public var name: String
    public var value: String
    public var summary: String
    let apply: @Sendable (inout LoadOptions, LoadOptionValue) throws -> Void

    public static let all: [LoadOptionSpec] = [
        LoadOptionSpec(name: "header", value: "true|false", summary: "whether the first line names the columns (detected when not given)") { o, v in
            o.header = try v.bool("header")
        },
        LoadOptionSpec(name: "columns", value: "(a, b, …)", summary: "the columns' names, in order; with header=false they name a file that has none") { o, v in
            o.columns = try v.names("columns")
        },
        LoadOptionSpec(name: "delimiter", value: "\",\"|\";\"|\"tab\"|\"|\"", summary: "the field separator (detected when not given)") { o, v in
            o.delimiter = try v.delimiter()
        },
        LoadOptionSpec(name: "timezone", value: "ZONE", summary: "zone of times written without an offset (else the session's)") { o, v in
            let zone = try v.text("timezone")
            guard ZoneRules.named(zone) != nil else {
                throw LoadOptionValue.Problem("unknown time zone \(zone.quoted)", hint: "a zone name such as Europe/Oslo or America/New_York")
            }
            o.timezone = zone
        },
        LoadOptionSpec(name: "crs", value: "lnglat|plane", summary: "whether the file's geometries are longitude and latitude (WGS 84) or x and y on a plan (detected from their coordinates when not given)") { o, v in
            switch try v.text("crs").lowercased() {
            case "lnglat", "lonlat", "wgs84", "4326", "epsg:4326": o.crs = .lnglat
            case "plane", "xy", "plan": o.crs = .plane
            case let other:
                throw LoadOptionValue.Problem("crs \(other.quoted) is neither lnglat nor plane", hint: "crs=lnglat (longitude and latitude, as GPS gives them) or crs=plane (x and y on a plan)")
            }
        },
        LoadOptionSpec(name: "sheet", value: "NAME", summary: "the sheet of an .xlsx workbook (else the first); also load F sheet NAME") { o, v in
            o.sheet = try v.text("sheet")
        },
    ]

    public static func named(_ name: String) -> LoadOptionSpec? {
        all.first { $0.name == name.lowercased() }
    }
}

/// A value written after `NAME=`: a word, a text, a number or a parenthesised list of names.
public enum LoadOptionValue: Sendable {
    case word(String)
    case text(String)
    case number(String)
    case list([String])

    public struct Problem: Error {
        public var message: String
        public var hint: String?
        init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    }

    func bool(_ option: String) throws -> Bool {
        switch self {
        case .word(let w) where ["true", "yes", "on"].contains(w.lowercased()): return true
        case .word(let w) where ["false", "no", "off"].contains(w.lowercased()): return false
        default: throw Problem("\(option) is true or false", hint: "\(option)=false")
        }
    }

    func text(_ option: String) throws -> String {
        switch self {
        case .word(let s), .text(let s), .number(let s): return s
        case .list: throw Problem("\(option) takes one value, not a list")
        }
    }

    func names(_ option: String) throws -> [String] {
        let names: [String]
        switch self {
        case .list(let l): names = l
        // `columns="a,b,c"` as a CSV header would say it.
        case .text(let s): names = s.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        case .word(let w): names = [w]
        case .number: throw Problem("\(option) takes names", hint: "\(option)=(vehicle, lat, lon)")
        }
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw Problem("name \(empty + 1) of \(option) is empty", hint: "\(option)=(vehicle, lat, lon)")
        }
        var seen: Set<String> = []
        if let twice = names.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw Problem("\(option) names \(twice) twice")
        }
        return names
    }

    func delimiter() throws -> UInt8 {
        let s = try text("delimiter")
        switch s.lowercased() {
        case "tab", "\\t", "\t": return 0x09
        case "comma": return UInt8(ascii: ",")
        case "semicolon": return UInt8(ascii: ";")
        case "pipe": return UInt8(ascii: "|")
        default:
            guard s.utf8.count == 1, let b = s.utf8.first, b != 0x0A, b != 0x0D, b != UInt8(ascii: "\"") else {
                throw Problem("delimiter is one character", hint: "delimiter=\";\" or delimiter=tab")
            }
            return b
        }
    }
}
