import ArgumentParser
import Foundation
import UTQCore
import UTQPostgres

/// `utq notebook lesson.utq -o lesson.html`: runs a script and writes what it did as a page,
/// Markdown or HTML by the file's name, going on after errors so the page shows them where
/// they happened. The exit status says whether there were any.
struct NotebookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notebook",
        abstract: "Run a script and write a notebook of it: Markdown (.md), a self-contained HTML page (.html) or a Jupyter notebook (.ipynb).",
        discussion: """
        Each command appears with its output; ## comment lines become headings and the # lines
        after them paragraphs, so a lesson is one literate .utq file. Errors are shown where they
        happened and the script goes on; the exit status is 1 when there were any.
        Examples:
          utq notebook examples/lessons/01-counting.utq -o counting.md
          utq notebook lesson.utq --set city=Prishtina -o prishtina.html
          utq notebook lesson.utq --no-answers -o handout.html
          utq notebook examples/lessons/01-counting.utq --no-answers -o counting.ipynb
        A Jupyter handout (--no-answers, .ipynb) opens the lesson in its first cell (:lesson
        FILE) and leaves a cell under each exercise that starts with check N: the student
        writes a pipeline under that line, and running the cell grades it as utq lesson does.
        Hints are folded in every handout.
        """)

    @Argument(help: "The script (.utq) to run.", completion: .file(extensions: ["utq"]))
    var script: String

    @Option(name: .shortAndLong, help: "Where to write: a .md, .html or .ipynb file. Without it, Markdown goes to standard output.")
    var output: String?

    @Flag(name: .long, help: "Replace the output file if it exists.")
    var force = false

    @Flag(name: .customLong("no-answers"), help: "A handout: exercises keep their questions and (folded) hints, without their answers or what follows them; an .ipynb handout has a check cell under each.")
    var noAnswers = false

    @OptionGroup var variables: VariableOptions

    @OptionGroup var size: WidthOption

    func validate() throws {
        if let output, NotebookFormat.forFile(output) == nil {
            throw ValidationError("cannot tell the kind of notebook from \"\(output)\": end it with .md, .html or .ipynb")
        }
    }

    func run() throws {
        let input = ScriptInput(values: try variables.values())
        guard let raw = ScriptInput.read(script) else { throw ExitCode(1) }
        guard let text = input.prepare(raw, name: script) else { throw ExitCode(1) }
        input.warnUnused()
        if let output, sameFile(output, script) {
            Terminal.err("utq: \(output) is the script itself; choose another file for the notebook\n")
            throw ExitCode(1)
        }
        // A page is read elsewhere, later: a fixed width, no colour, no terminal.
        let session = Session()
        session.databaseConnector = PostgresConnector()
        MemoryTuning.follow(session)
        session.settings.render = RenderOptions(width: size.width, height: 24, maxRows: 40, charset: .unicode, color: false)
        let format = output.flatMap(NotebookFormat.forFile) ?? .markdown
        // A Jupyter handout is worked in: a cell under each exercise, checked by the kernel.
        let notebook = session.notebook(text, name: script, answers: !noAnswers, checks: noAnswers && format == .ipynb)
        let page = format.render(notebook)
        if let output {
            do {
                try AtomicFile.write(Array(page.utf8), to: output, replace: force)
            } catch let e as AtomicFile.Failure {
                Terminal.err("utq: " + e.message(output) + (e.exists ? "; add --force to replace it" : "") + "\n")
                throw ExitCode(1)
            }
            let errors = notebook.errorCount
            Terminal.err("wrote \(output): \(notebook.commandCount) commands" + (errors == 0 ? "" : ", \(errors) with errors") + "\n")
        } else {
            Terminal.out(page)
        }
        if notebook.errorCount > 0 { throw ExitCode(1) }
    }

    func sameFile(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath() == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
    }
}
