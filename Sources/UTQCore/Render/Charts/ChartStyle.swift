import Foundation

/// The characters a chart is drawn with: Unicode blocks by default, plain ASCII under
/// `set charset ascii` (for old terminals, e-mail and printers).
struct Glyphs: Sendable {
    let ascii: Bool

    /// A horizontal bar's last cell in eighths: index 1 … 8.
    var eighthsAcross: [String] { ascii ? ["", "", "", "", "#", "#", "#", "#", "#"] : ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"] }
    /// A vertical bar's top cell in eighths: index 1 … 8.
    var eighthsUp: [String] { ascii ? ["", "", "", "", "#", "#", "#", "#", "#"] : ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] }
    var full: String { ascii ? "#" : "█" }
    /// Sparkline levels, lowest first.
    var spark: [String] { ascii ? ["_", ".", "-", "~", "=", "+", "*", "#"] : ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] }
    /// Heatmap shades, lightest first; `zero` marks a cell whose value is zero.
    var shades: [String] { ascii ? [":", "+", "*", "#"] : ["░", "▒", "▓", "█"] }
    var zero: String { ascii ? "." : "·" }
    /// Fills that tell the parts of a stacked bar apart without colour.
    var fills: [String] { ascii ? ["#", "=", "+", ":", "o", "x", "%", "~"] : ["█", "▓", "▒", "░", "▚", "▞", "▦", "▤"] }
    /// Point markers, one per series or legend.
    var markers: [String] { ascii ? ["*", "o", "x", "#", "@", "%", "&", "=", "~", "$"] : ["●", "○", "◆", "◇", "■", "□", "▲", "△", "★", "☆"] }

    var vertical: String { ascii ? "|" : "│" }
    var horizontal: String { ascii ? "-" : "─" }
    var tick: String { ascii ? "+" : "┤" }
    var origin: String { ascii ? "+" : "└" }
    var corners: (String, String, String, String) { ascii ? ("+", "+", "+", "+") : ("┌", "┐", "└", "┘") }
    var ellipsis: String { ascii ? "..." : "…" }
    var dash: String { ascii ? "-" : "–" }
    var lessOrEqual: String { ascii ? "<=" : "≤" }
    var middot: String { ascii ? "." : "·" }

    /// An arrow for a direction in degrees from east, clockwise on screen (y grows down).
    func arrow(_ degrees: Double) -> String {
        let set = ascii ? [">", "\\", "v", "/", "<", "\\", "^", "/"] : ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"]
        var a = degrees.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        let index = Int(cells: (a / 45).rounded()) % 8
        return set[index]
    }
}

/// How one chart is drawn as text: its size, glyphs and colours, and the helpers every
/// kind uses to make labels safe and to fit them.
struct ChartStyle: Sendable {
    let width: Int
    let height: Int
    let maxRows: Int
    let glyphs: Glyphs
    let color: Bool

    init(_ options: RenderOptions, chart: ChartOptions = ChartOptions()) {
        width = max(20, chart.width ?? options.width)
        height = max(3, chart.height ?? options.height)
        maxRows = max(4, options.maxRows)
        glyphs = Glyphs(ascii: options.charset == .ascii)
        color = options.color
        explicitHeight = chart.height != nil
    }

    /// Whether the plot height was asked for (`height N`) rather than taken from the terminal.
    let explicitHeight: Bool

    var ascii: Bool { glyphs.ascii }

    /// Rows for a plot with axes (column, line, hist): about half the terminal, at most 16,
    /// unless the chart asked for a height.
    var plotRows: Int { explicitHeight ? max(3, height) : min(16, max(5, height / 2)) }

    /// Text from the data, made safe to print: no control characters, and under ASCII no
    /// other bytes either.
    func label(_ s: String) -> String {
        let p = TextWidth.printable(s)
        return ascii ? ASCIIText.fold(p) : p
    }

    func fit(_ s: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(s) <= width { return s }
        let mark = glyphs.ellipsis
        let room = width - TextWidth.of(mark)
        guard room > 0 else { return String(repeating: ".", count: width) }
        var out = ""
        var used = 0
        for ch in s {
            let w = TextWidth.of(String(ch))
            if used + w > room { break }
            out.append(ch)
            used += w
        }
        return out + mark
    }

    /// Cells text takes on screen, not counting colour codes.
    static func visibleWidth(_ s: String) -> Int {
        guard s.contains("\u{1B}") else { return TextWidth.of(s) }
        var n = 0, inEscape = false
        for u in s.unicodeScalars {
            if inEscape { if u == "m" { inEscape = false }; continue }
            if u == "\u{1B}" { inEscape = true; continue }
            n += TextWidth.cells(u)
        }
        return n
    }

    func padRight(_ s: String, _ width: Int) -> String { TextWidth.pad(s, to: width, right: false) }
    func padLeft(_ s: String, _ width: Int) -> String { TextWidth.pad(s, to: width, right: true) }

    // MARK: colour

    func paint(_ s: String, series: Int) -> String {
        guard color, !s.isEmpty else { return s }
        return "\u{1B}[38;5;\(Palette.ansi(series))m" + s + "\u{1B}[0m"
    }

    func paint(_ s: String, code: Int) -> String {
        guard color, !s.isEmpty else { return s }
        return "\u{1B}[38;5;\(code)m" + s + "\u{1B}[0m"
    }

    func dim(_ s: String) -> String { color && !s.isEmpty ? "\u{1B}[2m" + s + "\u{1B}[0m" : s }
    func bold(_ s: String) -> String { color && !s.isEmpty ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }

    /// The fill for series `i`: solid colour when there is colour, else a distinct pattern.
    func fill(_ i: Int) -> String { color ? glyphs.full : glyphs.fills[i % glyphs.fills.count] }
    func marker(_ i: Int) -> String { glyphs.markers[i % glyphs.markers.count] }
}

/// Folding text to ASCII for `set charset ascii`: accents dropped, a few letters spelt
/// out, anything else a question mark.
enum ASCIIText {
    static let spelled: [Character: String] = [
        "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L",
        "ı": "i", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
        "–": "-", "—": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"", "…": "...", "·": ".", "°": " deg",
        "×": "x", "→": "->", "←": "<-", "≤": "<=", "≥": ">=", "€": "EUR", "£": "GBP", "\u{A0}": " ",
    ]

    static func fold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        var out = ""
        for ch in s {
            if ch.isASCII { out.append(ch); continue }
            if let w = spelled[ch] { out += w; continue }
            let base = String(ch).decomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.isASCII }
            out += base.isEmpty ? "?" : String(String.UnicodeScalarView(base))
        }
        return out
    }
}
