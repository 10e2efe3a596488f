import Foundation

/// Refuses, before reading a byte of it, a file that would not fit in the memory that is
/// free: a load that runs the machine out of memory is killed by the system, and the whole
/// session with it.
enum MemoryBudget {
    /// How many bytes of memory a load of a file of this size and kind takes at its peak,
    /// roughly: typed columns are smaller than their text, but the parts being joined are held
    /// twice for a moment; a document read whole is a tree of values several times its text;
    /// a file converted from UTF-16 or Latin-1 is held as text once more.
    static func estimate(fileSize: Int, document: Bool, converted: Bool) -> Int {
        let (scaled, overflow) = fileSize.multipliedReportingOverflow(by: document ? 8 : 2)
        if overflow { return .max }
        return converted ? scaled.addingReportingOverflow(fileSize).partialValue : scaled
    }

    /// The bytes a load may take: UTQ_MEMORY_LIMIT, else the session's `set memory-limit`,
    /// else what /proc/meminfo calls available. Nil when none is known.
    static func limit(setting: Int?) -> Int? {
        if let s = ProcessInfo.processInfo.environment["UTQ_MEMORY_LIMIT"], let n = parseSize(s) { return n }
        if let setting { return setting }
        return available()
    }

    /// MemAvailable from /proc/meminfo, in bytes.
    static func available() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return nil
    }

    /// `500MB`, `2 GB`, `1.5g`, `123456` (bytes). Units are powers of 1024.
    static func parseSize(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = t.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value >= 0 else { return nil }
        let unit = t.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Double
        switch unit {
        case "", "b": scale = 1
        case "k", "kb", "kib": scale = 1024
        case "m", "mb", "mib": scale = 1024 * 1024
        case "g", "gb", "gib": scale = 1024 * 1024 * 1024
        case "t", "tb", "tib": scale = 1024 * 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = value * scale
        return bytes < 9e18 ? Int(bytes) : nil
    }

    /// `1.2 GB`.
    static func describe(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var v = Double(bytes), k = 0
        while v >= 1024 && k < units.count - 1 { v /= 1024; k += 1 }
        return k == 0 ? "\(bytes) bytes" : NumberText.fixed(v, decimals: v < 10 ? 1 : 0) + " " + units[k]
    }

    /// Throws when a file of this size and kind would not fit.
    static func check(path: String, fileSize: Int, document: Bool, converted: Bool, setting: Int?) throws {
        guard let limit = limit(setting: setting) else { return }
        let need = estimate(fileSize: fileSize, document: document, converted: converted)
        if need > limit {
            throw LoadError(path: path, "is \(describe(fileSize)); loading it takes about \(describe(need)) of memory, "
                + "and \(describe(limit)) is free (set memory-limit SIZE changes the limit)")
        }
    }
}
