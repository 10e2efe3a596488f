import ArgumentParser
import Foundation
import UTQCore

extension LessonCommand {
    /// `utq lesson report RECORDS… [-o gradebook.csv|.html]`: a class's records as a gradebook.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "A gradebook of students' lesson records: a table here, or -o gradebook.csv or gradebook.html.",
            discussion: """
            Each run of utq lesson writes a record of the student's work
            (LESSON.MARK.STUDENT.TIME.record.json, beside the lesson's progress; the
            lesson says where at its end). Collect them in a folder: report reads
            folders through and record files, one row per student and exercise with
            the student's best mark over their runs. A lesson (.utq) given too is the
            version graded, and records of another version are left out, each named;
            without one, the newest version among the records is graded. Exit status 1
            when no record could be read.
            Examples:
              utq lesson report class/
              utq lesson report class/ examples/lessons/01-counting.utq -o gradebook.html
              utq lesson report class/*.record.json -o gradebook.csv
            """)

        @Argument(help: "Folders of records, record files (.record.json), and the lessons (.utq) to grade against.",
                  completion: .file())
        var paths: [String]

        @Option(name: .shortAndLong, help: "Where to write: a .csv or .html file. Without it, a table goes to standard output.")
        var output: String?

        @Flag(name: .long, help: "Replace the output file if it exists.")
        var force = false

        func validate() throws {
            if let output, !(output.hasSuffix(".csv") || output.hasSuffix(".html") || output.hasSuffix(".htm")) {
                throw ValidationError("cannot tell the kind of gradebook from \"\(output)\": end it with .csv or .html")
            }
        }

        func run() throws {
            let book = Gradebook(paths: paths)
            for p in book.problems { Terminal.err("utq: " + TextWidth.printableLines(p) + "\n") }
            guard !book.rows.isEmpty else {
                Terminal.err("utq: no record could be read; records are the .record.json files utq lesson writes\n")
                throw ExitCode(1)
            }
            guard let output else {
                Terminal.out(book.text())
                return
            }
            let page = output.hasSuffix(".csv") ? book.csv() : book.html()
            do {
                try AtomicFile.write(Array(page.utf8), to: output, replace: force)
            } catch let e as AtomicFile.Failure {
                Terminal.err("utq: " + e.message(output) + (e.exists ? "; add --force to replace it" : "") + "\n")
                throw ExitCode(1)
            }
            let students = Set(book.rows.map(\.student)).count
            Terminal.err("wrote \(output): \(NumberText.counted(students, "student")), \(NumberText.counted(book.lessons.count, "lesson")), "
                         + "\(NumberText.counted(book.rows.count, "row")) from \(NumberText.counted(book.recordsRead, "record"))\n")
        }
    }
}
