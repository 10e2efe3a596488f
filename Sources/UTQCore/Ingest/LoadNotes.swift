/// Notes about what a load decided that a user would otherwise not see.
enum LoadNotes {
    /// A column of whole numbers, some past 64 bits (20-digit ids), is kept as text so no
    /// digit changes; this says so once, with the first such value.
    static func wholeNumbersKeptAsText(_ t: Table, path: String) -> [LoadWarning] {
        var out: [LoadWarning] = []
        for c in t.columns {
            guard case .string(let s) = c.storage, s.dictionary.count <= 1_000_000 else { continue }
            var big: String? = nil
            var padded: String? = nil
            var allWhole = true
            for (k, v) in s.dictionary.enumerated() {
                if v.isEmpty && k == 0 { continue }
                var text = v
                let whole = text.withUTF8 { NumberParser.isWholeNumberText(UnsafeRawBufferPointer($0)) }
                guard whole else { allWhole = false; break }
                if text.withUTF8({ NumberParser.int(UnsafeRawBufferPointer($0)) }) == nil {
                    // 0820 is refused for its leading zero, 123456789012345678901 for its size.
                    let digits = v.drop { $0 == "-" || $0 == "+" }
                    if digits.count > 1 && digits.first == "0" { if padded == nil { padded = v } } else if big == nil { big = v }
                }
            }
            if allWhole, let padded {
                let clock = ClockText.parse(padded) != nil && padded.count <= 4
                out.append(LoadWarning(path: path, "\(c.name) is kept as text: its values have leading zeros (\(padded) would lose its 0 as a number); "
                    + (clock ? "timeofday(\(c.name)) reads them as clock times, number(\(c.name)) as numbers" : "number(\(c.name)) reads them as numbers")))
            } else if allWhole, let big {
                out.append(LoadWarning(path: path, "\(c.name) holds whole numbers past 64 bits (\(big)); it is kept as text, so no digit changes"))
            }
        }
        return out
    }
}
