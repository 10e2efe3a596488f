import Foundation

/// The SQL explain shows, laid out for reading: each SELECT's clauses on lines of their own,
/// a subquery indented under the clause that holds it. Only the layout changes (spaces
/// become line breaks); quoted names and literals are left as they are.
enum SQLLayout {
    static let clauses = ["FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "LEFT JOIN", "JOIN", "ON", "UNION ALL"]

    static func layout(_ sql: String, indent: String = "  ") -> String {
        let chars = Array(sql)
        var out = ""
        // For each open parenthesis, whether it opened a subquery (its clauses break lines).
        var opened: [Bool] = []
        var depth = 0  // subqueries open
        var quote: Character? = nil
        var i = 0
        func newline() { out += "\n" + String(repeating: indent, count: depth) }
        func startsClause(at k: Int) -> String? {
            for c in clauses {
                let n = c.count
                guard k + n < chars.count, String(chars[k..<(k + n)]) == c, chars[k + n] == " " else { continue }
                // JOIN after LEFT is LEFT JOIN's, already broken.
                if c == "JOIN", out.hasSuffix("LEFT ") { continue }
                return c
            }
            return nil
        }
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                out.append(c)
                if c == q { quote = nil }
                i += 1
                continue
            }
            switch c {
            case "'", "\"":
                quote = c
                out.append(c)
            case "(":
                let sub = String(chars[(i + 1)..<min(chars.count, i + 7)]) == "SELECT"
                opened.append(sub)
                out.append(c)
                if sub { depth += 1; newline() }
            case ")":
                if opened.popLast() == true { depth -= 1; newline() }
                out.append(c)
            case " " where (opened.last ?? true) && startsClause(at: i + 1) != nil:
                newline()
            default:
                out.append(c)
            }
            i += 1
        }
        return out
    }
}
