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
        for o in tutor.start() { printer.print(o) }
        let editor = Terminal.stdinIsTTY ? LineEditor(historyFile: nil, complete: { [session] line in session.complete(line) }) : nil
        while !tutor.finished {
            let line: String
            if let editor {
                switch editor.readLine(prompt: "lesson> ") {
                case .line(let l): line = l; editor.add(l)
                case .interrupted: interruptFlag.reset(); Terminal.out("^C\n"); continue
                case .end: line = "quit"
                }
            } else {
                guard let l = readLine() else { for o in tutor.handle("quit") { printer.print(o) }; break }
                line = l
            }
            for o in tutor.handle(line) { printer.print(o) }
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
