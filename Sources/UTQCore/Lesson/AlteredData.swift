/// Copies of a lesson's tables changed so that an answer which only repeats numbers it saw
/// fails: rows in another order, a sample of rows left out, numbers moved a little. A right
/// pipeline gives the answer's result on each of them, since the answer runs on them too.
enum AlteredData: CaseIterable {
    case shuffled, sampled, perturbed

    func apply(_ t: Table) -> Table {
        let n = t.rowCount
        guard n > 1 else { return t }
        var random = SeededRandom(seed: UInt64(n) &* 0x9E37_79B9)
        var rows = (0..<n).map { Int32($0) }
        switch self {
        case .shuffled:
            rows.shuffle(using: &random)
        case .sampled:
            // About one row in six, never all of them.
            rows = rows.filter { _ in random.next() % 6 != 0 }
            if rows.isEmpty { rows = [0] }
            rows.shuffle(using: &random)
        case .perturbed:
            rows = rows.filter { _ in random.next() % 9 != 0 }
            if rows.isEmpty { rows = [0] }
        }
        var out = t.gather(rows)
        if self == .perturbed {
            // Numbers with a fraction grow by a tenth, so sums and means move; whole numbers
            // (ids, counts, codes) stay as they are, as joins need.
            out.columns = out.columns.map { c in
                guard case .double(let v) = c.storage else { return c }
                return Column(name: c.name, storage: .double(v.map { $0 * 1.1 }), validity: c.validity, unit: c.unit)
            }
        }
        return out
    }
}
