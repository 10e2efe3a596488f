import Foundation

/// The kernel's protocol: one session answering requests of one JSON object per line, as
/// `utq kernel` serves them to the Jupyter kernel (jupyter/utq_kernel). The replies go to
/// `send`; the process that owns standard output writes them.
public struct KernelServer {
    public let session: Session
    /// Where each reply goes: one JSON object, written as one line by `utq kernel`.
    public let send: ([String: Any]) -> Void

    public init(session: Session, send: @escaping ([String: Any]) -> Void) {
        self.session = session
        self.send = send
    }

    public func handle(_ line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)),
              let request = object as? [String: Any] else {
            send(["error": "not a JSON object: \(SecretText.masked(String(line.prefix(80))))"])
            return
        }
        let id = request["id"] ?? NSNull()
        let code = request["code"] as? String ?? ""
        let cursor = request["cursor_pos"] as? Int ?? code.unicodeScalars.count
        switch request["op"] as? String {
        case "execute": execute(code, id: id)
        case "complete": send(complete(code, cursor: cursor).merging(["id": id]) { a, _ in a })
        case "inspect": send(inspect(code, cursor: cursor).merging(["id": id]) { a, _ in a })
        case "is_complete": send(KernelServer.isComplete(code).merging(["id": id]) { a, _ in a })
        default: send(["id": id, "error": "unknown op \(request["op"].map { "\($0)" } ?? "(none)")"])
        }
    }

    func execute(_ code: String, id: Any) {
        var cancelled = false
        let errors = session.runCell(code, name: "<cell>") { _, outcome in
            if outcome.cancelled { cancelled = true }
            for output in JupyterOutputs.of(outcome.outputs, error: outcome.error, settings: session.settings) {
                send(["id": id, "output": output])
            }
        }
        send(["id": id, "done": true, "status": errors.isEmpty ? "ok" : "error", "cancelled": cancelled])
    }

    /// The word under the cursor on its line, completed as at the prompt.
    func complete(_ code: String, cursor: Int) -> [String: Any] {
        let (line, lineStart, column) = KernelServer.line(of: code, at: cursor)
        let scalars = Array(line.unicodeScalars)
        let byteCursor = String(String.UnicodeScalarView(scalars[..<column])).utf8.count
        let completion = session.complete(line, cursor: byteCursor)
        // The completion's start is a byte offset in the line: back to code points.
        let startScalar = String(decoding: Array(line.utf8)[..<min(completion.start, line.utf8.count)], as: UTF8.self).unicodeScalars.count
        return ["status": "ok", "matches": completion.candidates,
                "cursor_start": lineStart + startScalar, "cursor_end": lineStart + column]
    }

    /// `help` for the word at the cursor.
    func inspect(_ code: String, cursor: Int) -> [String: Any] {
        let (line, _, column) = KernelServer.line(of: code, at: cursor)
        let scalars = Array(line.unicodeScalars)
        func isWord(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || s == "_" || ("0"..."9").contains(s) }
        var a = column, b = column
        while a > 0 && isWord(scalars[a - 1]) { a -= 1 }
        while b < scalars.count && isWord(scalars[b]) { b += 1 }
        // No topic's name is long: a word of thousands of letters has no help.
        guard b - a <= 100 else { return ["status": "ok", "found": false] }
        let word = String(String.UnicodeScalarView(scalars[a..<b]))
        guard !word.isEmpty, let text = try? Help.text(for: word) else { return ["status": "ok", "found": false] }
        return ["status": "ok", "found": true, "data": ["text/plain": text]]
    }

    /// A cell goes on after a trailing `|` or an open quote.
    static func isComplete(_ code: String) -> [String: Any] {
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        let lastLine = trimmed.split(separator: "\n").last.map(String.init) ?? ""
        let quotes = lastLine.filter { $0 == "\"" }.count
        if trimmed.hasSuffix("|") || quotes % 2 == 1 { return ["status": "incomplete", "indent": "  "] }
        return ["status": "complete"]
    }

    /// The line holding the cursor (a code-point offset in the code): its text, where it
    /// starts and the cursor's column, both in code points.
    static func line(of code: String, at cursor: Int) -> (String, Int, Int) {
        let scalars = Array(code.unicodeScalars)
        let at = max(0, min(cursor, scalars.count))
        var start = at
        while start > 0 && scalars[start - 1] != "\n" { start -= 1 }
        var end = at
        while end < scalars.count && scalars[end] != "\n" { end += 1 }
        return (String(String.UnicodeScalarView(scalars[start..<end])), start, at - start)
    }
}
