import Foundation

/// `:record FILE.md` (or `.html`): a notebook of the session from now on, written as it
/// happens. After each command the whole page is written again, atomically, so the file is
/// always a complete page a reader can open, even while the class goes on.
final class NotebookRecording: @unchecked Sendable {
    let path: String
    /// The file as the user wrote it, for messages.
    let displayName: String
    let format: NotebookFormat
    private(set) var notebook: Notebook
    /// Each entry as drawn once, so a long session is not drawn again at every command.
    private var drawn: [String] = []

    init(path: String, displayName: String, format: NotebookFormat, title: String, replace: Bool) throws {
        self.path = path
        self.displayName = displayName
        self.format = format
        notebook = Notebook(title: title)
        try write(replace: replace)
    }

    func add(_ entry: NotebookEntry) throws {
        notebook.entries.append(entry)
        drawn.append(format.entry(entry))
        try write(replace: true)
    }

    private func write(replace: Bool) throws {
        let page = format.page(notebook, drawn)
        try AtomicFile.write(Array(page.utf8), to: path, replace: replace)
    }
}

extension AtomicFile.Failure: CustomStringConvertible {
    public var description: String { reason }
}

extension Session {
    /// Runs `body` with the notebook being made or recorded left untouched: what a lesson
    /// runs for the student (an exercise's answer, after it was right or skipped) is no part
    /// of their notebook, which keeps only what they typed and the lesson showed.
    func unrecorded<T>(_ body: () -> T) -> T {
        let (kept, made) = (recording, notebook)
        recording = nil
        notebook = nil
        defer { recording = kept; notebook = made }
        return body()
    }

    /// `:record FILE`, `:record! FILE` (replaces the file), `:record off`, and `:record`
    /// alone, which says whether a recording is on.
    func record(_ argument: String?, replace: Bool, span: SourceSpan, into outcome: inout CommandOutcome) throws {
        outcome.keepOutOfNotebook = true
        let arg = argument?.trimmingCharacters(in: .whitespaces) ?? ""
        if arg.isEmpty {
            guard let recording else {
                throw Diagnostic(":record needs a file to write the session to", at: span,
                                 hint: "write :record notes.md (or notes.html); :record off stops")
            }
            outcome.outputs.append(.info("recording to \(recording.displayName) (\(recording.notebook.commandCount) commands so far); :record off stops"))
            return
        }
        if arg.lowercased() == "off" || arg.lowercased() == "stop" {
            guard let recording else {
                outcome.outputs.append(.info("not recording"))
                return
            }
            self.recording = nil
            outcome.outputs.append(.info("stopped recording: \(recording.notebook.commandCount) commands in \(recording.displayName)"))
            return
        }
        guard let format = NotebookFormat.forFile(arg) else {
            throw Diagnostic("cannot tell what kind of notebook \(arg) is from its name", at: span,
                             hint: "end it with .md (Markdown) or .html (a page for a browser)")
        }
        if let unwritten = files.unwritten {
            outcome.outputs.append(.info(unwritten.skip(arg)))
            return
        }
        let title = "utq session, " + Session.recordingDate()
        let started: NotebookRecording
        do {
            started = try NotebookRecording(path: files.destination(arg), displayName: arg, format: format, title: title, replace: replace || settings.replaceFiles)
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(arg), at: span, hint: e.exists ? "write :record! \(arg) to replace it" : nil)
        }
        if let previous = recording {
            outcome.outputs.append(.info("stopped recording to \(previous.displayName)"))
        }
        recording = started
        outcome.outputs.append(.info("recording to \(arg): each command and its output from now on; :record off stops"))
    }

    /// The local date and time a recording starts, for its title.
    static func recordingDate() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: Date())
    }
}
