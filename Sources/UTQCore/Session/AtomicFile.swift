import Foundation

/// Writes a file whole or not at all. The new content goes into an unnamed file in the same
/// folder (O_TMPFILE: if utq is killed while writing, nothing is left behind), every write
/// and the fsync are checked, and only then is it named and renamed over the old file. A
/// file replaced keeps its permissions; a symbolic link is written through, so the link
/// stays and its target changes. Where the folder cannot hold unnamed files, a temporary
/// file made with O_EXCL under a name no one can guess stands in, and one left by a utq
/// that was killed is removed by the next write there.
public enum AtomicFile {
    public struct Failure: Error {
        public let reason: String
        /// The file was there and was kept (write again with replace to replace it).
        public let exists: Bool
        public func message(_ path: String) -> String { "cannot write \(path): \(reason)" }

        init(reason: String, exists: Bool) { self.reason = reason; self.exists = exists }

        init(errno code: Int32) {
            self.init(reason: code == ENOSPC ? "the disk is full" : code == EFBIG ? "the file would be larger than allowed"
                        : String(cString: strerror(code)), exists: false)
        }
    }

    public static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws {
        try write(to: path, replace: replace) { fd, _ in
            var written = 0
            let ok = bytes.withUnsafeBytes { p -> Bool in
                while written < p.count {
                    let n = Foundation.write(fd, p.baseAddress! + written, p.count - written)
                    if n < 0 { if errno == EINTR { continue }; return false }
                    written += n
                }
                return true
            }
            if !ok { throw Failure(errno: errno) }
        }
    }

    /// Replaces a file with what `fill` writes, whole or not at all. `fill` gets the open
    /// descriptor and a path that names the same file (for libraries that open by path).
    public static func write(to path: String, replace: Bool, newFileMode: mode_t? = nil, _ fill: (Int32, String) throws -> Void) throws {
        let target = try resolveLinks(path)
        var st = stat()
        var mode: mode_t? = nil
        if stat(target, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { throw Failure(reason: "it is a folder", exists: false) }
            if !replace { throw Failure(reason: "the file exists", exists: true) }
            mode = st.st_mode & 0o7777
        }
        let dir = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: dir) {
            throw Failure(reason: "the folder \(dir) does not exist", exists: false)
        }
        let base = (target as NSString).lastPathComponent
        // A new file gets what the umask allows; a replaced one keeps its own mode.
        let wanted = mode ?? newFileMode ?? (0o666 & ~currentUmask())
        var named: String? = nil
        var fd = open(dir, O_RDWR | O_DIRECTORY | 0o20000000 /* __O_TMPFILE */, wanted)
        if fd < 0 {
            var template = Array((dir + "/.\(base).utq-\(getpid())-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw Failure(errno: errno) }
            named = String(cString: template)
            TemporaryFiles.shared.add(named!)
        }
        defer { if let named { TemporaryFiles.shared.remove(named) } }
        func fail(_ error: Error) -> Error {
            close(fd)
            if let named { unlink(named) }
            return error
        }
        do {
            if fchmod(fd, wanted) != 0 { throw Failure(errno: errno) }
            try fill(fd, named ?? "/proc/self/fd/\(fd)")
            // The bytes must be on the disk before the rename makes them the file.
            if fsync(fd) != 0 { throw Failure(errno: errno) }
        } catch {
            throw fail(error)
        }
        var temp = named ?? ""
        if named == nil {
            // Give the unnamed file a name beside the target, for the rename.
            temp = dir + "/.\(base).utq-\(getpid())-\(UInt32.random(in: .min ... .max))"
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temp, AT_SYMLINK_FOLLOW) != 0 { throw fail(Failure(errno: errno)) }
        }
        // Renamed at once after the link, and closed after: the named file lives for two
        // system calls, so a kill -9 almost never finds it (what one leaves, the next save removes).
        guard rename(temp, target) == 0 else {
            let e = errno
            unlink(temp)
            close(fd)
            throw Failure(errno: e)
        }
        if close(fd) != 0 { throw Failure(errno: errno) }
        removeLeftovers(in: dir, of: base)
    }

    /// Temporary files of this target left by a utq that was killed while writing.
    static func removeLeftovers(in dir: String, of base: String) {
        let prefix = ".\(base).utq-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(dir + "/" + name)
        }
    }

    /// The file a path names after following its symbolic links (a link to a file that does
    /// not exist yet names that file).
    static func resolveLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        throw Failure(reason: "it is a loop of symbolic links", exists: false)
    }

    /// The process's umask, read where Linux shows it; setting and restoring it instead
    /// would race with other threads making files.
    static func currentUmask() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) {
            return value
        }
        return 0o022
    }
}

/// The temporary files being written now, so that a signal that ends utq (SIGTERM, SIGHUP)
/// can remove them rather than leave them behind.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    public func add(_ path: String) { lock.lock(); paths.insert(path); lock.unlock() }
    public func remove(_ path: String) { lock.lock(); paths.remove(path); lock.unlock() }

    /// Removes every temporary file being written (called when utq is told to end).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for p in paths { unlink(p) }
        paths.removeAll()
    }
}
