import Foundation
import Testing
@testable import UTQCore

/// A JSON file read in parts is cut where the cut search says. For every byte a part could
/// be asked to start at, in every shape a file comes in, the cut found must be where a record
/// starts (or, in a nested array of objects, a cut the reader notices and reads again in one
/// piece), and the file read in two parts at that cut must give the table of one piece.
extension ParallelReadTests {
    /// A document of `records` records in one shape, and the byte offsets its records start at.
    func shaped(_ shape: String, records: Int) -> (bytes: [UInt8], starts: Set<Int>) {
        var items: [String] = []
        for i in 0..<records {
            // Texts that hold what the cut search looks for, escaped and not.
            let text = [#"a},{\"id\": 1"#, "plain", #"\\"#, "},{", #"é \ud83d\ude00"#, #"line\nbreak \"q\""#, #"{\"a\""#, " , "][i % 8]
            let nested = shape == "nested" && i % 3 == 0 ? #","stops":[{"id":\#(i)},{"id":\#(i + 1),"t":"x"}],"at":{"x":\#(i)}"# : ""
            let when = "2017-03-26T0\(i % 4):30:00+0\(i % 4 < 2 ? 1 : 2)00"
            items.append(#"{"id":\#(i),"text":"\#(text)","n":\#(Double(i) / 4),"when":"\#(when)","ok":\#(i % 2 == 0)\#(nested)}"#)
        }
        let pretty = items.map { item -> String in
            // Each member on its own line, as json.dump(indent=2) writes it.
            var out = "  {\n    "
            var depth = 0, inString = false, escaped = false
            for ch in item.dropFirst().dropLast() {
                if inString {
                    out.append(ch)
                    if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                    continue
                }
                switch ch {
                case "\"": inString = true; out.append(ch)
                case "[", "{": depth += 1; out.append(ch)
                case "]", "}": depth -= 1; out.append(ch)
                case ",": out += depth == 0 ? ",\n    " : ", "
                case ":": out += depth == 0 ? ": " : ":"
                default: out.append(ch)
                }
            }
            return out + "\n  }"
        }
        let prefix: String, separator: String, suffix: String, parts: [String]
        switch shape {
        case "spaced": (prefix, separator, suffix, parts) = ("[ ", " ,\t", " ]\t\n", items)
        case "pretty": (prefix, separator, suffix, parts) = ("[\n", ",\n", "\n]\n", pretty)
        case "lines": (prefix, separator, suffix, parts) = ("", "\n", "\n", items)
        case "bom": (prefix, separator, suffix, parts) = ("\u{FEFF}[", ",", "]", items)
        default: (prefix, separator, suffix, parts) = ("[", ",", "]", items)
        }
        var bytes = Array(prefix.utf8)
        var starts: Set<Int> = []
        for (k, part) in parts.enumerated() {
            if k > 0 { bytes += Array(separator.utf8) }
            let brace = Array(part.utf8).firstIndex(of: UInt8(ascii: "{"))!
            starts.insert(bytes.count + brace)
            bytes += Array(part.utf8)
        }
        bytes += Array(suffix.utf8)
        return (bytes, starts)
    }

    @Test(arguments: ["compact", "spaced", "pretty", "lines", "nested", "bom"])
    func everyCutGivesTheTableOfOnePiece(shape: String) throws {
        let (file, fileStarts) = shaped(shape, records: 40)
        let path = try temporaryFile("cuts-\(shape).json", file)
        // A file source's offsets count from after a byte-order mark.
        let bom = shape == "bom" ? 3 : 0
        let bytes = Array(file.dropFirst(bom))
        let starts = Set(fileStarts.map { $0 - bom })
        let zone = ZoneRules.utc
        let whole = try JSONRecordLoader.load(path: path, name: "t", zone: zone, parts: 1).table
        #expect(whole.rowCount == 40)
        let source = try FileSource(path: path)
        let layout: JSONRecordLoader.Layout = shape == "lines" ? .lines : .array
        let first = starts.min()!
        var cuts: Set<Int> = []
        for offset in (first + 1)..<bytes.count {
            guard let cut = try jsonCut(source, from: offset, layout: layout) else { continue }
            #expect(cut >= offset)
            // Past the spaces at the cut, a record starts (a nested array's objects may be
            // taken for records; the reader finds that out).
            var k = cut
            while k < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[k]) { k += 1 }
            if shape != "nested" { #expect(starts.contains(k), "\(shape): cut at \(cut) for offset \(offset)") }
            cuts.insert(cut)
        }
        // Every record but the first can be a part's start, and no other place is.
        if shape != "nested" { #expect(cuts.count == 39, "\(shape): \(cuts.count) places to cut") }
        for cut in cuts.sorted() {
            let t = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: 97, parts: 2, cuts: [cut]).table
            #expect(difference(whole, t) == nil, "\(shape): cut at \(cut)")
        }
        // Three parts at once, cut at neighbouring records.
        let sorted = cuts.sorted()
        for i in stride(from: 0, to: sorted.count - 1, by: 5) {
            let t = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: 1 << 20, parts: 3, cuts: [sorted[i], sorted[i + 1]]).table
            #expect(difference(whole, t) == nil, "\(shape): cuts at \(sorted[i]), \(sorted[i + 1])")
        }
    }
}
