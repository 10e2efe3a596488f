import Foundation

/// Refuses, before reading a byte of it, a file that would not fit in the memory that is
/// free: a load that runs the machine out of memory is killed by the system, and the whole
/// session with it.
public enum MemoryBudget {
    /// How many bytes of memory a load of a file of this size and kind takes at its peak,
    /// roughly: typed columns are smaller than their text, but the parts being joined are held
    /// twice for a moment; a document read whole is a tree of values several times its text;
    /// a file converted from UTF-16 or Latin-1 is held as text once more.
    static func estimate(fileSize: Int, document: Bool, converted: Bool) -> Int {
        // Measured: a JSON document of short values held as a tree of values takes up to
        // about 40 times its text; columns read from records about twice.
        let (scaled, overflow) = fileSize.multipliedReportingOverflow(by: document ? 40 : 2)
        if overflow { return .max }
        return converted ? scaled.addingReportingOverflow(fileSize).partialValue : scaled
    }

    /// What a delimited file takes as columns, judged from its first bytes: about nine bytes a
    /// cell (a 64-bit value, or a 32-bit code and its share of the dictionary and the null
    /// bitmap), and the text of long cells that are not numbers or times kept whole (they are
    /// seldom repeated), a tenth more for the parts being put together. Measured on files of
    /// short cells: 0.66 of the file for a ride log, 0.88 for mapping entries, where twice the
    /// file refused a 20 GB ride log that takes 14 GB; a file of one-digit cells takes four
    /// times its size, which twice the file let through. Nil when the head holds no whole
    /// record after the header.
    static func estimate(fileSize: Int, delimitedHead head: [UInt8]) -> Int? {
        guard let headerEnd = head.firstIndex(of: 0x0A), let lastEnd = head.lastIndex(of: 0x0A), lastEnd > headerEnd else { return nil }
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
        let header = head[..<headerEnd]
        let delimiter = candidates.max { a, b in header.count(where: { $0 == a }) < header.count(where: { $0 == b }) }!
        var cells = 0, longText = 0
        var start = headerEnd + 1
        for i in (headerEnd + 1)...lastEnd where head[i] == delimiter || head[i] == 0x0A {
            cells += 1
            var s = start, e = i
            if e > s && head[e - 1] == 0x0D { e -= 1 }
            while s < e && head[s] == 0x20 { s += 1 }
            if e - s > 24 {
                let c = head[s]
                let numberOrTime = (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                if !numberOrTime { longText += e - s }
            }
            start = i + 1
        }
        let sampled = Double(lastEnd - headerEnd)
        let share = (Double(cells) * 9 + Double(longText)) / sampled * 1.1
        let need = Double(fileSize) * share
        return need >= Double(Int.max) ? .max : Int(need)
    }

    /// The bytes a load may take: UTQ_MEMORY_LIMIT, else the session's `set memory-limit`,
    /// else what /proc/meminfo calls available. Nil when none is known. A limit that is set
    /// may go past the memory that is free (the system may have more to give), but never past
    /// what `ulimit -v` leaves: no allocation beyond it succeeds, and a failed one ends the
    /// process.
    public static func limit(setting: Int?) -> Int? {
        guard let chosen = environmentLimit ?? setting else { return available() }
        return addressSpaceLeft().map { min($0, chosen) } ?? chosen
    }

    /// The memory utq may still take, in bytes: the least of what the system has available
    /// (MemAvailable), what the process's address-space limit leaves (`ulimit -v`), and what
    /// its control group leaves (a container's limit). Nil when none is known.
    static func available() -> Int? {
        [memAvailable(), addressSpaceLeft(), controlGroupLeft()].compactMap { $0 }.min()
    }

    /// A number from a `Key:  value kB` line of a /proc file, in bytes.
    static func procValue(_ file: String, _ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return nil
    }

    static func memAvailable() -> Int? { procValue("/proc/meminfo", "MemAvailable") }

    /// What RLIMIT_AS leaves beside the address space already in use.
    static func addressSpaceLeft() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        let used = procValue("/proc/self/status", "VmSize") ?? 0
        return max(0, Int(clamping: limit.rlim_cur) - used)
    }

    /// What the control group's memory limit leaves (cgroup v2, else v1).
    static func controlGroupLeft() -> Int? {
        func number(_ path: String) -> Int? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let max = number("/sys/fs/cgroup/memory.max"), let current = number("/sys/fs/cgroup/memory.current") {
            return Swift.max(0, max - current)
        }
        if let max = number("/sys/fs/cgroup/memory/memory.limit_in_bytes"), max < 1 << 60,
           let usage = number("/sys/fs/cgroup/memory/memory.usage_in_bytes") {
            return Swift.max(0, max - usage)
        }
        return nil
    }

    /// UTQ_MEMORY_LIMIT, when it is a size.
    static var environmentLimit: Int? {
        Environment.value("UTQ_MEMORY_LIMIT").flatMap(parseSize)
    }

    /// A note when UTQ_MEMORY_LIMIT is set to something that is not a size, for the shell
    /// to show at start: a limit that is silently ignored protects nothing.
    public static var environmentProblem: String? {
        guard let s = Environment.value("UTQ_MEMORY_LIMIT"), parseSize(s) == nil else { return nil }
        return "UTQ_MEMORY_LIMIT=\(s) is not a size such as 2GB or 500MB; it is ignored"
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
    public static func describe(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var v = Double(bytes), k = 0
        while v >= 1024 && k < units.count - 1 { v /= 1024; k += 1 }
        return k == 0 ? "\(bytes) bytes" : NumberText.fixed(v, decimals: v < 10 ? 1 : 0) + " " + units[k]
    }

    /// Throws when a file of this size and kind would not fit.
    static func check(path: String, fileSize: Int, document: Bool, converted: Bool, setting: Int?, delimitedHead: [UInt8]? = nil) throws {
        guard let limit = limit(setting: setting) else { return }
        let need = delimitedHead.flatMap { estimate(fileSize: fileSize, delimitedHead: $0) }
            ?? estimate(fileSize: fileSize, document: document, converted: converted)
        if need > limit {
            throw LoadError(path: path, "is \(describe(fileSize)); loading it takes about \(describe(need)) of memory, "
                + "and \(describe(limit)) is free (set memory-limit SIZE changes the limit)")
        }
    }
}
