import Foundation

/// A path with wildcards, as `load "days/*.csv"` takes it: `*` any run of characters, `?` one
/// character, `[abc]` / `[a-z]` / `[!abc]` one of (or none of) a set, all within one name of
/// the path; `**` as a whole name is any number of folders, none included. A name starting
/// with a dot is matched only by a pattern that starts with one (as the shell does). The files
/// come in the order of their paths.
struct FilePattern {
    /// The pattern as written.
    let text: String
    /// The folder the pattern starts from: its names before the first with a wildcard.
    let folder: String
    /// The names after it, each a pattern.
    let names: [String]

    /// Whether a path has wildcards at all.
    static func isPattern(_ path: String) -> Bool {
        path.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    init(_ text: String) {
        self.text = text
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let fixed = parts.firstIndex(where: FilePattern.isPattern) ?? parts.count - 1
        var folder = parts[..<fixed].joined(separator: "/")
        if folder.isEmpty && text.hasPrefix("/") { folder = "/" }
        self.folder = folder
        names = Array(parts[fixed...])
    }

    /// The files matching, as paths relative to `folder` (which `base` is the place of), in
    /// order. Folders are matched too (a later check says what they are).
    func matches(in base: String) -> [String] {
        var out: [String] = []
        walk(base, relative: "", names[...], into: &out)
        return Array(Set(out)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func walk(_ dir: String, relative: String, _ rest: ArraySlice<String>, into out: inout [String]) {
        guard let name = rest.first else { return }
        let more = rest.dropFirst()
        func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }
        if name == "**" {
            // None, or one folder more and `**` again.
            if more.isEmpty { return }
            walk(dir, relative: relative, more, into: &out)
            for entry in entries(dir) where !entry.hasPrefix(".") && isFolder(dir + "/" + entry) {
                walk(dir + "/" + entry, relative: join(relative, entry), rest, into: &out)
            }
            return
        }
        let candidates: [String]
        if FilePattern.isPattern(name) {
            candidates = entries(dir).filter { FilePattern.match(name, $0) }
        } else {
            candidates = FileManager.default.fileExists(atPath: dir + "/" + name) ? [name] : []
        }
        for entry in candidates {
            let path = dir + "/" + entry
            if more.isEmpty {
                out.append(join(relative, entry))
            } else if isFolder(path) {
                walk(path, relative: join(relative, entry), more, into: &out)
            }
        }
    }

    private func entries(_ dir: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.isEmpty ? "." : dir)) ?? []
    }

    private func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether `name` matches the pattern of one name.
    static func match(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern.unicodeScalars), s = Array(name.unicodeScalars)
        // A hidden name is matched only by a pattern that starts with a dot.
        if s.first == "." && p.first != "." { return false }
        // Backtracking over the last `*` only: linear in practice, and never exponential.
        var i = 0, j = 0
        var star: Int? = nil, resume = 0
        while j < s.count {
            if i < p.count, p[i] == "*" {
                star = i; resume = j; i += 1
                continue
            }
            if i < p.count, let next = step(p, i, s[j]) {
                i = next; j += 1
                continue
            }
            guard let st = star else { return false }
            i = st + 1
            resume += 1
            j = resume
        }
        while i < p.count && p[i] == "*" { i += 1 }
        return i == p.count
    }

    /// Where the pattern goes on if its element at `i` matches `c`, else nil.
    private static func step(_ p: [Unicode.Scalar], _ i: Int, _ c: Unicode.Scalar) -> Int? {
        switch p[i] {
        case "?": return i + 1
        case "\\" where i + 1 < p.count: return p[i + 1] == c ? i + 2 : nil
        case "[":
            var k = i + 1
            let negated = k < p.count && (p[k] == "!" || p[k] == "^")
            if negated { k += 1 }
            var found = false
            var first = true
            while k < p.count && (first || p[k] != "]") {
                first = false
                if k + 2 < p.count && p[k + 1] == "-" && p[k + 2] != "]" {
                    if p[k].value <= c.value && c.value <= p[k + 2].value { found = true }
                    k += 3
                } else {
                    if p[k] == c { found = true }
                    k += 1
                }
            }
            // No closing bracket: the `[` is itself.
            guard k < p.count else { return c == "[" ? i + 1 : nil }
            return found != negated ? k + 1 : nil
        default: return p[i] == c ? i + 1 : nil
        }
    }
}
