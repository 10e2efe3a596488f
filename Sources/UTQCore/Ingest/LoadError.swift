import Foundation

/// Why a file could not be loaded, and where in the file.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, set where the error is raised, for code that acts on it (a missing
    /// file gets a did-you-mean, an empty file of a feed is filed under its notice); the
    /// message says it in words, and nothing reads the words back.
    public enum Kind: Sendable, Equatable {
        case noSuchFile
        /// A folder where a file was wanted.
        case isFolder
        case permissionDenied
        case emptyFile
        /// Everything nothing needs to tell apart.
        case other
    }

    public var path: String
    public var line: Int?
    public var column: Int?
    public var kind: Kind
    public var message: String

    public init(path: String, line: Int? = nil, column: Int? = nil, _ message: String, kind: Kind = .other) {
        self.path = path; self.line = line; self.column = column; self.message = message; self.kind = kind
    }

    /// A file that could not be looked at or opened, by the system's error number.
    public init(path: String, errno code: Int32) {
        switch code {
        case ENOENT: self.init(path: path, "no such file", kind: .noSuchFile)
        case EACCES: self.init(path: path, "permission denied (the file cannot be read)", kind: .permissionDenied)
        case EISDIR: self.init(path: path, "is a folder, not a file", kind: .isFolder)
        default: self.init(path: path, String(cString: strerror(code)))
        }
    }

    public var description: String {
        var s = path
        if let line { s += ":\(line)"; if let column { s += ":\(column)" } }
        return s + ": " + message
    }
}
