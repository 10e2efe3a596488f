import Foundation

/// What one student did in one run of a lesson, for a teacher to collect: each exercise met,
/// each line typed with the shape of its result and its verdict, the mark, the hints used and
/// the time spent. It never holds the lesson's answers: a record handed in shows the student's
/// own work, and a record passed between students gives nothing away.
public struct LessonRecord: Codable, Sendable, Equatable {
    /// How far a student got with an exercise, best first. `notReached` is the gradebook's
    /// word for an exercise a student never met; a record holds only exercises met.
    public enum Mark: String, Codable, Sendable, Comparable {
        case right
        case notYet = "not yet"
        case skipped
        case notReached = "not reached"

        var rank: Int {
            switch self {
            case .right: return 3
            case .notYet: return 2
            case .skipped: return 1
            case .notReached: return 0
            }
        }

        /// Worse first: `max` of marks is the best of them.
        public static func < (a: Mark, b: Mark) -> Bool { a.rank < b.rank }
    }

    /// A line typed at the `lesson>` prompt.
    public struct Try: Codable, Sendable, Equatable {
        public var line: String
        /// `7 rows × 2 columns`, or the first line of the error.
        public var result: String
        /// `right`, `not yet: …`, `did not run`, …
        public var verdict: String
    }

    public struct Work: Codable, Sendable, Equatable {
        /// From 1, as the prompt numbers exercises.
        public var number: Int
        public var title: String
        public var mark: Mark
        /// How many of the exercise's hints were shown.
        public var hints: Int
        public var seconds: Int
        public var tries: [Try]
    }

    /// Tells a record from any other JSON file, and a later layout from this one.
    public var format = LessonRecord.currentFormat
    /// The lesson's file name without `.utq`: records of one lesson are graded together.
    public var lesson: String
    /// The lesson's path as the student gave it.
    public var file: String
    /// A hash of the lesson's text (as its progress uses): records of an edited lesson differ.
    public var version: String
    /// Every exercise's title, so a gradebook can show the ones a student never reached.
    public var exerciseTitles: [String]
    public var student: String
    /// ISO 8601 with the student's offset (`2026-05-12T10:03:00+02:00`).
    public var started: String
    public var exercises: [Work]

    public static let currentFormat = "utq lesson record 1"

    public init(lesson: Lesson, file: String, version: String, student: String, started: Date) {
        self.lesson = Self.lessonName(file)
        self.file = file
        self.version = version
        exerciseTitles = lesson.exercises.map(\.title)
        self.student = student
        self.started = Self.timeText(started)
        exercises = []
    }

    /// `examples/lessons/01-counting.utq` → `01-counting`.
    public static func lessonName(_ path: String) -> String {
        let base = (path as NSString).lastPathComponent
        return base.hasSuffix(".utq") ? String(base.dropLast(4)) : base
    }

    /// `--student NAME`, else $UTQ_STUDENT, else the login name.
    public static func student(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for candidate in [given, environment["UTQ_STUDENT"], environment["USER"], environment["LOGNAME"]] {
            if let name = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return name }
        }
        return "student"
    }

    /// `7 rows × 2 columns`.
    public static func shape(_ t: Table) -> String {
        "\(NumberText.counted(t.rowCount, "row")) × \(NumberText.counted(t.columns.count, "column"))"
    }

    static func timeText(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone.current
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// When the run started, for ordering runs (nil when the text is not a time).
    public var startedDate: Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: started)
    }

    /// `01-counting.4f2a91.ana.20260512-100300`: the lesson, the mark of its folder (two
    /// courses' lessons of one name stay apart), the student and the start, so runs of a class
    /// can share one folder and no run's file names another's.
    public static func fileStem(lessonPath: String, student: String, started: Date) -> String {
        let notebook = LessonProgress.notebookName(lessonPath: lessonPath)
        let lessonAndMark = String(notebook.dropLast("-session.md".count))
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone.current
        f.dateFormat = "yyyyMMdd-HHmmss"
        let safe = String(student.unicodeScalars.map { s -> Character in
            CharacterSet.alphanumerics.contains(s) || s == "-" || s == "_" ? Character(s) : "_"
        }.prefix(60))
        return "\(lessonAndMark).\(safe).\(f.string(from: started))"
    }

    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted, so two writes of one record are the same bytes.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    /// A record from a file's bytes, or why it is none.
    public static func read(_ data: Data) -> Result<LessonRecord, Diagnostic> {
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .failure(Diagnostic("not JSON; a record is the .record.json file utq lesson writes"))
        }
        guard let object = parsed as? [String: Any], let format = object["format"] as? String, format.hasPrefix("utq lesson record") else {
            return .failure(Diagnostic("not a lesson record (it has no \"format\": \"\(currentFormat)\")"))
        }
        guard format == currentFormat else {
            return .failure(Diagnostic("a record of another layout (\(format)); this utq reads \(currentFormat): report it with the utq that wrote it"))
        }
        do {
            return .success(try JSONDecoder().decode(LessonRecord.self, from: data))
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(Diagnostic("the record has no \"\(key.stringValue)\"; it was cut short or edited"))
        } catch {
            return .failure(Diagnostic("the record cannot be read: it was cut short or edited"))
        }
    }

    /// The record as a page to read: each exercise, its mark, and the lines typed.
    public func markdown() -> String {
        var out = "# \(lesson): \(student)\n\n"
        out += "Lesson `\(file)` (version \(version)), started \(started). "
        out += "\(exercises.filter { $0.mark == .right }.count) of \(exerciseTitles.count) exercises right in this run.\n"
        for w in exercises {
            out += "\n## \(w.number). \(w.title): \(w.mark.rawValue)\n\n"
            out += "\(NumberText.counted(w.tries.count, "line")) typed, \(NumberText.counted(w.hints, "hint")), \(w.seconds) s.\n"
            if !w.tries.isEmpty { out += "\n" }
            for t in w.tries {
                out += t.verdict == "did not run" ? "- \(Self.code(t.line)) did not run: \(t.result)\n"
                    : "- \(Self.code(t.line)) → \(t.result): \(t.verdict)\n"
            }
        }
        return out
    }

    /// Inline code that holds any backticks of the line.
    static func code(_ s: String) -> String {
        var fence = "`"
        while s.contains(fence) { fence += "`" }
        let pad = s.hasPrefix("`") || s.hasSuffix("`") ? " " : ""
        return fence + pad + s + pad + fence
    }
}
