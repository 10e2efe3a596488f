import Foundation

/// Writes a file whole or not at all: to a temporary name in the same folder, then renamed.
public enum AtomicFile {
    public struct Failure: Error {
        public let reason: String
        /// The file was there and was kept (write again with replace to replace it).
        public let exists: Bool
        public func message(_ path: String) -> String { "cannot write \(path): \(reason)" }
    }

    public static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            if isDir.boolValue { throw Failure(reason: "it is a folder", exists: false) }
            if !replace { throw Failure(reason: "the file exists", exists: true) }
        }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty && !fm.fileExists(atPath: dir) {
            throw Failure(reason: "the folder \(dir) does not exist", exists: false)
        }
        let temp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno)), exists: false) }
        var written = 0
        let ok = bytes.withUnsafeBytes { p -> Bool in
            while written < p.count {
                let n = Foundation.write(fd, p.baseAddress! + written, p.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            // The bytes must be on the disk before the rename makes them the file.
            return fsync(fd) == 0
        }
        let reason = ok ? "" : String(cString: strerror(errno))
        close(fd)
        guard ok else { unlink(temp); throw Failure(reason: reason, exists: false) }
        guard rename(temp, path) == 0 else {
            let r = String(cString: strerror(errno))
            unlink(temp)
            throw Failure(reason: r, exists: false)
        }
    }
}
