import Foundation

/// A session written down: headings, prose, and each command with what it gave, in the
/// order they happened. `utq notebook` makes one from a script; `:record` keeps one as a
/// session goes. Renderers (Markdown, HTML) turn it into a page.
public struct Notebook: Sendable {
    public var title: String
    /// The script it was made from, as the user named it; nil for a recording.
    public var source: String?
    public var entries: [NotebookEntry] = []

    public init(title: String, source: String? = nil) {
        self.title = title
        self.source = source
    }

    public var commandCount: Int { entries.reduce(0) { n, e in if case .cell = e { return n + 1 } else { return n } } }
    public var errorCount: Int { entries.reduce(0) { n, e in if case .cell(let c) = e, c.error != nil { return n + 1 } else { return n } } }

    /// A title for a script's notebook: the heading it starts with (a lesson's name), else
    /// the file's name.
    public static func title(of blocks: [ScriptBlock], name: String) -> String {
        if case .heading(_, let text) = blocks.first { return text }
        return (name as NSString).lastPathComponent
    }
}

public enum NotebookEntry: Sendable {
    case heading(level: Int, text: String)
    /// A paragraph as the author wrote it (Markdown is passed through).
    case prose(String)
    case cell(NotebookCell)
    /// An exercise's hint, folded so that it is opened only when wanted.
    case hint(number: Int, text: String)
    /// A code cell left for the reader to fill in and run (a handout's `check N` cell).
    case blank(String)
}

/// One command and what it gave.
public struct NotebookCell: Sendable {
    public let command: String
    public let outputs: [Output]
    public let error: Diagnostic?
    /// The settings in force after the command, which its outputs are drawn with (no colour:
    /// a page is read elsewhere).
    public let settings: Settings

    public init(command: String, outputs: [Output], error: Diagnostic?, settings: Settings) {
        var plain = settings
        plain.render.color = false
        // A page is kept and passed on: no secret goes in.
        self.command = SecretText.masked(command)
        self.error = error
        self.settings = plain
        // A chart printed at a terminal was drawn in colour: draw it again for the page.
        self.outputs = outputs.map { output in
            guard case .chart(let c) = output, settings.render.color else { return output }
            return .chart(ChartOutput(chart: c.chart, text: c.chart.text(plain.render), number: c.number, rows: c.rows))
        }
    }
}

/// The kinds of page a notebook is written as.
public enum NotebookFormat: String, Sendable, CaseIterable {
    case markdown, html, ipynb

    /// The format a file name asks for: `.md`, `.html` or `.ipynb`.
    public static func forFile(_ path: String) -> NotebookFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".ipynb") { return .ipynb }
        if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") { return .markdown }
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm") { return .html }
        return nil
    }

    public func render(_ notebook: Notebook) -> String {
        page(notebook, notebook.entries.map(entry))
    }

    /// A whole page from entries already drawn (a recording keeps them).
    func page(_ notebook: Notebook, _ drawn: [String]) -> String {
        let top = head(notebook)
        switch self {
        case .ipynb: return top.replacingOccurrences(of: IpynbNotebook.idMark, with: "title") + IpynbNotebook.joined(drawn) + tail(notebook)
        default: return top + drawn.joined() + tail(notebook)
        }
    }

    /// The parts of a page, so a recording can keep the entries it has drawn and only add.
    func head(_ notebook: Notebook) -> String {
        switch self {
        case .markdown: return MarkdownNotebook.head(notebook)
        case .html: return HTMLNotebook.head(notebook)
        case .ipynb: return IpynbNotebook.head(notebook)
        }
    }

    func entry(_ entry: NotebookEntry) -> String {
        switch self {
        case .markdown: return MarkdownNotebook.entry(entry)
        case .html: return HTMLNotebook.entry(entry)
        case .ipynb: return IpynbNotebook.entry(entry)
        }
    }

    func tail(_ notebook: Notebook) -> String {
        switch self {
        case .markdown: return MarkdownNotebook.tail(notebook)
        case .html: return HTMLNotebook.tail(notebook)
        case .ipynb: return IpynbNotebook.tail(notebook)
        }
    }
}

extension Session {
    /// Runs a script as a notebook: every command, going on after errors, with its headings
    /// and prose. The session keeps its tables and results afterwards.
    /// `answers: false` makes a handout: exercises' answers are neither run nor shown.
    public func notebook(_ text: String, name: String, answers: Bool = true, checks: Bool = false) -> Notebook {
        let source = SourceText(name: name, text: text)
        var blocks = LiterateScript.blocks(in: source)
        notebook = Notebook(title: Notebook.title(of: blocks, name: name), source: name)
        defer { notebook = nil }
        // The heading a script starts with is its title: the page's one top-level heading.
        if case .heading(_, let text) = blocks.first { blocks[0] = .heading(level: 1, text: text) }
        // In a handout, what follows an answer up to the next heading explains it: left out too.
        var afterAnswer = false
        // A notebook to check exercises in opens the lesson first; each exercise then ends
        // with a cell for the answer, which `check N` grades.
        let exercises = checks ? Lesson(source).exercises.count : 0
        var opened = exercises == 0
        var exercise = 0
        var inExercise = false
        var hints = 0
        func closeExercise() {
            if inExercise && exercise <= exercises { note(.blank("check \(exercise)\n")) }
            inExercise = false
        }
        for block in blocks {
            switch block {
            case .heading(_, let text):
                afterAnswer = false
                closeExercise()
                if Lesson.isExercise(text) { exercise += 1; hints = 0; inExercise = true }
                remark(block)
                // Under the title: the lesson the check cells are graded against.
                if !opened { note(.blank(":lesson \(name)")); opened = true }
            case .command(let command):
                if !answers && afterAnswer { continue }
                if execute(command).quit { return notebook! }
            case .answer(let command):
                afterAnswer = true
                if answers, execute(command).quit { return notebook! }
            case .wrong, .alternative, .rule:
                continue
            case .hint(let text):
                // Folded: a hint is read when wanted, and the last is nearly the answer.
                hints += 1
                note(.hint(number: hints, text: text))
            case .prose:
                if !answers && afterAnswer { continue }
                remark(block)
            }
        }
        closeExercise()
        return notebook!
    }

    /// Writes a heading or prose into the notebook being made or recorded, if any.
    public func remark(_ block: ScriptBlock) {
        let entry: NotebookEntry
        switch block {
        case .heading(let level, let text): entry = .heading(level: level, text: text)
        case .prose(let text): entry = .prose(text)
        case .hint(let text): entry = .prose("Hint: " + text)
        case .command, .answer, .wrong, .alternative, .rule: return
        }
        note(entry)
    }

    /// Adds an entry to the notebook being made and to the recording.
    func note(_ entry: NotebookEntry) {
        notebook?.entries.append(entry)
        guard let recording else { return }
        do {
            try recording.add(entry)
        } catch {
            // The file cannot be written any more (its folder went away, the disk is full):
            // stop recording rather than fail every command from now on.
            self.recording = nil
            pendingWarnings.append("recording to \(recording.displayName) stopped: \(error)")
        }
    }
}
