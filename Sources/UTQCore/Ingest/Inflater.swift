import CCompression
import Foundation

/// Reads a gzip file (RFC 1952; members one after another read as one stream) a block of
/// text at a time. Its deflate decoder is utq's own, built for speed the way libdeflate's is:
/// 64 bits of input taken at once without a branch, one table look-up a symbol (HuffmanTable),
/// matches copied eight bytes at a time. zlib inflated a 571 MB CSV at 230 MB/s on this
/// project's benchmark host, so a `.csv.gz` took more than twice the plain file's time to
/// load; the text this decoder gives is checked against zlib's in the tests and by a fuzz
/// target, and every member's CRC-32 (CRC32) and length are checked as zlib checks them.
final class Inflater {
    /// `why` is zlib's words for the same damage; `whole`, a message that says it all.
    struct Damaged: Error { var why: String = ""; var whole: String? = nil }
    struct Truncated: Error {}

    private let fd: Int32
    private let progress: LoadProgress?

    // Input: input[0..<inputEnd] read from the file, 32 zero bytes after it (a 64-bit read
    // may run past the end; the bits it takes there are counted and refused).
    private let inputCapacity: Int
    private let input: UnsafeMutablePointer<UInt8>
    private var inputEnd = 0
    /// The next byte not yet in `bits`.
    private var position = 0
    private var fileEnded = false
    /// Bytes of the file before input[0].
    private var inputOffset = 0

    // Bits taken from the input, least significant first; `bitCount` of them are the
    // stream's, and any above them are the bytes at `position` (so taking them again is
    // harmless).
    private var bits: UInt64 = 0
    private var bitCount: UInt64 = 0

    // Output: the last 32 KB of text (what a match may copy from), then the text not yet
    // handed out, then room for a match's eight-byte copies to run over.
    private static let window = 32 << 10
    private let outputCapacity: Int
    private let output: UnsafeMutablePointer<UInt8>
    private var outputEnd = 0
    private var handed = 0
    private var checked = 0  // text up to here is in `crc`

    private enum State { case memberStart, blockStart, huffman, stored(Int), memberEnd, finished }
    private var state = State.memberStart
    private var lastBlock = false
    private var crc: UInt32 = 0
    private var memberSize: UInt32 = 0

    private var litlen = HuffmanTable(rootBits: 11, capacity: 2048 + 4096)
    private var distance = HuffmanTable(rootBits: 8, capacity: 256 + 2048)
    private var precode = HuffmanTable(rootBits: 7, capacity: 128)
    private static let fixed: (litlen: [UInt8], distance: [UInt8]) = (
        (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }, [UInt8](repeating: 5, count: 32))

    /// The file's bytes taken so far (those whose text has been made).
    var consumed: Int { inputOffset + position - Int(bitCount >> 3) }
    /// The file's bytes read so far.
    var fileRead: Int { inputOffset + inputEnd }
    var finished: Bool { if case .finished = state { return handed == outputEnd } else { return false } }

    init(fd: Int32, progress: LoadProgress?, inputSize: Int = 1 << 18, outputSize: Int = 1 << 20) {
        self.fd = fd
        self.progress = progress
        inputCapacity = max(64, inputSize)
        input = .allocate(capacity: inputCapacity + 32)
        input.initialize(repeating: 0, count: inputCapacity + 32)
        outputCapacity = Inflater.window + max(1 << 16, outputSize)
        output = .allocate(capacity: outputCapacity + 512)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Fills `out` with the next bytes of text; fewer only at the end. Returns how many.
    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        var made = 0
        while made < out.count {
            if handed < outputEnd {
                let n = min(out.count - made, outputEnd - handed)
                (out.baseAddress! + made).copyMemory(from: output + handed, byteCount: n)
                handed += n
                made += n
                continue
            }
            if case .finished = state { break }
            try produce()
        }
        return made
    }

    /// Makes more text after what was handed out.
    private func produce() throws {
        // Keep the window before the new text.
        if outputEnd > Inflater.window {
            sumText()
            let keep = Inflater.window
            memmove(output, output + outputEnd - keep, keep)
            checked -= outputEnd - keep
            outputEnd = keep
            handed = keep
        }
        let before = outputEnd
        while outputEnd - before < (outputCapacity - Inflater.window) / 2 {
            switch state {
            case .memberStart:
                if try !memberHeader() { state = .finished; return }
                state = .blockStart
            case .blockStart:
                try blockHeader()
            case .huffman:
                try decodeHuffman(limit: outputCapacity)
                if case .huffman = state { continue }
            case .stored(let left):
                try copyStored(left)
            case .memberEnd:
                try memberTrailer()
            case .finished:
                return
            }
        }
    }

    // MARK: input

    /// Reads more of the file after `position`; the bytes before it are let go but for the
    /// last eight, which `bits` may hold and give back at a byte boundary.
    private func refillInput() throws {
        let from = max(0, position - 8)
        let keep = inputEnd - from
        if keep > 0 { memmove(input, input + from, keep) }
        inputOffset += from
        position -= from
        inputEnd = keep
        while inputEnd < inputCapacity && !fileEnded {
            let n = Foundation.read(fd, input + inputEnd, inputCapacity - inputEnd)
            if n < 0 { if errno == EINTR { continue }; throw Damaged(why: String(cString: strerror(errno))) }
            if n == 0 { fileEnded = true } else { progress?.advance(n) }
            inputEnd += n
            if n > 0 { break }
        }
        (input + inputEnd).update(repeating: 0, count: 32)
    }

    /// At a byte boundary, whole bytes in `bits` are given back to the input.
    private func alignToByte() {
        let drop = bitCount & 7
        bits >>= drop
        bitCount -= drop
        position -= Int(bitCount >> 3)
        bits = 0
        bitCount = 0
    }

    /// The next byte of the input (bits aligned), or nil at the end of the file.
    private func nextByte() throws -> UInt8? {
        if position >= inputEnd {
            if fileEnded { return nil }
            try refillInput()
            if position >= inputEnd { return nil }
        }
        position += 1
        return input[position - 1]
    }

    private func byte() throws -> UInt8 {
        guard let b = try nextByte() else { throw Truncated() }
        return b
    }

    /// Takes `n` (≤ 32) bits outside the decoding loop.
    private func take(_ n: UInt64) throws -> UInt32 {
        let v = UInt32(truncatingIfNeeded: try peekBits(n))
        bits >>= n
        bitCount -= n
        return v
    }

    // MARK: gzip framing

    /// A member's header; false at the end of the file (or zeros padding it, as tape
    /// archives do) after a whole member.
    private func memberHeader() throws -> Bool {
        alignToByte()
        var first = try nextByte()
        if consumed > 0 {
            while first == 0 { first = try nextByte() }
            guard let b = first else { return false }
            guard b == 0x1F else {
                throw Damaged(whole: "after the gzip stream ends at byte \(NumberText.grouped(consumed - 1)) come bytes that are not gzip; "
                              + "the file is damaged, or other data was added to it")
            }
        } else if first == nil {
            throw Truncated()
        }
        guard first == 0x1F, try byte() == 0x8B else { throw Damaged(why: "incorrect header check") }
        guard try byte() == 8 else { throw Damaged(why: "unknown compression method") }
        let flags = try byte()
        guard flags & 0xE0 == 0 else { throw Damaged(why: "unknown header flags set") }
        for _ in 0..<6 { _ = try byte() }  // time, extra flags, system
        if flags & 4 != 0 {
            let n = Int(try byte()) | Int(try byte()) << 8
            for _ in 0..<n { _ = try byte() }
        }
        if flags & 8 != 0 { while try byte() != 0 {} }   // name
        if flags & 16 != 0 { while try byte() != 0 {} }  // comment
        if flags & 2 != 0 { _ = try byte(); _ = try byte() }  // header CRC
        crc = 0
        memberSize = 0
        checked = outputEnd
        lastBlock = false
        return true
    }

    private func memberTrailer() throws {
        sumText()
        alignToByte()
        var stored: UInt32 = 0, size: UInt32 = 0
        for k in 0..<4 { stored |= UInt32(try byte()) << (8 * k) }
        for k in 0..<4 { size |= UInt32(try byte()) << (8 * k) }
        guard crc == stored else { throw Damaged(why: "incorrect data check") }
        guard size == memberSize else { throw Damaged(why: "incorrect length check") }
        state = .memberStart
    }

    /// Adds the text made since the last call to the member's CRC and length.
    private func sumText() {
        let n = outputEnd - checked
        guard n > 0 else { return }
        crc = CRC32.update(crc, output + checked, count: n)
        memberSize &+= UInt32(truncatingIfNeeded: n)
        checked = outputEnd
    }

    // MARK: blocks

    private func blockHeader() throws {
        lastBlock = try take(1) == 1
        switch try take(2) {
        case 0:
            alignToByte()
            let length = Int(try byte()) | Int(try byte()) << 8
            let complement = Int(try byte()) | Int(try byte()) << 8
            guard length ^ 0xFFFF == complement else { throw Damaged(why: "invalid stored block lengths") }
            state = .stored(length)
        case 1:
            let ok = Inflater.fixed.litlen.withUnsafeBufferPointer { litlen.build(lengths: $0, entry: HuffmanTable.litlenEntry) }
                && Inflater.fixed.distance.withUnsafeBufferPointer { distance.build(lengths: $0, entry: HuffmanTable.distanceEntry) }
            guard ok else { throw Damaged(why: "invalid fixed code") }
            state = .huffman
        case 2:
            try dynamicTables()
            state = .huffman
        default:
            throw Damaged(why: "invalid block type")
        }
    }

    private func blockEnded() {
        state = lastBlock ? .memberEnd : .blockStart
    }

    private func copyStored(_ left: Int) throws {
        var left = left
        while left > 0 && outputEnd < outputCapacity {
            if position >= inputEnd {
                if fileEnded { throw Truncated() }
                try refillInput()
                continue
            }
            let n = min(left, inputEnd - position, outputCapacity - outputEnd)
            (output + outputEnd).update(from: input + position, count: n)
            outputEnd += n
            position += n
            left -= n
        }
        if left == 0 { blockEnded() } else { state = .stored(left) }
    }

    private static let precodeOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A dynamic block's codes: the code lengths' own code first, then the lengths.
    private func dynamicTables() throws {
        let literals = Int(try take(5)) + 257
        let distances = Int(try take(5)) + 1
        let precodes = Int(try take(4)) + 4
        guard literals <= 286, distances <= 30 else { throw Damaged(why: "too many length or distance symbols") }
        var precodeLengths = [UInt8](repeating: 0, count: 19)
        for k in 0..<precodes { precodeLengths[Inflater.precodeOrder[k]] = UInt8(try take(3)) }
        let precodeOK = precodeLengths.withUnsafeBufferPointer { precode.build(lengths: $0, entry: { UInt32($0) << 16 }) }
        guard precodeOK else { throw Damaged(why: "invalid code lengths set") }
        var lengths = [UInt8](repeating: 0, count: literals + distances)
        var k = 0
        while k < lengths.count {
            let peek = try peekBits(7)
            let e = precode.entries[Int(peek)]
            guard e & HuffmanTable.kindMask != HuffmanTable.invalid else { throw Damaged(why: "invalid code lengths set") }
            _ = try take(UInt64(e & 0x3F))
            let symbol = Int(e >> 16)
            switch symbol {
            case 0...15:
                lengths[k] = UInt8(symbol); k += 1
            case 16:
                guard k > 0 else { throw Damaged(why: "invalid bit length repeat") }
                let n = 3 + Int(try take(2))
                guard k + n <= lengths.count else { throw Damaged(why: "invalid bit length repeat") }
                let previous = lengths[k - 1]
                for _ in 0..<n { lengths[k] = previous; k += 1 }
            default:
                let n = symbol == 17 ? 3 + Int(try take(3)) : 11 + Int(try take(7))
                guard k + n <= lengths.count else { throw Damaged(why: "invalid bit length repeat") }
                k += n  // zeros
            }
        }
        guard lengths[256] != 0 else { throw Damaged(why: "invalid code -- missing end-of-block") }
        let ok = lengths.withUnsafeBufferPointer { all in
            litlen.build(lengths: UnsafeBufferPointer(rebasing: all[0..<literals]), entry: HuffmanTable.litlenEntry)
        }
        guard ok else { throw Damaged(why: "invalid literal/lengths set") }
        let distanceOK = lengths.withUnsafeBufferPointer { all in
            distance.build(lengths: UnsafeBufferPointer(rebasing: all[literals...]), entry: HuffmanTable.distanceEntry)
        }
        guard distanceOK else { throw Damaged(why: "invalid distances set") }
    }

    /// The next `n` bits, not taken.
    private func peekBits(_ n: UInt64) throws -> UInt64 {
        if bitCount < n {
            if inputEnd - position < 8 && !fileEnded { try refillInput() }
            bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
            position += Int((63 &- bitCount) &>> 3)
            bitCount |= 56
            // Past the end only the padding's zeros: a stream cut short, refused before the
            // next read would run past the padding.
            if position - Int(bitCount >> 3) > inputEnd { throw Truncated() }
        }
        return bits & ((1 << n) - 1)
    }

    /// Decodes the block's symbols until it ends or the text reaches `limit` (less room for
    /// one match). The state lives in locals while it runs.
    private func decodeHuffman(limit: Int) throws {
        var bits = self.bits, bitCount = self.bitCount
        let input = self.input
        var position = self.position
        let output = self.output
        var end = self.outputEnd
        let stop = limit - 258
        let litlen = self.litlen.entries, distance = self.distance.entries
        // A pass of the loop refills up to three times and reads up to 22 bytes past the
        // input position it started at: it starts only 32 bytes or more before the input's end.
        var safeInput = inputEnd - 32
        defer {
            self.bits = bits
            self.bitCount = bitCount
            self.position = position
            self.outputEnd = end
        }
        while end < stop {
            if position > safeInput {
                if !fileEnded {
                    self.position = position
                    try refillInput()
                    position = self.position
                    safeInput = inputEnd - 32
                    continue
                }
                if position - Int(bitCount >> 3) > inputEnd { throw Truncated() }
            }
            // Near the end of the input, a symbol at a time (each checked above); else many.
            let fastInput = position > safeInput ? position : safeInput
            // Refill: at least 56 bits, enough for a length, a distance and their extra bits.
            bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
            position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
            bitCount |= 56
            // Each symbol's entry is looked up as soon as its bits are there: after a match's
            // distance, before the match is copied, so the look-up's wait overlaps the copy.
            var e = litlen[Int(truncatingIfNeeded: bits & 0x7FF)]
            decoding: repeat {
            if Int32(bitPattern: e) >= 0, e & HuffmanTable.kindMask == HuffmanTable.subtable {
                // A long code (rare), looked up ahead with fewer bits than a literal run takes.
                bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
                position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
                bitCount |= 56
                bits &>>= 11
                bitCount &-= 11
                e = litlen[Int(truncatingIfNeeded: e >> 16) &+ Int(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: e >> 8)) &- 1))]
            }
            if Int32(bitPattern: e) < 0 {
                // A shift takes only the low six bits of its count: the entry's bits 0-5.
                bits &>>= UInt64(truncatingIfNeeded: e)
                bitCount &-= UInt64(e & 0x3F)
                output[end] = UInt8(truncatingIfNeeded: e >> 16)
                end &+= 1
                // Two more literals from the bits left (41 or more, then 30: a code in the
                // first table takes 11 at most), as most runs of literals are; the entry after
                // them is the next symbol's.
                for _ in 0..<2 {
                    e = litlen[Int(truncatingIfNeeded: bits & 0x7FF)]
                    guard Int32(bitPattern: e) < 0 else { continue decoding }
                    bits &>>= UInt64(truncatingIfNeeded: e)
                    bitCount &-= UInt64(e & 0x3F)
                    output[end] = UInt8(truncatingIfNeeded: e >> 16)
                    end &+= 1
                }
                bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
                position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
                bitCount |= 56
                e = litlen[Int(truncatingIfNeeded: bits & 0x7FF)]
                continue
            }
            let kind = e & HuffmanTable.kindMask
            if kind == HuffmanTable.length {
                // Up to 48 bits: a length's code and extra bits, a distance's code and extra bits.
                bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
                position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
                bitCount |= 56
                // The code and its extra bits in one shift; the extra bits are those above the code.
                var saved = bits
                bits &>>= UInt64(truncatingIfNeeded: e)
                bitCount &-= UInt64(e & 0x3F)
                let length = Int(truncatingIfNeeded: e >> 16) &+ Int(truncatingIfNeeded: (saved & ((1 &<< UInt64(truncatingIfNeeded: e)) &- 1)) &>> UInt64(truncatingIfNeeded: e >> 8))
                var d = distance[Int(truncatingIfNeeded: bits & 0xFF)]
                if d & HuffmanTable.kindMask == HuffmanTable.subtable {
                    bits &>>= 8
                    bitCount &-= 8
                    d = distance[Int(truncatingIfNeeded: d >> 16) &+ Int(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: d >> 8)) &- 1))]
                }
                guard d & HuffmanTable.kindMask == HuffmanTable.length else { throw Damaged(why: "invalid distance code") }
                saved = bits
                bits &>>= UInt64(truncatingIfNeeded: d)
                bitCount &-= UInt64(d & 0x3F)
                let back = Int(truncatingIfNeeded: d >> 16) &+ Int(truncatingIfNeeded: (saved & ((1 &<< UInt64(truncatingIfNeeded: d)) &- 1)) &>> UInt64(truncatingIfNeeded: d >> 8))
                guard back <= end else { throw Damaged(why: "invalid distance too far back") }
                bits |= UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)) &<< bitCount
                position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
                bitCount |= 56
                let next = litlen[Int(truncatingIfNeeded: bits & 0x7FF)]
                var to = output + end
                var from = to - back
                let last = to + length
                if back >= 8 {
                    // Eight bytes at a time, each read of text already written: four words
                    // (most matches) without a loop, then the rest. The copies may write past
                    // the match: the room after the text allows it.
                    for k in 0..<4 {
                        UnsafeMutableRawPointer(to + 8 * k).storeBytes(of: UnsafeRawPointer(from + 8 * k).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    }
                    to += 32
                    from += 32
                    while to < last {
                        UnsafeMutableRawPointer(to).storeBytes(of: UnsafeRawPointer(from).loadUnaligned(as: UInt64.self), as: UInt64.self)
                        to += 8
                        from += 8
                    }
                } else if back == 1 {
                    let b = from.pointee
                    let word = UInt64(b) &* 0x0101_0101_0101_0101
                    repeat {
                        UnsafeMutableRawPointer(to).storeBytes(of: word, as: UInt64.self)
                        to += 8
                    } while to < last
                } else {
                    repeat {
                        to.pointee = from.pointee
                        to += 1
                        from += 1
                    } while to < last
                }
                end &+= length
                e = next
                continue
            }
            bits &>>= UInt64(truncatingIfNeeded: e)
            bitCount &-= UInt64(e & 0x3F)
            if position - Int(bitCount >> 3) > inputEnd { throw Truncated() }
            if kind == HuffmanTable.endOfBlock {
                self.state = lastBlock ? .memberEnd : .blockStart
                return
            }
            throw Damaged(why: "invalid literal/length code")
            } while end < stop && position <= fastInput
        }
    }
}
