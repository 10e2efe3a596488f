/// Text made safe for an HTML page, and the little Markdown that lesson prose uses:
/// paragraphs, `- ` lists, indented example lines, `code`, **bold** and *emphasis*.
/// Everything is escaped first, so no data and no prose can add markup of its own.
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab and line breaks have no place in a page
                // (nor in XML, which also refuses U+FFFE and U+FFFF).
                if u.value < 0x20 && u.value != 0x09 && u.value != 0x0A && u.value != 0x0D { out += "\u{FFFD}" }
                else if u.value == 0x7F || u.value == 0xFFFE || u.value == 0xFFFF { out += "\u{FFFD}" }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// A paragraph of prose as HTML blocks.
    static func prose(_ text: String) -> String {
        var out = ""
        var paragraph: [String] = []
        var list: [String] = []
        var listTag = "ul"
        var example: [String] = []
        func flush() {
            if !paragraph.isEmpty { out += "<p>" + inline(paragraph.joined(separator: " ")) + "</p>\n" }
            if !list.isEmpty { out += "<\(listTag)>\n" + list.map { "<li>" + inline($0) + "</li>\n" }.joined() + "</\(listTag)>\n" }
            if !example.isEmpty { out += "<pre class=\"example\">" + escape(example.joined(separator: "\n")) + "</pre>\n" }
            paragraph = []; list = []; example = []
        }
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("    ") || line.hasPrefix("\t") {
                if example.isEmpty { flush() }
                example.append(String(line.drop { $0 == " " || $0 == "\t" }))
            } else if let item = listItem(trimmed) {
                if list.isEmpty || listTag != item.tag { flush() }
                listTag = item.tag
                list.append(item.text)
            } else if !list.isEmpty && line.hasPrefix(" ") && !trimmed.isEmpty {
                list[list.count - 1] += " " + trimmed  // a list item that goes on over lines
            } else {
                if !example.isEmpty || !list.isEmpty { flush() }
                paragraph.append(trimmed)
            }
        }
        flush()
        return out
    }

    static func listItem(_ line: String) -> (tag: String, text: String)? {
        if line.hasPrefix("- ") || line.hasPrefix("* ") { return ("ul", String(line.dropFirst(2))) }
        let digits = line.prefix { $0.isNumber }
        if !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(". ") {
            return ("ol", String(line.dropFirst(digits.count + 2)))
        }
        return nil
    }

    /// `code`, **bold** and *emphasis* inside a line; the rest escaped.
    static func inline(_ text: String) -> String {
        var out = ""
        let chars = Array(text)
        var i = 0
        func find(_ marker: [Character], from start: Int) -> Int? {
            var j = start
            while j + marker.count <= chars.count {
                if Array(chars[j..<(j + marker.count)]) == marker { return j }
                j += 1
            }
            return nil
        }
        while i < chars.count {
            let c = chars[i]
            if c == "`", let close = find(["`"], from: i + 1), close > i + 1 {
                out += "<code>" + escape(String(chars[(i + 1)..<close])) + "</code>"
                i = close + 1
                continue
            }
            if c == "*", i + 1 < chars.count, chars[i + 1] == "*", let close = find(["*", "*"], from: i + 2), close > i + 2 {
                out += "<strong>" + inline(String(chars[(i + 2)..<close])) + "</strong>"
                i = close + 2
                continue
            }
            // *emphasis*: the marks hug the words, so `x * 2` stays a multiplication.
            if c == "*", i + 1 < chars.count, chars[i + 1] != " ", chars[i + 1] != "*",
               let close = find(["*"], from: i + 1), chars[close - 1] != " " {
                out += "<em>" + inline(String(chars[(i + 1)..<close])) + "</em>"
                i = close + 1
                continue
            }
            out += escape(String(c))
            i += 1
        }
        return out
    }
}
