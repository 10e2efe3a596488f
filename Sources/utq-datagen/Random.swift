import UTQCore
/// What the generators draw from UTQCore's SeededRandom (SplitMix64): the same seed gives
/// the same data on every machine, which the shipped datasets and the tests rely on.
extension SeededRandom {
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

    /// Uniform integer in 0..<n.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Normal (Box–Muller).
    mutating func normal(_ mean: Double = 0, _ sd: Double = 1) -> Double {
        let u = max(unit(), 1e-12), v = unit()
        return mean + sd * (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    /// An index chosen with the given weights.
    mutating func weighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var x = unit() * total
        for (i, w) in weights.enumerated() {
            if x < w { return i }
            x -= w
        }
        return weights.count - 1
    }

    mutating func shuffle<T>(_ a: inout [T]) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) {
            a.swapAt(i, int(i + 1))
        }
    }
}

import Foundation

/// Text helpers shared by the generators.
enum Format {
    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// A number with at most `decimals` decimals, trailing zeros dropped but one kept.
    static func number(_ v: Double, _ decimals: Int = 1) -> String {
        var s = String(format: "%.\(decimals)f", v)
        while s.hasSuffix("0") && !s.hasSuffix(".0") { s.removeLast() }
        return s
    }

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
