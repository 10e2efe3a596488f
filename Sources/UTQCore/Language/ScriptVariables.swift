/// Values given to a script from outside (`utq --set city=Prishtina lesson.utq`), written in
/// it as `${city}`. One lesson then serves several towns, files or thresholds. `$${` stands
/// for a literal `${`. The text is replaced before the script is read, everywhere (commands,
/// quoted text, comments and so headings), so a line keeps its number for messages.
public enum ScriptVariables {
    /// Reads `NAME=VALUE` as given to `--set`.
    public static func assignment(_ text: String) throws -> (name: String, value: String) {
        guard let eq = text.firstIndex(of: "=") else {
            throw Diagnostic("--set needs NAME=VALUE, as in --set city=Prishtina; found \"\(text)\"")
        }
        let name = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: eq)...])
        guard isName(name) else {
            throw Diagnostic("\"\(name)\" cannot be a name for --set", hint: "a name is letters, digits and _, starting with a letter or _")
        }
        guard !value.contains("\n") && !value.contains("\r") else {
            throw Diagnostic("the value of \(name) is more than one line", hint: "a --set value stays on one line, so the script's lines keep their numbers")
        }
        return (name, value)
    }

    /// The text with every `${NAME}` replaced by its value and `$${` by `${`, and the names
    /// that were used. An unknown or malformed `${…}` is an error pointing at it.
    public static func substitute(_ text: String, values: [String: String], name: String) throws -> (text: String, used: Set<String>) {
        guard text.contains("${") else { return (text, []) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var used = Set<String>()
        var i = 0
        func fail(_ message: String, _ start: Int, _ end: Int, hint: String?) -> Diagnostic {
            var d = Diagnostic(message, at: SourceSpan(start, end), hint: hint)
            d.source = SourceText(name: name, text: text)
            return d
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x24, i + 2 < bytes.count, bytes[i + 1] == 0x24, bytes[i + 2] == 0x7B {  // $${ is a literal ${
                out += [0x24, 0x7B]
                i += 3
                continue
            }
            guard b == 0x24, i + 1 < bytes.count, bytes[i + 1] == 0x7B else {
                out.append(b)
                i += 1
                continue
            }
            var j = i + 2
            while j < bytes.count, bytes[j] != 0x7D, bytes[j] != 0x0A { j += 1 }
            guard j < bytes.count, bytes[j] == 0x7D else {
                throw fail("${ is not closed", i, j, hint: "write ${name} with a closing }, or $${ for the characters ${ themselves")
            }
            let key = String(decoding: bytes[(i + 2)..<j], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard isName(key) else {
                throw fail("\"${\(key)}\" is not a name to replace", i, j + 1,
                           hint: "a name is letters, digits and _, as in ${city}; write $${ for the characters ${ themselves")
            }
            guard let value = values[key] else {
                let guess = Suggest.didYouMean(key, among: Array(values.keys))
                let given = values.isEmpty ? "no values were given" : "given: " + values.keys.sorted().joined(separator: ", ")
                throw fail("no value for ${\(key)}" + guess + " (\(given))", i, j + 1,
                           hint: "run it with --set \(key)=VALUE, or write $${\(key)} for the text ${\(key)} itself")
            }
            used.insert(key)
            out += Array(value.utf8)
            i = j + 1
        }
        return (String(decoding: out, as: UTF8.self), used)
    }

    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}

import Foundation
