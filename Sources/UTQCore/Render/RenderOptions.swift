/// How output is drawn: width and height, character set, colour, row limit.
public struct RenderOptions: Sendable {
    public enum Charset: String, Sendable { case unicode, ascii }

    public var width: Int
    /// Lines of the terminal: charts size their plots from it (a table ignores it).
    public var height: Int
    public var maxRows: Int
    public var charset: Charset
    public var color: Bool
    /// Decimals of numbers in tables (`set digits N`); nil: as many as the values need.
    public var digits: Int? = nil

    public init(width: Int = 100, height: Int = 24, maxRows: Int = 40, charset: Charset = .unicode, color: Bool = false) {
        self.width = width; self.height = height; self.maxRows = maxRows; self.charset = charset; self.color = color
    }

    var nullText: String { charset == .ascii ? "null" : "·" }
    var ellipsis: String { charset == .ascii ? "..." : "…" }

    /// Text for the charset: under ascii, the signs notes and summaries use (· → — …) become
    /// their ASCII spellings, so a terminal or file without Unicode reads them.
    func plain(_ text: String) -> String {
        guard charset == .ascii, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            switch ch {
            case "·", "•": out += "-"
            case "→": out += "->"
            case "←": out += "<-"
            case "—": out += "--"
            case "–", "─", "━": out += "-"
            case "…": out += "..."
            case "×": out += "x"
            case "≤": out += "<="
            case "≥": out += ">="
            case "≈": out += "~"
            case "‘", "’": out += "'"
            case "“", "”": out += "\""
            case "│", "┃": out += "|"
            case "°": out += " deg"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    func dim(_ s: String) -> String { color ? "\u{1B}[2m" + s + "\u{1B}[0m" : s }
    func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
}

/// How results print as text.
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, csv, tsv, json, ndjson, markdown, geojson

    public static func named(_ s: String) -> OutputFormat? {
        switch s.lowercased() {
        case "table", "text", "pretty": return .table
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "json": return .json
        case "ndjson", "jsonl", "jsonlines": return .ndjson
        case "markdown", "md": return .markdown
        case "geojson": return .geojson
        default: return nil
        }
    }

    /// The format a file name asks for; under a compression's suffix (`.csv.gz`), the one before it.
    public static func forFile(_ path: String) -> OutputFormat? {
        let lower = Compression.innerName(path).lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".tsv") || lower.hasSuffix(".tab") { return .tsv }
        if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") { return .ndjson }
        if lower.hasSuffix(".geojson") { return .geojson }
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") { return .markdown }
        if lower.hasSuffix(".txt") { return .table }
        return nil
    }
}
