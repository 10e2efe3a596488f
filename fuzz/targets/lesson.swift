import Foundation
@testable import UTQCore

/// Lesson files: the input as a lesson is read into exercises, checked as `utq lesson check`
/// checks it (every answer run, the wrong ones and the altered data), and taught as
/// `utq lesson` teaches it: each exercise answered with hints asked, a wrong answer, a skip
/// and a step back. The sessions read files in the repository and write nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLesson(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard Fuzz.staysInTheRepository(text) else { return -1 }
    let lesson = Lesson(SourceText(name: "fuzz.utq", text: text))
    // A lesson of very many exercises takes long to check whole.
    guard lesson.exercises.count <= 16 else { return -1 }
    for k in lesson.exercises.indices { _ = lesson.describe(k) }

    let grader = LessonGrader(lesson: lesson, workingDirectory: Fuzz.root, zone: .utc)
    for problem in grader.check() { _ = problem.count }

    let session = Session(workingDirectory: Fuzz.root, defaultZone: .utc)
    session.settings.render = Fuzz.options
    session.files.unwritten = UnwrittenFiles(reason: "fuzzing writes no files")
    let tutor = LessonTutor(lesson: lesson, session: session, progress: nil)
    var outputs = tutor.start()
    for exercise in lesson.exercises.prefix(3) {
        for line in ["hint", "?"] + exercise.wrong.prefix(1).flatMap { $0.map(\.text) } + ["back", "skip", "back"] + exercise.answer.map(\.text) {
            outputs += tutor.handle(line)
            if tutor.finished { break }
        }
    }
    outputs += tutor.handle("quit")
    for output in outputs { _ = OutputText.text(output, settings: session.settings) }
    return 0
}
