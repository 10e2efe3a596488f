/// A pull tokenizer for the XML inside an Excel workbook, over bytes in memory: elements,
/// their attributes, text (entities decoded on request) and CDATA. It knows no namespaces
/// (names are compared by their local part, so `x:row` is `row`), no DTDs and no encodings
/// other than UTF-8, which is all a workbook's parts use. A sheet of a million rows is tens
/// of millions of tokens: nothing here allocates per token, and positions are byte offsets
/// into the caller's buffer.
struct XMLScanner {
    enum Token: Equatable {
        /// `<name a="1">`; a self-closing element is followed by its `.end`.
        case start
        case end
        /// Character data between tags, or a CDATA section.
        case text
        case endOfDocument
    }

    /// The document is not well-formed; `offset` is where the problem was seen.
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "\(reason) (at byte \(offset))" }
    }

    struct Attribute {
        /// The local name (after any `prefix:`).
        var name: Range<Int>
        var value: Range<Int>
        /// The value holds `&` or a line break or tab: it must be decoded to be read.
        var needsDecoding: Bool
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var pos = 0
    /// The current element's local name, for `.start` and `.end`.
    private(set) var name: Range<Int> = 0..<0
    /// The current element's attributes, for `.start`; reused from one element to the next.
    private(set) var attributes: [Attribute] = []
    /// The current text, for `.text`.
    private(set) var text: Range<Int> = 0..<0
    private(set) var textIsCDATA = false
    /// The text holds `&` or a carriage return: it must be decoded to be read.
    private(set) var textNeedsDecoding = false
    /// The open elements' qualified names, to check that each end tag closes its start tag.
    private var open: [Range<Int>] = []
    /// A self-closing element's end, given as the next token.
    private var pendingEnd: Range<Int>? = nil

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        attributes.reserveCapacity(16)
        open.reserveCapacity(16)
        // A byte-order mark before the declaration.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { pos = 3 }
    }

    /// How many elements are open: after a `.start`, counting the element itself.
    var depth: Int { open.count }

    mutating func next() throws -> Token {
        if let end = pendingEnd {
            pendingEnd = nil
            _ = open.popLast()
            name = localName(end)
            return .end
        }
        let n = bytes.count
        while pos < n {
            if bytes[pos] != 0x3C {  // text up to the next '<'
                let start = pos
                var decoding = false
                while pos < n && bytes[pos] != 0x3C {
                    if bytes[pos] == 0x26 || bytes[pos] == 0x0D { decoding = true }
                    pos &+= 1
                }
                text = start..<pos
                textIsCDATA = false
                textNeedsDecoding = decoding
                return .text
            }
            guard pos + 1 < n else { throw Malformed(offset: pos, reason: "the document ends inside a tag") }
            switch bytes[pos + 1] {
            case 0x2F:  // </name>
                let start = pos + 2
                pos = start
                while pos < n && !isNameEnd(bytes[pos]) { pos &+= 1 }
                let qualified = start..<pos
                skipSpaces()
                guard pos < n, bytes[pos] == 0x3E else { throw Malformed(offset: pos, reason: "an end tag is not closed with >") }
                pos &+= 1
                guard let opened = open.popLast() else { throw Malformed(offset: start, reason: "an end tag closes no element") }
                guard same(opened, qualified) else {
                    throw Malformed(offset: start, reason: "</\(shownName(qualified))> closes <\(shownName(opened))>")
                }
                name = localName(qualified)
                return .end
            case 0x3F:  // <?xml … ?>
                try skip(past: [0x3F, 0x3E], what: "a processing instruction")
            case 0x21:  // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE …>
                if starts(with: "<!--") {
                    pos += 4
                    try skip(past: [0x2D, 0x2D, 0x3E], what: "a comment")
                } else if starts(with: "<![CDATA[") {
                    let start = pos + 9
                    pos = start
                    try skip(past: [0x5D, 0x5D, 0x3E], what: "a CDATA section")
                    text = start..<(pos - 3)
                    textIsCDATA = true
                    textNeedsDecoding = UnsafeRawBufferPointer(rebasing: bytes[text]).contains(0x0D)
                    return .text
                } else {
                    try skipDeclaration()
                }
            default:
                try readStartTag()
                return .start
            }
        }
        if let unclosed = open.last { throw Malformed(offset: n, reason: "the document ends inside <\(shownName(unclosed))>") }
        return .endOfDocument
    }

    /// Skips the current element's content and its end tag (after a `.start`).
    mutating func skipElement() throws {
        let level = open.count - 1
        while true {
            switch try next() {
            case .end where open.count == level: return
            case .endOfDocument: return
            default: continue
            }
        }
    }

    // MARK: names and values

    /// Whether the current element's (or an attribute's) local name is `expected`.
    @inline(__always)
    func isName(_ expected: StaticString) -> Bool { matches(name, expected) }

    @inline(__always)
    func matches(_ range: Range<Int>, _ expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount
        guard range.count == count else { return false }
        let p = expected.utf8Start
        var i = 0
        while i < count {
            if bytes[range.lowerBound &+ i] != p[i] { return false }
            i &+= 1
        }
        return true
    }

    /// The current element's attribute of this local name.
    func attribute(_ local: StaticString) -> Attribute? {
        for a in attributes where matches(a.name, local) { return a }
        return nil
    }

    /// An attribute's value as text, entities decoded; line breaks and tabs written as
    /// they are read as spaces, as XML says.
    func value(_ a: Attribute) -> String {
        guard a.needsDecoding else { return string(a.value) }
        var out: [UInt8] = []
        XMLScanner.decode(UnsafeRawBufferPointer(rebasing: bytes[a.value]), into: &out, inAttribute: true)
        return String(decoding: out, as: UTF8.self)
    }

    func attributeText(_ local: StaticString) -> String? { attribute(local).map(value) }

    /// The current text, decoded, added to `out`.
    func appendText(to out: inout [UInt8]) {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[text])
        if !textNeedsDecoding {
            out.append(contentsOf: raw)
        } else if textIsCDATA {
            XMLScanner.normaliseLineEnds(raw, into: &out)
        } else {
            XMLScanner.decode(raw, into: &out)
        }
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A name for a message: a damaged document may hold a "name" of megabytes.
    private func shownName(_ range: Range<Int>) -> String {
        range.count <= 40 ? string(range) : string(range.lowerBound..<(range.lowerBound + 40)) + "…"
    }

    /// Text with the five predefined entities and character references replaced, and line
    /// ends as XML reads them: a written CR LF or CR is LF (a CR that is meant is written
    /// `&#13;`). An entity XML does not define is kept as written (no DTD can define one
    /// here), and a reference to a character that cannot be in text becomes U+FFFD. In an
    /// attribute, a written tab or line break is a space.
    static func decode(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8], inAttribute: Bool = false) {
        let n = raw.count
        var i = 0
        while i < n {
            let b = raw[i]
            if b == 0x0D {
                if i + 1 < n && raw[i + 1] == 0x0A { i &+= 1; continue }
                out.append(inAttribute ? 0x20 : 0x0A); i &+= 1; continue
            }
            if inAttribute && (b == 0x0A || b == 0x09) { out.append(0x20); i &+= 1; continue }
            guard b == 0x26 else { out.append(b); i &+= 1; continue }
            var end = i + 1
            while end < n && end - i <= 12 && raw[end] != 0x3B { end += 1 }
            guard end < n, raw[end] == 0x3B else { out.append(b); i += 1; continue }
            let body = UnsafeRawBufferPointer(rebasing: raw[(i + 1)..<end])
            if let scalar = entity(body) { appendUTF8(scalar, to: &out) } else { out.append(contentsOf: raw[i...end]) }
            i = end + 1
        }
    }

    /// CR LF and CR as LF, for CDATA (which has no entities).
    static func normaliseLineEnds(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let n = raw.count
        var i = 0
        while i < n {
            if raw[i] == 0x0D {
                out.append(0x0A)
                if i + 1 < n && raw[i + 1] == 0x0A { i += 1 }
            } else {
                out.append(raw[i])
            }
            i += 1
        }
    }

    /// The code point an entity's name (between `&` and `;`) stands for.
    private static func entity(_ body: UnsafeRawBufferPointer) -> UInt32? {
        switch Array(body) {
        case Array("amp".utf8): return 0x26
        case Array("lt".utf8): return 0x3C
        case Array("gt".utf8): return 0x3E
        case Array("quot".utf8): return 0x22
        case Array("apos".utf8): return 0x27
        default: break
        }
        guard body.count >= 2, body[0] == 0x23 else { return nil }  // &#…;
        var value: UInt32 = 0
        let hex = body[1] | 0x20 == 0x78
        let digits = body.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty else { return nil }
        for d in digits {
            let v: UInt32
            switch d {
            case 0x30...0x39: v = UInt32(d - 0x30)
            case 0x61...0x66 where hex: v = UInt32(d - 0x61 + 10)
            case 0x41...0x46 where hex: v = UInt32(d - 0x41 + 10)
            default: return nil
            }
            value = value &* (hex ? 16 : 10) &+ v
            if value > 0x10FFFF { return 0xFFFD }
        }
        if value == 0 || (0xD800...0xDFFF).contains(value) { return 0xFFFD }
        return value
    }

    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (v >> 6))); out.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (v >> 12))); out.append(UInt8(0x80 | ((v >> 6) & 0x3F))); out.append(UInt8(0x80 | (v & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (v >> 18))); out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F))); out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    // MARK: reading tags

    private mutating func readStartTag() throws {
        let n = bytes.count
        let start = pos + 1
        pos = start
        while pos < n && !isNameEnd(bytes[pos]) { pos &+= 1 }
        let qualified = start..<pos
        guard !qualified.isEmpty else { throw Malformed(offset: start, reason: "a < is not followed by a name") }
        attributes.removeAll(keepingCapacity: true)
        while true {
            skipSpaces()
            guard pos < n else { throw Malformed(offset: pos, reason: "the document ends inside <\(shownName(qualified))>") }
            let b = bytes[pos]
            if b == 0x3E { pos &+= 1; open.append(qualified); break }
            if b == 0x2F {
                guard pos + 1 < n, bytes[pos + 1] == 0x3E else { throw Malformed(offset: pos, reason: "a / in a tag is not followed by >") }
                pos &+= 2
                open.append(qualified)  // until its end is given
                pendingEnd = qualified
                break
            }
            let nameStart = pos
            while pos < n && !isNameEnd(bytes[pos]) && bytes[pos] != 0x3D { pos &+= 1 }
            let attributeName = nameStart..<pos
            guard !attributeName.isEmpty else { throw Malformed(offset: pos, reason: "unexpected \(shown(bytes[pos])) in <\(shownName(qualified))>") }
            skipSpaces()
            guard pos < n, bytes[pos] == 0x3D else { throw Malformed(offset: pos, reason: "attribute \(shownName(attributeName)) has no value") }
            pos &+= 1
            skipSpaces()
            guard pos < n, bytes[pos] == 0x22 || bytes[pos] == 0x27 else {
                throw Malformed(offset: pos, reason: "the value of attribute \(shownName(attributeName)) is not in quotes")
            }
            let quote = bytes[pos]
            pos &+= 1
            let valueStart = pos
            var decoding = false
            while pos < n && bytes[pos] != quote {
                let b = bytes[pos]
                if b == 0x26 || b == 0x0D || b == 0x0A || b == 0x09 { decoding = true }
                pos &+= 1
            }
            guard pos < n else { throw Malformed(offset: valueStart, reason: "the value of attribute \(shownName(attributeName)) is never closed") }
            attributes.append(Attribute(name: localName(attributeName), value: valueStart..<pos, needsDecoding: decoding))
            pos &+= 1
        }
        name = localName(qualified)
    }

    /// `<!DOCTYPE …>` or another declaration, with an internal subset in brackets.
    private mutating func skipDeclaration() throws {
        let n = bytes.count
        var brackets = 0
        pos += 2
        while pos < n {
            switch bytes[pos] {
            case 0x5B: brackets += 1
            case 0x5D: brackets -= 1
            case 0x3E where brackets <= 0: pos += 1; return
            default: break
            }
            pos += 1
        }
        throw Malformed(offset: n, reason: "the document ends inside a declaration")
    }

    private mutating func skip(past terminator: [UInt8], what: String) throws {
        let n = bytes.count
        let from = pos
        while pos + terminator.count <= n {
            if bytes[pos] == terminator[0] {
                var k = 1
                while k < terminator.count && bytes[pos + k] == terminator[k] { k += 1 }
                if k == terminator.count { pos += terminator.count; return }
            }
            pos += 1
        }
        throw Malformed(offset: from, reason: "the document ends inside \(what)")
    }

    private func starts(with s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard pos + count <= bytes.count else { return false }
        for i in 0..<count where bytes[pos + i] != s.utf8Start[i] { return false }
        return true
    }

    @inline(__always)
    private mutating func skipSpaces() {
        while pos < bytes.count, isSpace(bytes[pos]) { pos &+= 1 }
    }

    @inline(__always)
    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    @inline(__always)
    private func isNameEnd(_ b: UInt8) -> Bool { isSpace(b) || b == 0x3E || b == 0x2F || b == 0x3C }

    private func localName(_ qualified: Range<Int>) -> Range<Int> {
        var i = qualified.upperBound
        while i > qualified.lowerBound {
            if bytes[i - 1] == 0x3A { return i..<qualified.upperBound }
            i -= 1
        }
        return qualified
    }

    private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for k in 0..<a.count where bytes[a.lowerBound + k] != bytes[b.lowerBound + k] { return false }
        return true
    }

    private func shown(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? "'\(Character(UnicodeScalar(b)))'" : "byte \(b)"
    }
}
