import Foundation

/// A class's records of lessons, read together: one row per student and exercise with the
/// student's best mark over their runs. Records of another version of a lesson than the one
/// graded are refused by name, so an edited lesson's old exercises are not mixed with new.
public struct Gradebook: Sendable {
    public struct Row: Sendable, Equatable {
        public var student: String
        public var lesson: String
        /// From 1.
        public var exercise: Int
        public var title: String
        public var mark: LessonRecord.Mark
        /// Lines typed for the exercise, in the run that gave the mark.
        public var tries: Int
        public var hints: Int
        public var seconds: Int
        /// How many runs of the lesson the student made (the mark is the best of them).
        public var runs: Int
        /// When the run that gave the mark started; empty for an exercise never reached.
        public var started: String
    }

    /// A lesson as graded: its exercises and where its version came from.
    public struct LessonInfo: Sendable {
        public var name: String
        public var titles: [String]
        public var students: [String]
        /// The .utq given, or nil when the newest records set the version.
        public var file: String?
    }

    public private(set) var rows: [Row] = []
    public private(set) var lessons: [LessonInfo] = []
    /// Files refused or not read, each naming the file (and the student, when known).
    public private(set) var problems: [String] = []
    public private(set) var recordsRead = 0

    /// Reads records from folders (searched through), record files and lessons (.utq): a
    /// lesson given is the version its records are graded against.
    public init(paths: [String]) {
        var records: [(path: String, record: LessonRecord)] = []
        var given: [String: (path: String, version: String, titles: [String])] = [:]
        for path in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                problems.append("\(path): no such file or folder")
                continue
            }
            if isDir.boolValue {
                let found = Self.recordFiles(in: path)
                if found.isEmpty { problems.append("\(path): no records in it (files named …record.json, written by utq lesson)") }
                for file in found { read(file, into: &records) }
            } else if path.hasSuffix(".utq") {
                guard let data = FileManager.default.contents(atPath: path) else { problems.append("\(path): cannot be read"); continue }
                let text = String(decoding: data, as: UTF8.self)
                let lesson = Lesson(SourceText(name: path, text: text))
                given[LessonRecord.lessonName(path)] = (path, LessonProgress.version(of: text), lesson.exercises.map(\.title))
            } else {
                read(path, into: &records)
            }
        }
        let byLesson = Dictionary(grouping: records, by: { $0.record.lesson })
        for name in byLesson.keys.sorted(by: TextOrder.less) {
            grade(name, byLesson[name]!, against: given[name])
        }
        for name in given.keys.sorted(by: TextOrder.less) where byLesson[name] == nil {
            problems.append("\(given[name]!.path): no records of this lesson among those given")
        }
    }

    /// The record files under a folder, in a stable order.
    static func recordFiles(in folder: String) -> [String] {
        guard let names = FileManager.default.subpaths(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".record.json") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    private mutating func read(_ path: String, into records: inout [(path: String, record: LessonRecord)]) {
        guard let data = FileManager.default.contents(atPath: path) else { problems.append("\(path): cannot be read"); return }
        switch LessonRecord.read(data) {
        case .success(let r): records.append((path, r))
        case .failure(let d): problems.append("\(path): \(d.message)")
        }
    }

    private mutating func grade(_ name: String, _ records: [(path: String, record: LessonRecord)],
                                against lesson: (path: String, version: String, titles: [String])?) {
        // Without the lesson, the version of its newest run is the one graded.
        let newest = records.max { a, b in
            (a.record.startedDate ?? .distantPast, a.record.started) < (b.record.startedDate ?? .distantPast, b.record.started)
        }!
        let version = lesson?.version ?? newest.record.version
        let against = lesson?.path ?? "the newest records of it"
        var kept: [LessonRecord] = []
        for (path, r) in records {
            if r.version == version { kept.append(r); continue }
            problems.append("\(path): \(r.student)'s record is of another version of \(name) than \(against) (the run started \(r.started)); "
                            + "it is left out: the lesson was edited since, so report it with the lesson as it was then")
        }
        guard !kept.isEmpty else { return }
        recordsRead += kept.count
        let titles = lesson?.titles ?? kept.first { !$0.exerciseTitles.isEmpty }?.exerciseTitles ?? []
        let students = Dictionary(grouping: kept, by: \.student)
        let names = students.keys.sorted(by: TextOrder.less)
        lessons.append(LessonInfo(name: name, titles: titles, students: names, file: lesson?.path))
        for student in names {
            let runs = students[student]!.sorted { ($0.startedDate ?? .distantPast, $0.started) < ($1.startedDate ?? .distantPast, $1.started) }
            let count = max(titles.count, runs.flatMap { $0.exercises.map(\.number) }.max() ?? 0)
            guard count > 0 else { continue }
            for number in 1...count {
                var best: (run: LessonRecord, work: LessonRecord.Work)? = nil
                for run in runs {
                    guard let w = run.exercises.first(where: { $0.number == number }) else { continue }
                    // The earliest run that reached the best mark.
                    if best == nil || w.mark > best!.work.mark { best = (run, w) }
                }
                let title = number <= titles.count ? titles[number - 1] : best?.work.title ?? "exercise \(number)"
                rows.append(Row(student: student, lesson: name, exercise: number, title: title,
                                mark: best?.work.mark ?? .notReached, tries: best?.work.tries.count ?? 0,
                                hints: best?.work.hints ?? 0, seconds: best?.work.seconds ?? 0,
                                runs: runs.count, started: best?.run.started ?? ""))
            }
        }
    }

    /// How many students got each exercise of a lesson right, by exercise number.
    public func rightCounts(_ lesson: String) -> [Int: Int] {
        var out: [Int: Int] = [:]
        for r in rows where r.lesson == lesson && r.mark == .right { out[r.exercise, default: 0] += 1 }
        return out
    }
}
