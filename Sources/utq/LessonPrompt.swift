import ArgumentParser
import Foundation
import UTQCore

/// `utq lesson FILE`: the lesson's text, then each exercise at a `lesson>` prompt; what the
/// student types runs and is graded by its result. Progress is kept, so it resumes.
struct LessonStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Work through a lesson's exercises at a lesson> prompt (what utq lesson FILE does).",
        discussion: """
        Type a pipeline to answer; it runs, and is right when its result is the answer's (on
        the data and on altered copies of it). hint shows the next hint, skip goes on, back
        returns to the exercise before, quit stops: the next utq lesson FILE resumes there.
        A notebook of your session is kept next to the progress, and a record of
        the run for your teacher: each exercise's mark, the lines you typed, the
        hints and the time, never the answers (the paths are said at the end;
        utq lesson report makes a gradebook of a class's records).
        Examples:
          utq lesson examples/lessons/01-counting.utq
          utq lesson examples/lessons/01-counting.utq --student "Ana Berisha"
        """)

    @Argument(help: "The lesson (.utq).", completion: .file(extensions: ["utq"]))
    var lesson: String

    @Option(help: "The name on your record (else $UTQ_STUDENT, else your login name).")
    var student: String?

    func run() throws {
        guard let text = ScriptInput.read(lesson) else { throw ExitCode(1) }
        let parsed = Lesson(SourceText(name: lesson, text: text))
        for p in parsed.problems { Terminal.err("warning: " + p + "\n") }
        Signals.installInterruptHandler()
        let session = Session(cancel: interruptFlag)
        session.terminalSize = { (Terminal.width, Terminal.height) }
        session.followTerminal(settings: &session.settings)
        session.settings.render.color = Terminal.colorAllowed
        let folder = LessonProgress.folder()
        var progress = LessonProgress(lessonPath: lesson, text: text, folder: folder)
        progress.check()
        // A notebook of the student's own session, to read again or hand in.
        // Named after the lesson and the folder it is in: two courses' lessons of one file name
        // keep notebooks of their own.
        let recap = (folder as NSString).appendingPathComponent(LessonProgress.notebookName(lessonPath: lesson))
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        session.run(":record! \(recap)") { _, _ in }
        let recorder = LessonRecorder(lesson: parsed, lessonPath: lesson, text: text,
                                      student: LessonRecord.student(student), folder: folder)
        let tutor = LessonTutor(lesson: parsed, session: session, progress: progress, recorder: recorder)
        let printer = Printer(session: session, showLocation: false)
        let editor = Terminal.stdinIsTTY ? LineEditor(historyFile: nil, complete: { [session] line in session.complete(line) }) : nil
        let reader = editor.map { CommandReader(editor: $0, prompt: "lesson> ") }
        let pager = editor.map { SectionPager(editor: $0) }
        func show(_ outputs: [Output]) {
            // At a terminal the lesson's text comes a section at a time; in a pipe, all of it.
            let sections = LessonTutor.sections(outputs)
            for (k, section) in sections.enumerated() {
                for o in section { printer.print(o) }
                if k < sections.count - 1 { pager?.pause() }
            }
        }
        show(tutor.start())
        while !tutor.finished {
            let line: String
            if let reader {
                switch reader.read() {
                case .command(let l): line = l
                case .interrupted: continue
                case .end: line = "quit"
                }
            } else {
                guard let l = readLine() else { show(tutor.handle("quit")); break }
                line = l
            }
            show(tutor.handle(line))
            interruptFlag.reset()
        }
        session.run(":record off") { _, _ in }
        Terminal.err("a notebook of your session: \(recap)\n")
        if let failure = recorder.failure {
            Terminal.err("utq: the record of this run could not be written: \(failure)\n")
        } else if let path = recorder.path {
            Terminal.err("the record of this run, for your teacher: \(path)\n")
        }
    }
}

/// Between two sections of a lesson's text: Enter shows the next, Ctrl-C or q shows the rest
/// at once.
final class SectionPager {
    let editor: LineEditor
    private var rest = false

    init(editor: LineEditor) { self.editor = editor }

    func pause() {
        if rest { return }
        switch editor.readLine(prompt: "   (Enter: more, q: all the rest)  ") {
        case .line(let l) where l.trimmingCharacters(in: .whitespaces).lowercased() == "q":
            rest = true
        case .line:
            break
        case .interrupted:
            interruptFlag.reset()
            editor.moveBelowLine(suffix: "^C")
            rest = true
        case .end:
            Terminal.out("\n")
            rest = true
        }
    }
}
