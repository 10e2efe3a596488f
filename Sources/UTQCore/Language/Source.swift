/// The text of a script or command line, with its name for messages (`lesson.utq`).
/// Spans are byte offsets into `text`.
public final class SourceText: Sendable {
    public let name: String
    public let text: String
    private let utf8: [UInt8]
    private let lineStarts: [Int]
    /// Line of the first byte, for text that was cut out of a larger file.
    public let firstLine: Int

    public init(name: String, text: String, firstLine: Int = 1) {
        self.name = name
        self.text = text
        self.firstLine = firstLine
        utf8 = Array(text.utf8)
        var starts = [0]
        for (i, b) in utf8.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    public var bytes: [UInt8] { utf8 }

    /// Line and column (1-based; columns count characters) of a byte offset.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        let o = max(0, min(offset, utf8.count))
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        let start = lineStarts[lo]
        var column = 1
        for i in start..<o where utf8[i] & 0xC0 != 0x80 { column += 1 }
        return (lo + firstLine, column)
    }

    /// The whole line holding an offset, without its newline.
    public func lineText(containing offset: Int) -> (text: String, start: Int) {
        let o = max(0, min(offset, utf8.count))
        var s = o
        while s > 0 && utf8[s - 1] != 0x0A { s -= 1 }
        var e = o
        while e < utf8.count && utf8[e] != 0x0A { e += 1 }
        var end = e
        if end > s && utf8[end - 1] == 0x0D { end -= 1 }
        return (String(decoding: utf8[s..<end], as: UTF8.self), s)
    }

    public func slice(_ span: SourceSpan) -> String {
        let s = max(0, min(span.start, utf8.count)), e = max(s, min(span.end, utf8.count))
        return String(decoding: utf8[s..<e], as: UTF8.self)
    }
}

/// A range of bytes in a `SourceText`.
public struct SourceSpan: Sendable, Hashable {
    public var start: Int
    public var end: Int

    public init(_ start: Int, _ end: Int) { self.start = start; self.end = max(start, end) }

    public func union(_ other: SourceSpan) -> SourceSpan { SourceSpan(min(start, other.start), max(end, other.end)) }
    public static let none = SourceSpan(0, 0)
}
