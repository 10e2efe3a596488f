import Foundation

extension ColumnBuilder {
    /// The same column of each part of a load (in file order), joined into the first part's
    /// builder. Values the parts wrote into one slab are moved together in place; any other
    /// way (a part whose region filled up, a type one part widened) goes through `absorb`.
    static func join(_ parts: [ColumnBuilder]) throws -> ColumnBuilder {
        let first = parts[0]
        if parts.count == 1 { return first }
        if first.joinInSlab(parts) { return first }
        for part in parts.dropFirst() { try first.absorb(part) }
        return first
    }

    /// Joins the parts' values in their shared slab, if every part wrote all of its values there.
    private func joinInSlab(_ parts: [ColumnBuilder]) -> Bool {
        guard let slab, parts.allSatisfy({ $0.slab === slab && $0.type == type }) else { return false }
        let counts = parts.map(\.count)
        switch type {
        case .undetermined:
            return false
        case .int, .timestamp, .duration:
            guard let s = slab as? ColumnSlab<Int64>, parts.allSatisfy({ $0.ints.inRegion }) else { return false }
            let moved = parts.map { $0.ints.takeRegion() }
            ints.adopt(s.joined(counts: moved) { to, from, n, _ in to.moveInitialize(from: from, count: n) })
        case .double:
            guard let s = slab as? ColumnSlab<Double>, parts.allSatisfy({ $0.doubles.inRegion }) else { return false }
            let moved = parts.map { $0.doubles.takeRegion() }
            doubles.adopt(s.joined(counts: moved) { to, from, n, _ in to.moveInitialize(from: from, count: n) })
        case .bool:
            guard let s = slab as? ColumnSlab<Bool>, parts.allSatisfy({ $0.flags.inRegion }) else { return false }
            let moved = parts.map { $0.flags.takeRegion() }
            flags.adopt(s.joined(counts: moved) { to, from, n, _ in to.moveInitialize(from: from, count: n) })
        case .string:
            guard let s = slab as? ColumnSlab<UInt32>, parts.allSatisfy({ $0.codes.inRegion }) else { return false }
            // Each later part's codes are its own dictionary's: mapped into this one's as they move.
            let remaps: [[UInt32]] = parts.map { part in
                part === self ? [] : (0..<part.interner.count).map { c in part.interner.bytes(of: c).withUnsafeBytes { interner.intern($0) } }
            }
            let moved = parts.map { $0.codes.takeRegion() }
            codes.adopt(s.joined(counts: moved) { to, from, n, w in
                remaps[w].withUnsafeBufferPointer { remap in
                    // Forward is safe: `to` is never after `from`. A null's code (0) in a part
                    // with no text in this column has nothing to map to and is never read.
                    for i in 0..<n {
                        let c = Int(from[i])
                        to[i] = c < remap.count ? remap[c] : 0
                    }
                }
            })
        }
        // Each part's nulls after the rows before it: `count` is the rows joined so far.
        count = counts[0]
        for (w, part) in parts.enumerated().dropFirst() {
            appendNulls(of: part)
            count += counts[w]
            absorbFacts(part)
        }
        joinedInPlace = true
        return true
    }
}
