import Foundation

/// Where a session's files are: paths as the user wrote them made absolute, and files
/// written whole or not at all, with messages that name the file as it was written.
public struct FileOutput: Sendable {
    public var workingDirectory: String

    public init(workingDirectory: String) { self.workingDirectory = workingDirectory }

    /// A path made absolute: relative to the working directory, or to the script's folder
    /// when the file is only found there.
    public func resolve(_ path: String, relativeTo source: SourceText? = nil) -> String {
        var p = path
        if p.hasPrefix("~/") { p = NSHomeDirectory() + String(p.dropFirst(1)) }
        if p.hasPrefix("/") { return p }
        let fromCwd = (workingDirectory as NSString).appendingPathComponent(p)
        if FileManager.default.fileExists(atPath: fromCwd) { return fromCwd }
        if let source, source.name.contains("/") || source.name.hasSuffix(".utq") {
            let dir = ((source.name as NSString).deletingLastPathComponent as NSString)
            let base = dir.isAbsolutePath ? dir as String : (workingDirectory as NSString).appendingPathComponent(dir as String)
            let fromScript = (base as NSString).appendingPathComponent(p)
            if FileManager.default.fileExists(atPath: fromScript) { return fromScript }
        }
        return fromCwd
    }

    /// Writes a file atomically. An existing file is kept unless `replace`; the message then
    /// says how to replace it (`replaceHint`, as in "write save! out.csv to replace it").
    func write(_ bytes: [UInt8], to path: String, replace: Bool, span: SourceSpan?, replaceHint: String) throws {
        do {
            try AtomicFile.write(bytes, to: resolve(path), replace: replace)
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(path), at: span, hint: e.exists ? replaceHint : nil)
        }
    }

    /// A file beside a missing one with a name close to it (market.jsn → market.json).
    static func nearestFile(to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        return Suggest.closest(name, among: names.filter { !$0.hasPrefix(".") })
    }
}
