import Foundation
import Testing

/// Checking a lesson runs its commands and answers on altered copies of its data: nothing
/// they would write reaches a file, and the check says which files it did not write.
@Suite struct CheckWritesNothingTests {
    @Test func lessonCheckWritesNoFileAndSaysSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-check-writes-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mine = "the student's own file\n"
        for name in ["counts.csv", "total.csv", "chart.txt", "notes.md", "session.utq"] {
            try mine.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
        }
        let lesson = dir + "/saving.utq"
        try """
        ## Saving
        load \(Repo.path("datasets/market.json"))
        count | save \(dir)/total.csv
        :record! \(dir)/notes.md

        ### Exercise 1
        # Count the entries by legend, and keep the counts in a file.
        #> count by legend | save! \(dir)/counts.csv
        #> count by legend | chart bar to! \(dir)/chart.txt
        #> :save! \(dir)/session.utq
        #> count by legend
        #x count
        """.write(toFile: lesson, atomically: false, encoding: .utf8)
        let r = try runUTQ(["lesson", "check", lesson])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["counts.csv", "total.csv", "chart.txt", "notes.md", "session.utq"] {
            #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == mine, "lesson check wrote \(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 6, "the check left a file")
        // Said once, naming the files.
        let said = r.stdout + r.stderr
        #expect(said.contains("writes no files"), "\(said)")
        for name in ["counts.csv", "total.csv", "chart.txt", "notes.md", "session.utq"] {
            #expect(said.contains(name), "\(name) is not named: \(said)")
        }
    }
}
