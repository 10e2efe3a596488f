import Foundation
import UTQCore

/// Rows keyed by many distinct ids, for the benchmarks of grouping and joining at scale:
/// `k` (an id drawn from `keys`, as a trip, rider or vehicle id), `k2` (one of 1,000 values,
/// as a stop or a day, for distinct counts per key) and `v` (a measurement with two
/// decimals). With `keys` equal to the rows, `k` is every id once in a shuffled order
/// (a join key unique on its side).
enum KeysData {
    static func write(rows: Int, keys: Int, seed: UInt64, to path: String) {
        FileManager.default.createFile(atPath: path, contents: nil)
        guard let h = FileHandle(forWritingAtPath: path) else {
            FileHandle.standardError.write("utq-datagen: cannot write \(path)\n".data(using: .utf8)!)
            exit(1)
        }
        var rng = SeededRandom(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        out.append(contentsOf: Array("k,k2,v\n".utf8))
        // Unique keys: a multiplicative permutation of 0..<rows (an odd multiplier modulo a
        // power of two, the values past `rows` skipped), so no table of ids is held.
        let unique = keys >= rows
        var size = 1
        while size < rows { size <<= 1 }
        let step: UInt64 = (0x9E37_79B9_7F4A_7C15 &* (seed | 1)) | 1  // another order for another seed
        var next: UInt64 = 0
        func digits(_ value: Int) {
            var v = value, buf: [UInt8] = []
            repeat { buf.append(UInt8(48 + v % 10)); v /= 10 } while v > 0
            out.append(contentsOf: buf.reversed())
        }
        for _ in 0..<rows {
            let k: Int
            if unique {
                var candidate: UInt64
                repeat { candidate = (next &* step) & UInt64(size - 1); next += 1 } while candidate >= UInt64(rows)
                k = Int(candidate)
            } else {
                k = rng.int(keys)
            }
            digits(k); out.append(44)
            digits(rng.int(1000)); out.append(44)
            let cents = rng.int(100_000)
            digits(cents / 100); out.append(46)
            out.append(UInt8(48 + cents % 100 / 10)); out.append(UInt8(48 + cents % 10)); out.append(10)
            if out.count > 1 << 20 { h.write(Data(out)); out.removeAll(keepingCapacity: true) }
        }
        h.write(Data(out))
        try? h.close()
        FileHandle.standardError.write("wrote \(path)\n".data(using: .utf8)!)
    }
}
