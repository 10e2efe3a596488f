import Foundation

/// Where a session's files are: paths as the user wrote them made absolute, and files
/// written whole or not at all, with messages that name the file as it was written. A file
/// to read may be looked for in other folders; a file to write is where it is named, so
/// that a write never replaces a file found elsewhere.
public struct FileOutput: Sendable {
    public var workingDirectory: String
    /// Commands typed outside a script (at the prompt, with -c, from standard input, in a
    /// notebook's cells) also find files to read in the folders above the working directory,
    /// as a script finds them above its own folder: a lesson notebook in examples/lessons
    /// reads the project's datasets/.
    public var searchesFoldersAbove = true
    /// Folders of shipped data looked in last (an install's share/utq, or UTQ_DATA): where
    /// `load datasets/market.json` finds the project's datasets outside the project.
    public var dataFolders: [String] = FileOutput.shippedData

    /// UTQ_DATA (folders split by :), then share/utq beside the program's bin folder, where
    /// `make install` puts datasets/, examples/ and the lessons.
    static let shippedData: [String] = {
        var folders = (Environment.value("UTQ_DATA") ?? "").split(separator: ":").map(String.init)
        if let exe = executablePath {
            let prefix = ((URL(fileURLWithPath: exe).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            folders.append((prefix as NSString).appendingPathComponent("share/utq"))
        }
        return folders.filter { FileManager.default.fileExists(atPath: $0) }
    }()
    /// The running program's file. On Linux from /proc, not `Bundle.main`: making the main
    /// bundle lists the program's folder (every file of a build folder or of /tmp), which was
    /// a third of starting up there.
    static var executablePath: String? {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath
    }
    /// When set, this session writes no files: each one asked for is listed there instead,
    /// and the command says it was not written.
    public var unwritten: UnwrittenFiles?

    public init(workingDirectory: String) { self.workingDirectory = workingDirectory }

    /// Where a file to write goes: the path as written, relative to the working directory,
    /// wherever files of that name are found for reading.
    public func destination(_ path: String) -> String {
        if path.hasPrefix("~/") { return NSHomeDirectory() + String(path.dropFirst(1)) }
        if path.hasPrefix("/") { return path }
        return (workingDirectory as NSString).appendingPathComponent(path)
    }

    /// Where a file to read is: the current folder first, then the script's folder and the
    /// folders above it (so `cd examples/lessons && utq 01-counting.utq` finds the project's
    /// datasets/). `note` says which was used when the current folder and the script's side
    /// both have a file of that name.
    public func lookUp(_ path: String, relativeTo source: SourceText? = nil) -> (path: String, note: String?) {
        let fromCwd = destination(path)
        if path.hasPrefix("/") || path.hasPrefix("~/") { return (fromCwd, nil) }
        let here = FileManager.default.fileExists(atPath: fromCwd)
        let dir: String
        let typed: Bool
        if let source, source.name.contains("/") || source.name.hasSuffix(".utq") {
            dir = (source.name as NSString).deletingLastPathComponent
            typed = false
        } else if searchesFoldersAbove {
            dir = workingDirectory
            typed = true
        } else {
            return (fromCwd, nil)
        }
        if here && typed { return (fromCwd, nil) }
        var folder = ((dir as NSString).isAbsolutePath ? dir : (workingDirectory as NSString).appendingPathComponent(dir) as String)
        folder = (folder as NSString).standardizingPath
        for _ in 0..<8 {
            let candidate = (folder as NSString).appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: candidate) {
                // Typed outside a script, a file found above is said: it is not where you are.
                if typed { return (candidate, "\(path): not in this folder; read from \(FileOutput.tilde(folder))") }
                guard here else { return (candidate, nil) }
                let same = (candidate as NSString).standardizingPath == (fromCwd as NSString).standardizingPath
                return (fromCwd, same ? nil : "\(path): read from the current folder; \(candidate) is there too, beside the script")
            }
            let up = (folder as NSString).deletingLastPathComponent
            if up == folder || up.isEmpty { break }
            folder = up
        }
        if !here, let shipped = dataFolders.first(where: { FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent(path)) }) {
            return ((shipped as NSString).appendingPathComponent(path), "\(path): read from utq's shipped data in \(shipped)")
        }
        return (fromCwd, nil)
    }

    /// A path with the home folder written ~.
    static func tilde(_ path: String) -> String {
        let home = NSHomeDirectory()
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    /// Where a file to read was looked for, for the message when it is nowhere.
    public func lookedIn(relativeTo source: SourceText? = nil) -> String {
        var places: [String] = []
        if let source, source.name.contains("/") || source.name.hasSuffix(".utq") {
            places.append("this folder, the script's folder and the folders above it")
        } else if searchesFoldersAbove {
            places.append("\(FileOutput.tilde(workingDirectory)) and the folders above it")
        } else {
            places.append(FileOutput.tilde(workingDirectory))
        }
        if !dataFolders.isEmpty { places.append("utq's shipped data (\(dataFolders.joined(separator: ", ")))") }
        return "looked in " + places.joined(separator: " and in ")
    }

    /// Writes a file atomically. An existing file is kept unless `replace`; the message then
    /// says how to replace it (`replaceHint`, as in "write save! out.csv to replace it").
    /// A name ending in .gz or .zst is written compressed. Returns nil when the file is
    /// written, or, in a session that writes none, the note to give instead of saying it was.
    func write(_ bytes: [UInt8], to path: String, replace: Bool, span: SourceSpan?, replaceHint: String) throws -> String? {
        if let unwritten { return unwritten.skip(path) }
        do {
            if let kind = Compression.forFile(path) {
                try AtomicFile.write(to: destination(path), replace: replace) { fd, _ in try Compressor.write(bytes, as: kind, to: fd) }
            } else {
                try AtomicFile.write(bytes, to: destination(path), replace: replace)
            }
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(path), at: span, hint: e.exists ? replaceHint : nil)
        }
        return nil
    }

    /// Writes a file atomically with what `fill` writes to its descriptor (a file too large
    /// to build in memory first, such as Parquet); otherwise as `write(_:to:…)`.
    func write(to path: String, replace: Bool, span: SourceSpan?, replaceHint: String, _ fill: (Int32) throws -> Void) throws -> String? {
        if let unwritten { return unwritten.skip(path) }
        do {
            try AtomicFile.write(to: destination(path), replace: replace) { fd, _ in try fill(fd) }
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(path), at: span, hint: e.exists ? replaceHint : nil)
        }
        return nil
    }

    /// A file beside a missing one with a name close to it (market.jsn → market.json).
    static func nearestFile(to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        return Suggest.closest(name, among: names.filter { !$0.hasPrefix(".") })
    }
}
