import CCompression
import Foundation
@testable import UTQCore

/// What every fuzz target shares: a scratch folder for the bytes it loads, the rule that a
/// failure must reach the user as a `LoadError` or a `Diagnostic`, and a pass over every
/// printer, so a table that loads but cannot be shown is found too.
enum Fuzz {
    /// A folder of this process's own: loaders read paths, so each input becomes a file here.
    static let scratch: String = {
        var template = Array((NSTemporaryDirectory() + "/utq-fuzz-XXXXXX").utf8CString)
        guard let p = mkdtemp(&template) else { fatalError("cannot make a scratch folder") }
        return String(cString: p)
    }()

    /// The repository, from this file's place in it (fuzz/Support.swift).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        url.deleteLastPathComponent()
        return url.path
    }()

    /// Writes the input to a file with this name in the scratch folder.
    static func file(_ name: String, _ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        let path = scratch + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        var done = 0
        while done < size {
            let n = write(fd, data + done, size - done)
            precondition(n > 0, "cannot write \(path)")
            done += n
        }
        close(fd)
        return path
    }

    /// Runs a load; an error other than a LoadError or a Diagnostic would reach the user as
    /// Swift's own description of it, so it counts as a finding.
    static func expectingUserErrors<T>(_ what: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch is LoadError {
            return nil
        } catch is Diagnostic {
            return nil
        } catch {
            fatalError("\(what) threw \(type(of: error)): \(error)")
        }
    }

    /// Whether a script may run in the repository: it reads files there freely (its writes are
    /// turned off by the caller), but no device, no process file and nothing from the root or
    /// a home folder, where a read could block or never end.
    static func staysInTheRepository(_ text: String) -> Bool {
        let lower = text.lowercased()
        for place in ["dev/", "proc/", "sys/", "~", "\\"] where lower.contains(place) { return false }
        // An absolute path starts a word (after a space, a quote, `=`, `(` or `,`, or at the
        // start) and goes on with a name; a division (`count / n`) does not.
        let chars = Array(lower)
        for (i, c) in chars.enumerated() where c == "/" {
            let before: Character = i > 0 ? chars[i - 1] : " "
            let after: Character = i + 1 < chars.count ? chars[i + 1] : " "
            if (before.isWhitespace || "\"'=(,".contains(before)) && (after.isLetter || after.isNumber || "._-".contains(after)) {
                return false
            }
        }
        return true
    }

    static let options = RenderOptions(width: 100, maxRows: 40, charset: .unicode, color: false)

    /// Shows a loaded table every way utq can: as a table, described, and written in each format.
    static func show(_ t: Table) {
        _ = Loaders.summary(t)
        _ = TableRenderer.render(t, options: options, footer: "[1]")
        _ = TableRenderer.render(Describe.table(for: t), options: options)
        for format in OutputFormat.allCases {
            _ = TableWriter.bytes(t.prefix(50), format: format, csvSafe: true)
        }
    }

    /// Every cell as text, for comparing two readings of one file.
    static func cells(_ t: Table) -> [String] {
        var out: [String] = ["\(t.columnNames)", "\(t.rowCount)"]
        for c in t.columns {
            out.append("\(c.name):\(c.type)")
            for i in 0..<t.rowCount { out.append("\(c.value(at: i))") }
        }
        return out
    }

    /// Fails when two readings differ, naming the first difference.
    static func same(_ a: Table, _ b: Table, _ what: String) {
        let x = cells(a), y = cells(b)
        if x == y { return }
        let i = (0..<min(x.count, y.count)).first(where: { x[$0] != y[$0] }) ?? min(x.count, y.count)
        fatalError("\(what): readings differ at \(i): \(i < x.count ? x[i] : "end") vs \(i < y.count ? y[i] : "end")")
    }
}

extension Fuzz {
    /// `bytes` as one gzip member, by zlib's deflate in one call with these settings.
    static func gzip(_ bytes: [UInt8], level: Int32 = 6, strategy: Int32 = Z_DEFAULT_STRATEGY, windowBits: Int32 = MAX_WBITS) -> [UInt8] {
        var z = z_stream()
        var out = [UInt8](repeating: 0, count: bytes.count + bytes.count / 8 + 256)
        guard deflateInit2_(&z, level, Z_DEFLATED, 16 + windowBits, 8, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            fatalError("deflateInit2 failed")
        }
        var input = bytes
        let n = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o -> Int in
                z.next_in = i.baseAddress; z.avail_in = uInt(i.count)
                z.next_out = o.baseAddress; z.avail_out = uInt(o.count)
                guard deflate(&z, Z_FINISH) == Z_STREAM_END else { fatalError("deflate did not finish") }
                return o.count - Int(z.avail_out)
            }
        }
        deflateEnd(&z)
        return Array(out.prefix(n))
    }
}
