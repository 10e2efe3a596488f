import ArgumentParser
import Foundation
import UTQCore

/// `utq lesson FILE` works through a lesson; `utq lesson check FILE`: every exercise's answer
/// runs, and every wrong answer (`#x`) is rejected, on the lesson's data and on altered
/// copies; exit status 1 names what failed; `utq lesson report` makes a gradebook.
struct LessonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson",
        abstract: "Lessons with exercises (## Exercise, #> answer, #? hint, #x wrong answer): utq lesson FILE works through one.",
        subcommands: [LessonStart.self, Check.self, Report.self],
        defaultSubcommand: LessonStart.self)

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Run every answer of a lesson and check that every #x is rejected; exit 1 naming the exercise otherwise.",
            discussion: """
            An answer is right for a pipeline when their results are equal (same rows and values;
            order only when the answer sorts) on the lesson's data and on copies of it with rows
            shuffled, a sample left out and numbers changed, so a #x must differ from the answer
            on at least one of them.
            Example:
              utq lesson check examples/lessons/01-counting.utq
            """)

        @Argument(help: "The lessons (.utq) to check.", completion: .file(extensions: ["utq"]))
        var lessons: [String]

        func run() throws {
            var failed = false
            for path in lessons {
                guard let text = ScriptInput.read(path) else { throw ExitCode(1) }
                let lesson = Lesson(SourceText(name: path, text: text))
                let dir = FileManager.default.currentDirectoryPath
                let grader = LessonGrader(lesson: lesson, workingDirectory: dir, zone: .local)
                let problems = grader.check()
                if !grader.unwrittenFiles.isEmpty {
                    Terminal.out("\(path): note: checking a lesson writes no files; its commands ran without writing \(grader.unwrittenFiles.joined(separator: ", "))\n")
                }
                if lesson.exercises.isEmpty {
                    Terminal.err("\(path): no exercises (## Exercise headings with #> answers)\n")
                    failed = true
                }
                for p in problems { Terminal.err(p + "\n") }
                if problems.isEmpty && !lesson.exercises.isEmpty {
                    let wrong = lesson.exercises.reduce(0) { $0 + $1.wrong.count }
                    Terminal.out("\(path): \(NumberText.counted(lesson.exercises.count, "exercise")) checked; \(NumberText.counted(wrong, "wrong answer")) rejected\n")
                }
                failed = failed || !problems.isEmpty
            }
            if failed { throw ExitCode(1) }
        }
    }
}
