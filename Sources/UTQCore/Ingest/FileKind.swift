import Foundation

/// What a path is before anything is read from it: a file or folder utq can read, or
/// something it refuses with a message that says what it is (a pipe would block for ever,
/// a device never ends, a bzip2 file is not text). gzip and zstd files are read through
/// `Decompressor`, and their text is what these checks look at.
enum FileKind {
    /// Refuses paths that are not a regular file or a folder.
    static func check(_ path: String) throws -> (isDirectory: Bool, size: Int) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            switch errno {
            case ELOOP: throw LoadError(path: path, "is a loop of symbolic links")
            case ENOTDIR: throw LoadError(path: path, "no such file (a part of the path is not a folder)", kind: .noSuchFile)
            default: throw LoadError(path: path, errno: errno)
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return (false, Int(st.st_size))
        case S_IFDIR: return (true, 0)
        case S_IFIFO: throw LoadError(path: path, "is a pipe (FIFO), not a file; save what it gives to a file and load that")
        case S_IFCHR, S_IFBLK: throw LoadError(path: path, "is a device, not a file")
        case S_IFSOCK: throw LoadError(path: path, "is a socket, not a file")
        default: throw LoadError(path: path, "is not a regular file")
        }
    }

    /// Formats known by their first bytes that utq does not read, with what to do instead
    /// (gzip and zstd it reads: `Compression`).
    static let signatures: [(magic: [UInt8], what: String)] = [
        ([0x42, 0x5A, 0x68], "is compressed with bzip2; unpack it first (bunzip2 FILE) and load what comes out"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "is compressed with xz; unpack it first (unxz FILE) and load what comes out"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "is a 7-Zip archive; unpack it first and load the files inside"),
        ([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07], "is a RAR archive; unpack it first and load the files inside"),
        ([0x7F, 0x45, 0x4C, 0x46], "is a program (ELF), not data"),
        ([0x89, 0x50, 0x4E, 0x47], "is a PNG image, not data"),
        ([0xFF, 0xD8, 0xFF], "is a JPEG image, not data"),
        (Array("GIF8".utf8), "is a GIF image, not data"),
        (Array("%PDF".utf8), "is a PDF document, not data; export its tables as CSV first"),
        (Array("SQLite format 3".utf8) + [0], "is a SQLite database; export a table as CSV first (sqlite3 -csv -header DB 'select * from t' > t.csv)"),
    ]

    /// Why a file cannot be read as text, from its first bytes; nil when it may be text.
    static func refusal(_ raw: [UInt8], path: String) -> String? {
        for (magic, what) in signatures where raw.starts(with: magic) { return what }
        // Microsoft's compound file: an .xls workbook, or an .xlsx one with a password.
        if raw.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return XLSXLoader.describeCompoundFile(path) }
        // A tar archive says so after its first file's name (as `.tar.gz`, once decompressed).
        if raw.count >= 262, Array(raw[257..<262]) == Array("ustar".utf8) {
            return "is a tar archive; unpack it first (tar xf FILE) and load the files inside"
        }
        if raw.starts(with: [0x50, 0x4B]), path.lowercased().hasSuffix(".ods") {
            return "is an OpenDocument spreadsheet (.ods); save it as .xlsx or CSV (File ▸ Save As) and load that"
        }
        return nil
    }
}
