import Foundation

/// Writes a file whole or not at all. The new content goes into an unnamed file in the same
/// folder (O_TMPFILE: if utq is killed while writing, nothing is left behind), every write
/// and the fsync are checked, and only then is it put in place: renamed over the old file
/// when it may replace one, else linked to the name, which the file system refuses when a
/// file has the name by then (so of two writers at once, one makes the file and the other
/// is told it exists). A file replaced keeps its permissions; a symbolic link is written
/// through, so the link stays and its target changes. Only regular files are written: a
/// folder, pipe, device or socket (or a link to one) is refused and stays as it is. Where
/// the folder cannot hold unnamed files, a temporary file made with O_EXCL under a name no
/// one can guess stands in, and one left by a utq that was killed is removed by the next
/// write there.
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
            try bytes.withUnsafeBytes { try writeAll(fd, $0) }
        }
    }

    /// All of `bytes` to the descriptor, however many writes it takes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(errno: errno)
            }
            done += n
        }
    }

    /// Replaces a file with what `fill` writes, whole or not at all. `fill` gets the open
    /// descriptor and a path that names the same file (for libraries that open by path).
    public static func write(to path: String, replace: Bool, newFileMode: mode_t? = nil, _ fill: (Int32, String) throws -> Void) throws {
        let target = try resolveLinks(path)
        var st = stat()
        var mode: mode_t? = nil
        // lstat: the links are followed already, and looking at a pipe must not open it.
        if lstat(target, &st) == 0 {
            if let kind = notAFile(st.st_mode) { throw Failure(reason: "it is \(kind)", exists: false) }
            // A shortcut, so that nothing is written for a file that is there; whether a file
            // is replaced is settled by the file system when the new one is put in place.
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
        if replace {
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
        } else {
            do {
                try placeWithoutReplacing(fd: fd, named: named, at: target)
            } catch {
                throw fail(error)
            }
        }
        if close(fd) != 0 { throw Failure(errno: errno) }
        removeLeftovers(in: dir, of: base)
    }

    /// Gives the written file the target's name only if no file has it: link(2) fails with
    /// EEXIST when one does, in the same step that would make the name, so no other writer
    /// can come between a look and the write. A named temporary file is removed once linked.
    static func placeWithoutReplacing(fd: Int32, named: String?, at target: String) throws {
        func refused(_ code: Int32) -> Failure {
            code == EEXIST ? Failure(reason: "the file exists", exists: true) : Failure(errno: code)
        }
        guard let named else {
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) != 0 { throw refused(errno) }
            return
        }
        if link(named, target) == 0 {
            unlink(named)
            return
        }
        let e = errno
        // A file system without hard links may still rename without replacing.
        guard e == EPERM || e == EOPNOTSUPP || e == ENOSYS else { throw refused(e) }
        if renameWithoutReplacing(named, target) != 0 { throw refused(errno) }
    }

    /// renameat2(RENAME_NOREPLACE), which the C library has (glibc 2.28) but does not show to
    /// Swift; looked up by name when needed. -1 with ENOSYS where it is missing.
    static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { errno = ENOSYS; return -1 }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let noReplace: UInt32 = 1  // RENAME_NOREPLACE in <linux/fs.h>
        return renameat2(AT_FDCWD, from, AT_FDCWD, to, noReplace)
    }

    /// What a file of this mode is when it is not a regular file, to follow "it is"
    /// ("a pipe (FIFO), not a file"): utq writes and replaces regular files only.
    public static func notAFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a pipe (FIFO), not a file"
        case S_IFCHR, S_IFBLK: return "a device, not a file"
        case S_IFSOCK: return "a socket, not a file"
        default: return "not a regular file"
        }
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
