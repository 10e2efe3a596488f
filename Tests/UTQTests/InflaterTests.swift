import CCompression
import Foundation
import Testing
@testable import UTQCore

/// utq's own deflate decoder against zlib's encoder: every block type (stored, fixed and
/// dynamic codes), every level and strategy, small windows, matches of every distance class
/// (a distance under eight is copied a byte at a time, one of eight or more a word at a time),
/// text across the decoder's output blocks and input refills, several members; and damage
/// that zlib refuses is refused, with nothing read past it.
@Suite struct InflaterTests {
    /// `bytes` as one gzip member from zlib's deflate with these settings.
    static func deflated(_ bytes: [UInt8], level: Int32 = 6, strategy: Int32 = Z_DEFAULT_STRATEGY, windowBits: Int32 = 15) -> [UInt8] {
        var z = z_stream()
        var out = [UInt8](repeating: 0, count: bytes.count + bytes.count / 8 + 4096)
        #expect(deflateInit2_(&z, level, Z_DEFLATED, 16 + windowBits, 9, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        var input = bytes
        let n = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o -> Int in
                z.next_in = i.baseAddress; z.avail_in = uInt(i.count)
                z.next_out = o.baseAddress; z.avail_out = uInt(o.count)
                #expect(deflate(&z, Z_FINISH) == Z_STREAM_END)
                return o.count - Int(z.avail_out)
            }
        }
        deflateEnd(&z)
        return Array(out.prefix(n))
    }

    static func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-inflate-\(getpid())-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// The text of a gzip file read through the decoder in reads of `chunk` bytes, with an
    /// input buffer of `inputSize` bytes.
    static func inflated(_ gz: [UInt8], chunk: Int = 100_003, inputSize: Int = 1 << 18, outputSize: Int = 1 << 20) throws -> [UInt8] {
        let path = write(UUID().uuidString + ".gz", gz)  // tests run at once: a file each
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let inflater = Inflater(fd: fd, progress: nil, inputSize: inputSize, outputSize: outputSize)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try inflater.read(into: $0) }
            out += buffer[0..<n]
            if n < chunk { break }
        }
        #expect(inflater.finished)
        return out
    }

    /// Text with the repeats a CSV has, runs of one byte and of short patterns (distances 1
    /// to 7), and stretches of random bytes that only a stored block or literals hold.
    static func sample(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(count + 300)
        let words = ["Walking", "Bike", "Standing", "2017-03-01T01:00:", "+01:00", ",,", "\n"].map { Array($0.utf8) }
        while out.count < count {
            switch random.next() % 10 {
            case 0: out += [UInt8](repeating: UInt8(random.next() % 256), count: Int(random.next() % 300) + 1)
            case 1:
                let period = Int(random.next() % 7) + 1
                let pattern = (0..<period).map { _ in UInt8(random.next() % 256) }
                for k in 0..<Int(random.next() % 200) + 10 { out.append(pattern[k % period]) }
            case 2: out += (0..<Int(random.next() % 2000)).map { _ in UInt8(random.next() % 256) }
            default:
                out += words[Int(random.next() % UInt64(words.count))]
                out += Array(String(random.next() % 100_000).utf8)
            }
        }
        return Array(out.prefix(count))
    }

    @Test func everyLevelAndStrategyReadsBackTheText() throws {
        let text = Self.sample(700_000, seed: 7)
        for level: Int32 in [0, 1, 3, 6, 9] {
            for strategy in [Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED] {
                let gz = Self.deflated(text, level: level, strategy: strategy)
                let back = try Self.inflated(gz)
                #expect(back == text, "level \(level), strategy \(strategy): \(back.count) bytes against \(text.count)")
            }
        }
    }

    @Test func smallWindowsSmallBuffersAndSmallReads() throws {
        let text = Self.sample(300_000, seed: 11)
        for bits: Int32 in [9, 12, 15] {
            let gz = Self.deflated(text, level: 9, windowBits: bits)
            #expect(try Self.inflated(gz) == text, "window bits \(bits)")
        }
        let gz = Self.deflated(text)
        // Input read 64 bytes at a time, text made 64 KB at a time, handed out 1 and 7 bytes at a time.
        #expect(try Self.inflated(gz, chunk: 7, inputSize: 64, outputSize: 1 << 16) == text)
        #expect(try Self.inflated(Array(gz), chunk: 1, inputSize: 100, outputSize: 1 << 16).prefix(300_000) == text[...])
    }

    @Test func emptyTinyAndManyMembers() throws {
        #expect(try Self.inflated(Self.deflated([])) == [])
        #expect(try Self.inflated(Self.deflated([65])) == [65])
        let parts = (0..<5).map { Self.sample(10_000 * $0 + 1, seed: UInt64($0)) }
        // Members one after another, with zeros after the last, as tape archives pad a file.
        let gz: [UInt8] = parts.flatMap { Self.deflated($0) } + [0, 0, 0, 0]
        let whole: [UInt8] = parts.flatMap { $0 }
        #expect(try Self.inflated(gz) == whole)
    }

    @Test func aRunLongerThanTheOutputBlock() throws {
        // One match after another across the decoder's 64 KB blocks of text.
        let text = [UInt8](repeating: 0x41, count: 1_000_000) + Array("end\n".utf8)
        #expect(try Self.inflated(Self.deflated(text), outputSize: 1 << 16) == text)
    }

    @Test func damageIsRefusedAsZlibRefusesIt() throws {
        let text = Self.sample(200_000, seed: 3)
        let gz = Self.deflated(text)
        // A wrong check value, a wrong length, and a cut anywhere: each refused.
        var badCRC = gz
        badCRC[gz.count - 8] ^= 1
        var badSize = gz
        badSize[gz.count - 1] ^= 1
        let cuts: [[UInt8]] = [Array(gz.prefix(gz.count - 1)), Array(gz.prefix(gz.count / 2)), Array(gz.prefix(10))]
        for broken in [badCRC, badSize] + cuts {
            #expect(throws: (any Error).self) { try Self.inflated(broken) }
        }
        // Bytes flipped in the middle: refused, and never more text than zlib gives first.
        var random = SeededRandom(seed: 5)
        for _ in 0..<40 {
            var damaged = gz
            let at = 10 + Int(random.next() % UInt64(gz.count - 20))
            damaged[at] ^= UInt8(random.next() % 255 + 1)
            #expect(throws: (any Error).self) { try Self.inflated(damaged) }
        }
    }

    @Test func codesOfEveryLengthDecode() throws {
        // Symbol frequencies falling away geometrically give Huffman codes up to 15 bits,
        // the longest through the second-level tables.
        var random = SeededRandom(seed: 9)
        var text: [UInt8] = []
        for _ in 0..<400_000 {
            var symbol = 0
            while symbol < 255 && random.next() % 2 == 0 { symbol += 1 }
            text.append(UInt8(symbol))
        }
        for strategy in [Z_HUFFMAN_ONLY, Z_DEFAULT_STRATEGY] {
            #expect(try Self.inflated(Self.deflated(text, level: 9, strategy: strategy)) == text)
        }
    }

    @Test func theCheckValueIsZlibs() {
        var random = SeededRandom(seed: 13)
        let bytes = (0..<70_000).map { _ in UInt8(random.next() % 256) }
        bytes.withUnsafeBufferPointer { b in
            // Every start within a word, lengths about the 64-byte folds, and a text in pieces.
            for start in 0..<9 {
                for count in [0, 1, 15, 16, 63, 64, 65, 79, 80, 127, 128, 129, 1000, 4097, 65_536] {
                    let p = b.baseAddress! + start
                    let zlib = UInt32(truncatingIfNeeded: crc32(7, p, uInt(count)))
                    #expect(CRC32.update(7, p, count: count) == zlib, "start \(start), \(count) bytes")
                }
            }
            var pieces: UInt32 = 0
            var at = 0
            for size in [100, 64, 3, 5000, 17, 60_000] where at < b.count {
                let n = min(size, b.count - at)
                pieces = CRC32.update(pieces, b.baseAddress! + at, count: n)
                at += n
            }
            #expect(pieces == UInt32(truncatingIfNeeded: crc32(0, b.baseAddress!, uInt(at))))
        }
    }

    @Test func aStreamCutInsideItsCodeLengthsIsRefused() {
        // Found by the inflate fuzz target: a dynamic block's code lengths running past the
        // end of the file read on into the zeros after it, and past them.
        let gz: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + [0x4C, 0x31, 0x55, 0x1B, 0x1A, 0x37, 0, 0, 0, 0, 0x08, 0x00]
        #expect(throws: Inflater.Truncated.self) { try Self.inflated(gz) }
    }
}

