import Foundation
import Testing
@testable import UTQCore

/// A lesson checked from notebook cells: `:lesson FILE` opens it, a cell whose first line is
/// `check N` is graded against exercise N on the student's session as it stands, and each
/// check goes into the record. The handout a notebook is made from has those cells, folded
/// hints and no answers.
@Suite struct LessonCheckTests {
    static let lesson = "examples/lessons/01-counting.utq"

    /// A kernel-like session in the lessons' folder, records kept in a temporary folder.
    func session() throws -> (Session, String) {
        let records = FileManager.default.temporaryDirectory.appendingPathComponent("utq-checks-\(UUID().uuidString)").path
        let s = Session(workingDirectory: Repo.path("examples/lessons"), defaultZone: .utc)
        s.lessonRecordFolder = records
        return (s, records)
    }

    /// What a cell shows, as text: tables by their row count, notes and errors as written.
    func cell(_ s: Session, _ code: String) -> String {
        var out: [String] = []
        s.runCell(code) { _, outcome in
            for o in outcome.outputs {
                switch o {
                case .info(let t), .warning(let t), .text(let t): out.append(t)
                case .table(let r): out.append("[\(r.number ?? 0)] \(r.table.rowCount) rows")
                case .chart: out.append("chart")
                }
            }
            if let e = outcome.error { out.append("error: " + e.message) }
        }
        return out.joined(separator: "\n")
    }

    @Test func checkCellsGradeTheStudentsSession() throws {
        let (s, records) = try session()
        defer { try? FileManager.default.removeItem(atPath: records) }
        #expect(cell(s, "check 1\ncount").contains("no lesson is open"))
        #expect(cell(s, ":lesson \(Self.lesson)").contains("3 exercises"))
        _ = cell(s, "load datasets/market.json")
        #expect(cell(s, "check 4\ncount").contains("check 1 … check 3"))
        #expect(cell(s, "check 2\n").contains("write your pipeline under the check line"))
        // A let table made in an earlier cell, used in the check.
        _ = cell(s, "let standing = where legend = \"Standing\"")
        #expect(cell(s, "check 1\nstanding | count").hasSuffix("right!"))
        let wrong = cell(s, "check 2\ncount by hour")
        #expect(wrong.contains("not yet"), "\(wrong)")
        // `_` is the result shown just before; ties of the answer's sort in any order.
        _ = cell(s, "where note is not null | count by note")
        let third = cell(s, "check exercise 3\n_ | sort count desc, note desc")
        #expect(third.contains("7 rows") && third.hasSuffix("right!"), "\(third)")
        #expect(cell(s, "check 2\ncount by nothing").contains("not checked: the cell did not run"))
        let files = try FileManager.default.contentsOfDirectory(atPath: records).filter { $0.hasSuffix(".record.json") }
        #expect(files.count == 1)
        let data = try #require(FileManager.default.contents(atPath: records + "/" + files[0]))
        guard case .success(let record) = LessonRecord.read(data) else { Issue.record("unreadable record"); return }
        #expect(record.exercises.map { "\($0.number) \($0.mark.rawValue)" }.sorted() == ["1 right", "2 not yet", "3 right"])
        #expect(record.exercises.first { $0.number == 2 }?.tries.map(\.line) == ["count by hour", "count by nothing"])
    }

    @Test func aJupyterHandoutHasCheckCellsFoldedHintsAndNoAnswers() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("utq-handout-\(UUID().uuidString).ipynb").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try runUTQ(["notebook", Self.lesson, "--no-answers", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try #require(FileManager.default.contents(atPath: out))
        let nb = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cells = try #require(nb["cells"] as? [[String: Any]])
        func source(_ c: [String: Any]) -> String { (c["source"] as? [String] ?? []).joined() }
        let code = cells.filter { $0["cell_type"] as? String == "code" }.map(source)
        #expect(code.first == ":lesson \(Self.lesson)")
        #expect(code.filter { $0.hasPrefix("check ") } == ["check 1\n", "check 2\n", "check 3\n"])
        let hints = cells.filter { source($0).hasPrefix("<details><summary>Hint") }
        #expect(hints.count == 6)
        let text = String(decoding: data, as: UTF8.self)
        let lesson = try String(contentsOfFile: Repo.path(Self.lesson), encoding: .utf8)
        let answers = lesson.split(separator: "\n").filter { $0.hasPrefix("#>") }.map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }
        #expect(answers.count == 3)
        for a in answers {
            let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [a]), as: UTF8.self).dropFirst(2).dropLast(2)
            #expect(!text.contains(escaped), "the answer \(a) is in the handout")
        }
    }

    @Test func pathsCompleteWhereLoadsFindThem() throws {
        let s = Session(workingDirectory: Repo.path("examples/lessons"), defaultZone: .utc)
        #expect(s.complete("load datasets/ma").candidates.contains("datasets/market.json"))
    }
}
