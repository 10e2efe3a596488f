import CLineEdit
import Foundation
import UTQCore

/// Line editing over the system's libedit: emacs keys, history (Up/Down, Ctrl-R search)
/// kept in a file across sessions, and Tab completion from the session.
final class LineEditor {
    enum Read { case line(String), interrupted, end }

    let el: OpaquePointer
    let history: OpaquePointer
    let historyFile: String?
    let historyLimit: Int
    /// Returns the completion for the line so far.
    let complete: (String) -> Completion
    nonisolated(unsafe) static var current: LineEditor?
    private static let saving = NSLock()
    private(set) var prompt: String = "utq> "
    private var promptBuffer: UnsafeMutablePointer<CChar>?

    init(historyFile: String?, historyLimit: Int = 1000, complete: @escaping (String) -> Completion) {
        LineEditor.useUTF8()
        self.historyFile = historyFile
        self.historyLimit = historyLimit
        self.complete = complete
        // Streams of our own over the standard descriptors: the C globals stdin/stdout
        // are shared mutable state that strict concurrency does not allow.
        el = el_init("utq", fdopen(STDIN_FILENO, "r"), fdopen(STDOUT_FILENO, "w"), fdopen(STDERR_FILENO, "w"))
        history = history_init()
        utq_history_setsize(history, Int32(historyLimit))
        utq_history_setunique(history, 1)
        utq_el_set_history(el, history)
        utq_el_set_editor(el, "emacs")
        utq_el_set_prompt(el) { _ in LineEditor.current?.promptBuffer ?? nil }
        utq_el_add_function(el, "utq-complete", "Complete the word", { editLine, _ in
            guard let editLine, let editor = LineEditor.current else { return UInt8(CC_ERROR) }
            return editor.completeWord(editLine)
        })
        utq_el_bind(el, "^I", "utq-complete")
        // Ctrl-R searches history backwards, as in bash, with a prompt that says so
        // (libedit's own search shows only "bck:"); Ctrl-S searches forwards.
        utq_el_add_function(el, "utq-search-back", "Search the history backwards", { editLine, _ in
            guard let editLine, let editor = LineEditor.current else { return UInt8(CC_ERROR) }
            return editor.searchHistory(editLine, backwards: true)
        })
        utq_el_add_function(el, "utq-search-forward", "Search the history forwards", { editLine, _ in
            guard let editLine, let editor = LineEditor.current else { return UInt8(CC_ERROR) }
            return editor.searchHistory(editLine, backwards: false)
        })
        utq_el_bind(el, "^R", "utq-search-back")
        utq_el_bind(el, "^S", "utq-search-forward")
        // libedit restores the terminal and redraws the line when utq is stopped (Ctrl-Z)
        // and brought back (fg), and follows a resized window.
        utq_el_set_signal(el, 1)
        el_source(el, nil)  // the user's ~/.editrc, if any
        if let historyFile { _ = utq_history_load(history, historyFile) }
        LineEditor.current = self
        setPrompt("utq> ")
    }

    /// libedit reads and draws characters by the C library's LC_CTYPE, which a program has in
    /// the "C" locale until it asks for the user's: there `Zürich` would lose its ü and a
    /// prompt with one would crash it. The user's locale when it is UTF-8, else C.UTF-8 (utq
    /// reads and writes UTF-8 everywhere). Only character types: numbers are utq's own.
    static func useUTF8() {
        if setlocale(LC_CTYPE, "") != nil, let set = nl_langinfo(nl_item(CODESET)), String(cString: set) == "UTF-8" { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    deinit {
        el_end(el)
        history_end(history)
        promptBuffer?.deallocate()
    }

    func setPrompt(_ p: String) {
        prompt = p
        promptBuffer?.deallocate()
        let bytes = Array(p.utf8CString)
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        buf.initialize(from: bytes, count: bytes.count)
        promptBuffer = buf
    }

    func readLine(prompt p: String) -> Read {
        setPrompt(p)
        var count: Int32 = 0
        errno = 0
        guard let raw = el_gets(el, &count) else {
            if count == -1 && errno == EINTR { return .interrupted }
            if interruptFlag.isCancelled && count <= 0 { return .interrupted }
            return .end
        }
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    func add(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        _ = utq_history_enter(history, trimmed)
        // Up brings the line back as typed in this session; the file keeps no password.
        LineEditor.saving.lock()
        unsaved.append(SecretText.masked(trimmed))
        LineEditor.saving.unlock()
    }

    /// Lines typed in this session that are not in the file yet.
    private var unsaved: [String] = []

    /// Adds this session's new lines to the history file. The file is read again first, so
    /// lines another utq wrote meanwhile are kept (as shells merge theirs); the whole is
    /// written to a new temporary file, read back to check every line is there (a full disk
    /// cuts a file short without an error from libedit), synced, and only then renamed over
    /// the old file. libedit keeps the last `historyLimit` lines.
    func saveHistory() {
        guard let historyFile else { return }
        // The signal thread and the prompt may both save: one at a time.
        LineEditor.saving.lock()
        defer { LineEditor.saving.unlock() }
        guard !unsaved.isEmpty else { return }
        // Read again below: should something else have taken the file's place since the
        // session began (a pipe would make the read wait), the lines wait for the next save.
        guard HistoryFile.refusal(historyFile) == nil else { return }
        let merged = newHistory()
        defer { history_end(merged) }
        _ = utq_history_load(merged, historyFile)
        for line in unsaved { _ = utq_history_enter(merged, line) }
        let expected = utq_history_getsize(merged)
        struct ShortWrite: Error {}
        do {
            try AtomicFile.write(to: historyFile, replace: true, newFileMode: 0o600) { _, path in
                let check = newHistory()
                defer { history_end(check) }
                guard utq_history_save(merged, path) >= 0, utq_history_load(check, path) >= 0,
                      utq_history_getsize(check) == expected else { throw ShortWrite() }
            }
            unsaved.removeAll()
        } catch {
            // The old file stays as it was; the lines are tried again at the next save.
        }
    }

    private func newHistory() -> OpaquePointer {
        let h = history_init()!
        utq_history_setsize(h, Int32(historyLimit))
        utq_history_setunique(h, 1)
        return h
    }

    /// Tab: complete the word before the cursor, or list the choices (Completion.tabStep).
    private func completeWord(_ editLine: OpaquePointer) -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let length = info.cursor - info.buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        let completion = complete(before)
        // A Ctrl-C pressed while the completions were being found (no read to interrupt).
        if interruptFlag.isCancelled { return UInt8(CC_EOF) }
        let typed = String(decoding: Array(before.utf8)[min(completion.start, before.utf8.count)...], as: UTF8.self)
        switch completion.tabStep(typed: typed) {
        case .nothing:
            return UInt8(CC_REFRESH_BEEP)
        case .replace(let word):
            // libedit counts characters, not bytes.
            el_deletestr(editLine, Int32(typed.unicodeScalars.count))
            el_insertstr(editLine, word)
            return UInt8(CC_REFRESH)
        case .list:
            // Below the whole line (the cursor may be inside it), then the prompt and the
            // line drawn again under the list.
            moveBelowLine()
            Terminal.out(completion.listing(width: Terminal.width))
            redrawBelow()
            return UInt8(CC_NORM)
        }
    }
}
