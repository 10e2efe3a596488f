/// Notes about what a load decided that a user would otherwise not see.
enum LoadNotes {
    /// A column of whole numbers, some past 64 bits (20-digit ids), is kept as text so no
    /// digit changes; this says so once, with the first such value.
    static func wholeNumbersKeptAsText(_ t: Table, path: String) -> [LoadWarning] {
        var out: [LoadWarning] = []
        for c in t.columns {
            guard case .string(let s) = c.storage, s.dictionary.count <= 1_000_000 else { continue }
            var big: String? = nil
            var allWhole = true
            for (k, v) in s.dictionary.enumerated() {
                if v.isEmpty && k == 0 { continue }
                var text = v
                let whole = text.withUTF8 { NumberParser.isWholeNumberText(UnsafeRawBufferPointer($0)) }
                guard whole else { allWhole = false; break }
                if big == nil, text.withUTF8({ NumberParser.int(UnsafeRawBufferPointer($0)) }) == nil { big = v }
            }
            if allWhole, let big {
                out.append(LoadWarning(path: path, "\(c.name) holds whole numbers past 64 bits (\(big)); it is kept as text, so no digit changes"))
            }
        }
        return out
    }
}
