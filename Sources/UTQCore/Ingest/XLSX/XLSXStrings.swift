/// Texts held as one run of UTF-8 bytes and where each starts, not as a String each: a
/// workbook's shared strings can number millions, and a sheet's cells are looked up by number.
struct XLSXTexts {
    private(set) var bytes: [UInt8] = []
    private(set) var starts: [Int] = [0]

    var count: Int { starts.count - 1 }

    /// Adds a text, with Excel's `_xHHHH_` escapes undone; returns its number.
    @discardableResult
    mutating func append(_ raw: [UInt8]) -> Int {
        XLSXTexts.unescape(raw, into: &bytes)
        starts.append(bytes.count)
        return count - 1
    }

    func isEmpty(_ i: Int) -> Bool { starts[i] == starts[i + 1] }

    func withBytes<T>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[starts[i]..<starts[i + 1]])) }
    }

    func string(_ i: Int) -> String { withBytes(i) { String(decoding: $0, as: UTF8.self) } }

    /// Excel writes characters XML cannot hold (control characters such as a carriage return)
    /// as `_x000D_`, and an underscore that would read as such an escape as `_x005F_`.
    static func unescape(_ raw: [UInt8], into out: inout [UInt8]) {
        let n = raw.count
        var i = 0
        while i < n {
            if raw[i] == 0x5F, i + 6 < n, raw[i + 1] == 0x78, raw[i + 6] == 0x5F, let v = hex4(raw, i + 2), !(0xD800...0xDFFF).contains(v) {
                XMLScanner.appendUTF8(v == 0 ? 0xFFFD : v, to: &out)
                i += 7
            } else {
                out.append(raw[i])
                i += 1
            }
        }
    }

    private static func hex4(_ b: [UInt8], _ at: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in at..<(at + 4) {
            let d = b[k]
            switch d {
            case 0x30...0x39: v = v << 4 | UInt32(d - 0x30)
            case 0x41...0x46: v = v << 4 | UInt32(d - 0x41 + 10)
            case 0x61...0x66: v = v << 4 | UInt32(d - 0x61 + 10)
            default: return nil
            }
        }
        return v
    }
}

/// The workbook's shared strings (xl/sharedStrings.xml): a text cell names one by number.
/// A string is plain (`<si><t>…</t></si>`) or rich text, runs of differently formatted text
/// (`<si><r><rPr>…</rPr><t>…</t></r>…</si>`) whose texts are joined. Phonetic guides
/// (`<rPh>`, the reading of Japanese text) are not part of the text.
enum XLSXSharedStrings {
    static func parse(_ x: inout XMLScanner, cancel: CancellationFlag?) throws -> XLSXTexts {
        var texts = XLSXTexts()
        var current: [UInt8] = []
        var inItem = false, inText = false
        var phonetic = 0
        while true {
            switch try x.next() {
            case .endOfDocument:
                return texts
            case .start:
                if x.isName("si") {
                    inItem = true
                    current.removeAll(keepingCapacity: true)
                } else if x.isName("rPh") {
                    phonetic += 1
                } else if x.isName("t") {
                    inText = inItem && phonetic == 0
                }
            case .end:
                if x.isName("si") {
                    texts.append(current)
                    inItem = false
                    if texts.count & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                } else if x.isName("rPh") {
                    phonetic = max(0, phonetic - 1)
                } else if x.isName("t") {
                    inText = false
                }
            case .text:
                if inText { x.appendText(to: &current) }
            }
        }
    }
}
