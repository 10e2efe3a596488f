import Foundation

/// Keeps a student's record of a run of a lesson as it goes: the tutor tells it each event
/// (an exercise shown, a line typed, a hint, a skip, a stop) and the record is written again,
/// whole, after each, so a run stopped with ^C or a closed window keeps what was done. The
/// first write claims a file name no other run has; later writes replace only that file.
public final class LessonRecorder {
    public private(set) var record: LessonRecord
    /// The record's file, once written (the first line typed writes it).
    public private(set) var path: String?
    /// Why the record could not be written, when it could not.
    public private(set) var failure: String?
    let folder: String
    let stem: String
    let now: () -> Date
    /// Every text of the lesson's answers: none of it may reach a record through a message.
    let answers: [String]
    private var current: Int?
    private var enteredAt: Date?
    private var spent: [Int: Double] = [:]

    public init(lesson: Lesson, lessonPath: String, text: String, student: String, folder: String, now: @escaping () -> Date = Date.init) {
        self.folder = folder
        self.now = now
        let started = now()
        record = LessonRecord(lesson: lesson, file: lessonPath, version: LessonProgress.version(of: text), student: student, started: started)
        stem = LessonRecord.fileStem(lessonPath: lessonPath, student: student, started: started)
        answers = lesson.exercises.flatMap { e in
            (e.answer + e.alternatives.flatMap { $0 }).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        }.filter { !$0.isEmpty }
    }

    /// Exercise k (from 0) is on the screen: its time runs from now.
    func enter(_ k: Int, title: String) {
        stopClock()
        current = k
        enteredAt = now()
        if work(k) == nil {
            record.exercises.append(.init(number: k + 1, title: title, mark: .notYet, hints: 0, seconds: 0, tries: []))
        }
    }

    /// The student left the exercise on the screen (back, quit, or the lesson's end).
    func leave() {
        stopClock()
        current = nil
        save(onlyIfWritten: true)
    }

    func tried(_ line: String, result: String, verdict: String, right: Bool) {
        guard let k = current, let i = work(k) else { return }
        // A password typed in a line is no more written to a record than to the history.
        let secrets = SecretText.values(in: line)
        record.exercises[i].tries.append(.init(line: SecretText.masked(line), result: SecretText.masked(redacted(result), also: secrets),
                                               verdict: SecretText.masked(redacted(verdict), also: secrets)))
        if right { record.exercises[i].mark = .right }
        save()
    }

    func hinted(_ shown: Int) {
        guard let k = current, let i = work(k) else { return }
        record.exercises[i].hints = max(record.exercises[i].hints, shown)
        save()
    }

    func skipped() {
        guard let k = current, let i = work(k) else { return }
        if record.exercises[i].mark != .right { record.exercises[i].mark = .skipped }
        save()
    }

    /// Any other line (back, a word that is no pipeline) still counts as work: the record is
    /// written so that its time is kept.
    func touched() { save() }

    private func work(_ k: Int) -> Int? { record.exercises.firstIndex { $0.number == k + 1 } }

    private func stopClock() {
        guard let k = current, let since = enteredAt else { return }
        spent[k, default: 0] += now().timeIntervalSince(since)
        enteredAt = nil
        if let i = work(k) { record.exercises[i].seconds = Int(spent[k]!.rounded()) }
    }

    /// The seconds of the exercise on the screen, counted up to now.
    private func updateSeconds() {
        guard let k = current, let since = enteredAt, let i = work(k) else { return }
        record.exercises[i].seconds = Int((spent[k, default: 0] + now().timeIntervalSince(since)).rounded())
    }

    /// A message that quotes (in backticks) a command of the student's session may quote an
    /// answer the tutor ran there after an exercise was right or skipped: it is left out.
    private func redacted(_ s: String) -> String {
        var out = s
        for a in answers where out.contains("`\(a)`") {
            out = out.replacingOccurrences(of: "`\(a)`", with: "(a command of the lesson)")
        }
        return out
    }

    /// Writes the record (and a page of it beside) whole; the first write takes a new name.
    func save(onlyIfWritten: Bool = false) {
        if onlyIfWritten && path == nil { return }
        updateSeconds()
        let bytes = record.json()
        do {
            if let path {
                try AtomicFile.write(bytes, to: path, replace: true)
            } else {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                path = try claim(bytes)
            }
            failure = nil
        } catch let e as AtomicFile.Failure {
            failure = e.message(path ?? (folder as NSString).appendingPathComponent(stem + ".record.json"))
            return
        } catch {
            failure = "cannot write the record in \(folder): \(error.localizedDescription)"
            return
        }
        if let path {
            let page = String(path.dropLast(".json".count)) + ".md"
            try? AtomicFile.write(Array(record.markdown().utf8), to: page, replace: true)
        }
    }

    /// A name of this run's own: when a run of the same second has the name, -2, -3 … follow.
    private func claim(_ bytes: [UInt8]) throws -> String {
        var n = 1
        while true {
            let name = stem + (n == 1 ? "" : "-\(n)") + ".record.json"
            let path = (folder as NSString).appendingPathComponent(name)
            do {
                try AtomicFile.write(bytes, to: path, replace: false)
                return path
            } catch let e as AtomicFile.Failure where e.exists && n < 1000 {
                n += 1
            }
        }
    }
}
