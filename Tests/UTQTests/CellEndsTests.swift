import Foundation
import Testing
@testable import UTQCore

/// CellEnds finds where an unquoted cell ends from masks of 64 bytes: every answer must be the
/// one a byte-by-byte scan gives, wherever the search starts (the next byte after a cell, or a
/// jump past a quoted cell), near block edges and in the last bytes of a stretch.
@Suite struct CellEndsTests {
    /// A byte-by-byte scan, the reference.
    static func naive(_ b: [UInt8], from i: Int, end: Int, delimiter: UInt8) -> Int {
        var k = i
        while k < end, b[k] != delimiter, b[k] != 0x0A, b[k] != 0x0D { k += 1 }
        return k
    }

    /// Text of cells of every length from 0 to 150 bytes (past a block), with delimiters,
    /// \n, \r\n and other bytes; the same seed every run.
    static func text(delimiter: UInt8, count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var b: [UInt8] = []
        while b.count < count {
            let length = Int(next() % 151)
            for _ in 0..<length { b.append(UInt8(ascii: "a") + UInt8(next() % 26)) }
            switch next() % 10 {
            case 0: b.append(0x0A)
            case 1: b.append(contentsOf: [0x0D, 0x0A])
            case 2: b.append(UInt8(ascii: ",")) // not the delimiter when it is ;
            default: b.append(delimiter)
            }
        }
        return b
    }

    @Test(arguments: [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")])
    func everyCellEndIsTheScansOne(delimiter: UInt8) {
        let b = Self.text(delimiter: delimiter, count: 50_000)
        // Stretches that end anywhere, not only on a block's edge.
        for end in [b.count, b.count - 1, b.count - 37, 63, 64, 65, 130] {
            var ends = CellEnds(delimiter: delimiter)
            var i = 0
            var wrong = 0, cells = 0
            b.withUnsafeBytes { raw in
                while i < end {
                    let found = ends.next(in: raw, from: i, end: end)
                    if found != Self.naive(b, from: i, end: end, delimiter: delimiter) { wrong += 1 }
                    cells += 1
                    i = found + 1
                }
            }
            #expect(wrong == 0, "\(wrong) of \(cells) cell ends differ from the scan's (end \(end))")
            #expect(cells > (end > 1000 ? 300 : 0))
        }
    }

    @Test func jumpsForwardAndBackIntoABlock() {
        let delimiter = UInt8(ascii: ",")
        let b = Self.text(delimiter: delimiter, count: 20_000)
        var state: UInt64 = 12345
        var ends = CellEnds(delimiter: delimiter)
        var wrong = 0
        b.withUnsafeBytes { raw in
            var i = 0
            while i < b.count {
                let found = ends.next(in: raw, from: i, end: b.count)
                if found != Self.naive(b, from: i, end: b.count, delimiter: delimiter) { wrong += 1 }
                // As after a quoted cell: on a few bytes, sometimes past the next block; and
                // now and then a question about earlier bytes of the block the mask describes.
                state = state &* 6364136223846793005 &+ 1442695040888963407
                if state >> 61 == 1 {
                    let back = max(0, found - Int(state >> 40 & 31))
                    if ends.next(in: raw, from: back, end: b.count) != Self.naive(b, from: back, end: b.count, delimiter: delimiter) { wrong += 1 }
                }
                i = found + 1 + (state >> 61 == 0 ? Int(state >> 40 & 127) : 0)
            }
        }
        #expect(wrong == 0, "\(wrong) cell ends differ from the scan's after jumps")
    }
}
