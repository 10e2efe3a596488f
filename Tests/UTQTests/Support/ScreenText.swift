/// What a terminal shows after a program's output: the lines left on screen once cursor
/// moves and erasures (ESC[nA, ESC[2K, ESC[K, ESC[J, carriage returns) have done their work.
/// Enough of a terminal to see what a person would see; colours and modes are ignored.
enum ScreenText {
    static func render(_ raw: String) -> [String] {
        var lines: [[Character]] = [[]]
        var row = 0, col = 0
        var chars = Array(raw)
        chars.append(" ")
        var i = 0
        func put(_ c: Character) {
            while lines.count <= row { lines.append([]) }
            while lines[row].count < col { lines[row].append(" ") }
            if col < lines[row].count { lines[row][col] = c } else { lines[row].append(c) }
            col += 1
        }
        while i < chars.count - 1 {
            let c = chars[i]
            if c == "\u{1B}", chars[i + 1] == "[" {
                var j = i + 2, digits = ""
                while j < chars.count, chars[j].isNumber || chars[j] == ";" || chars[j] == "?" { digits.append(chars[j]); j += 1 }
                let final = chars[min(j, chars.count - 1)]
                let n = Int(digits) ?? 1
                switch final {
                case "A": row = max(0, row - n)
                case "K":
                    if row < lines.count {
                        if digits == "2" { lines[row] = [] } else if col < lines[row].count { lines[row].removeSubrange(col...) }
                    }
                case "J":
                    if row < lines.count {
                        if col < lines[row].count { lines[row].removeSubrange(col...) }
                        if row + 1 < lines.count { lines.removeSubrange((row + 1)...) }
                    }
                default: break
                }
                i = j + 1
                continue
            }
            if c == "\u{1B}" { i += 2; continue }
            switch c {
            case "\r": col = 0
            case "\n", "\r\n": row += 1; col = 0; while lines.count <= row { lines.append([]) }
            case "\u{7}", "\u{8}": if c == "\u{8}" { col = max(0, col - 1) }
            default: put(c)
            }
            i += 1
        }
        return lines.map { String($0) }
    }
}
