import Foundation

/// Where a student stopped in a lesson: a small JSON file in the user's data folder, tied to
/// the lesson's text (an edited lesson starts over; a file that cannot be read is set aside).
public struct LessonProgress: Sendable {
    public let path: String
    let version: String
    /// Said when a progress file was set aside.
    public private(set) var setAside: String?

    public init(lessonPath: String, text: String, folder: String) {
        let absolute = URL(fileURLWithPath: lessonPath).standardizedFileURL.path
        let safe = absolute.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        path = (folder as NSString).appendingPathComponent(String(safe.suffix(120)) + ".json")
        version = Self.version(of: text)
    }

    /// A hash of a lesson's text: progress and records of an edited lesson are told apart by it.
    public static func version(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The file name of the notebook of a student's session of a lesson: the lesson's name and
    /// a short mark of the folder it is in (`01-counting.4f2a91-session.md`).
    public static func notebookName(lessonPath: String) -> String {
        let url = URL(fileURLWithPath: lessonPath).standardizedFileURL
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.deletingLastPathComponent().path.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let mark = String(String(hash, radix: 16).suffix(6))
        return url.deletingPathExtension().lastPathComponent + ".\(mark)-session.md"
    }

    /// The user's data folder for lessons: $XDG_DATA_HOME/utq/lessons or ~/.local/share/utq/lessons.
    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let custom = environment["UTQ_LESSON_PROGRESS"], !custom.isEmpty { return custom }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return base + "/utq/lessons"
    }

    public func load() -> (exercise: Int, right: Set<Int>)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let k = object["exercise"] as? Int, let v = object["version"] as? String else {
            return nil
        }
        guard v == version else { return nil }
        return (k, Set(object["right"] as? [Int] ?? []))
    }

    /// A file that is not ours to read (corrupt, or of an edited lesson) is renamed, not lost.
    public mutating func check() {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let fine = (object?["exercise"] as? Int) != nil && (object?["version"] as? String) == version
        guard !fine else { return }
        let aside = path + ".old"
        try? FileManager.default.removeItem(atPath: aside)
        try? FileManager.default.moveItem(atPath: path, toPath: aside)
        setAside = "the saved progress of this lesson was from another version of it (or could not be read); it is kept as \(aside) and the lesson starts over"
    }

    func save(exercise: Int, right: Set<Int>) {
        let object: [String: Any] = ["version": version, "exercise": exercise, "right": right.sorted()]
        guard let data = try? JSONSerialization.data(withJSONObject: object) else { return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? AtomicFile.write(Array(data), to: path, replace: true)
    }

    func clear() { try? FileManager.default.removeItem(atPath: path) }
}
