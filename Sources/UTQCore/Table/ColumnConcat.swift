import Foundation

/// Columns of several tables one after another, array by array: no value is made per row,
/// so a million rows from thirty files join as fast as their memory is copied.
extension Column {
    /// One table's share of a joined column: its column (nil when it has none: nulls), its
    /// rows, and its zone (for times written as text).
    struct Piece {
        var column: Column?
        var count: Int
        var zone: ZoneRules
    }

    /// The type a column of pieces of these types takes: the one type they share, numbers
    /// for whole numbers and numbers, else text (`mixed` true). Pieces without values
    /// (nulls only) take any type.
    static func unifiedType(_ types: [DataType]) -> (type: DataType, mixed: Bool) {
        let kinds = types.filter { $0 != .null }
        guard let first = kinds.first else { return (.null, false) }
        if kinds.allSatisfy({ $0 == first }) { return (first, false) }
        if kinds.allSatisfy({ $0 == .int || $0 == .double }) { return (.double, false) }
        return (.string, true)
    }

    /// The pieces as one column of `type` (from `unifiedType`): whole numbers become numbers
    /// for `.double`, and any value becomes its text, as `save` writes it, for `.string`.
    static func concatenate(_ pieces: [Piece], name: String, type: DataType) -> Column {
        let total = pieces.reduce(0) { $0 + $1.count }
        let first = pieces.lazy.compactMap(\.column).first
        var validity: Bitmap? = nil
        if pieces.contains(where: { $0.column == nil || $0.column!.validity != nil || $0.column!.type == .null }) {
            var v = Bitmap()
            v.reserveCapacity(total)
            for p in pieces {
                if let c = p.column, c.type != .null {
                    if let cv = c.validity { v.append(contentsOf: cv) } else { v.append(repeating: true, count: p.count) }
                } else {
                    v.append(repeating: false, count: p.count)
                }
            }
            validity = v
        }
        func joined<T>(_ zero: T, _ pick: (Column.Storage, Int) -> [T]?) -> [T] {
            var out: [T] = []
            out.reserveCapacity(total)
            for p in pieces {
                if let c = p.column, let a = pick(c.storage, p.count) { out.append(contentsOf: a) } else { out.append(contentsOf: repeatElement(zero, count: p.count)) }
            }
            return out
        }
        let storage: Storage
        switch type {
        case .null: return Column.nulls(name, count: total)
        case .int: storage = .int(joined(0) { s, _ in if case .int(let a) = s { return a }; return nil })
        case .timestamp: storage = .timestamp(joined(0) { s, _ in if case .timestamp(let a) = s { return a }; return nil })
        case .duration: storage = .duration(joined(0) { s, _ in if case .duration(let a) = s { return a }; return nil })
        case .bool: storage = .bool(joined(false) { s, _ in if case .bool(let a) = s { return a }; return nil })
        case .double:
            storage = .double(joined(0) { s, _ in
                switch s {
                case .double(let a): return a
                case .int(let a): return a.map { Double($0) }
                default: return nil
                }
            })
        case .string: storage = .string(joinedText(pieces, total: total))
        case .geometry:
            var space = GeoSpace.lnglat
            if case .geometry(let g)? = first?.storage { space = g.space }
            var b = GeometryBuilder(space: space)
            b.reserve(total)
            for p in pieces {
                guard let c = p.column, case .geometry(let g) = c.storage else {
                    for _ in 0..<p.count { b.appendNull() }
                    continue
                }
                for r in 0..<p.count { b.append(g, row: r) }
            }
            storage = .geometry(b.storage)
        }
        var out = Column(name: name, storage: storage, validity: validity, unit: first?.unit ?? .automatic)
        out.floating = first?.floating ?? false
        return out
    }

    /// Text pieces joined with one dictionary; other pieces written as text first.
    private static func joinedText(_ pieces: [Piece], total: Int) -> StringStorage {
        var dictionary: [String] = []
        var codeOf: [String: UInt32] = [:]
        func intern(_ s: String) -> UInt32 {
            if let c = codeOf[s] { return c }
            let c = UInt32(dictionary.count)
            dictionary.append(s)
            codeOf[s] = c
            return c
        }
        var codes: [UInt32] = []
        codes.reserveCapacity(total)
        for p in pieces {
            guard let c = p.column else { codes.append(contentsOf: repeatElement(0, count: p.count)); continue }
            switch c.storage {
            case .string(let s):
                let remap = s.dictionary.map(intern)
                codes.append(contentsOf: s.codes.map { Int($0) < remap.count ? remap[Int($0)] : 0 })
            case .null:
                codes.append(contentsOf: repeatElement(0, count: p.count))
            default:
                let cell = MachineCell(column: c, zone: p.zone)
                for r in 0..<p.count { codes.append(cell.text(r).map(intern) ?? 0) }
            }
        }
        return StringStorage(codes: codes, dictionary: dictionary.isEmpty ? [""] : dictionary)
    }
}
