import Foundation
import ZIPFoundation

/// The files of a feed, wherever they are: in a folder, or in a zip archive read in memory
/// (never unpacked to disk). Feeds are often published with their files one folder down
/// (`feed.zip/google_transit/stops.txt`); that folder is used when the top has none.
struct GTFSFeedSource {
    private enum Location {
        case file(String)
        case entry(Entry)
    }

    /// The folder or archive, as given.
    let path: String
    private let archive: Archive?
    /// Feed files by their GTFS name (`stops.txt`).
    private var files: [String: Location] = [:]
    /// The folder inside the feed that holds the files (`google_transit/`), or "".
    private var inner = ""
    /// What was noticed while looking: file names written in another case.
    private(set) var notes: [LoadWarning] = []
    /// The session's memory limit (`set memory-limit`), for files unpacked from a zip.
    var memoryLimit: Int? = nil

    /// Entries larger than this are not read into memory from a zip.
    static let maximumEntryBytes: UInt64 = 2 << 30

    /// The bytes of all the feed's files (unpacked), for a progress bar.
    var totalBytes: Int {
        files.values.reduce(0) { sum, location in
            switch location {
            case .file(let full):
                return sum + ((try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? 0)
            case .entry(let entry):
                return sum + Int(min(entry.uncompressedSize, Self.maximumEntryBytes))
            }
        }
    }

    /// The names of the `.txt` files present, sorted.
    var fileNames: [String] { files.keys.sorted() }

    func contains(_ name: String) -> Bool { files[name] != nil }

    /// How a file is named in messages: `feed.zip/stops.txt`, `feed/stops.txt`.
    func displayPath(_ name: String) -> String {
        (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/" + inner + name
    }

    // MARK: opening

    /// Opens a folder or a zip archive, or says why it is not a feed.
    static func open(_ path: String, isDirectory: Bool) throws -> GTFSFeedSource {
        if isDirectory {
            var source = GTFSFeedSource(path: path, archive: nil)
            var listing: [String: Location] = [:]
            for relative in try folderListing(path) { listing[relative] = .file((path as NSString).appendingPathComponent(relative)) }
            try source.choose(from: listing)
            return source
        }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw LoadError(path: path, "is not a zip archive that can be read" + firstBytes(path)
                            + "; a GTFS feed is loaded from a .zip or from a folder of .txt files")
        }
        var source = GTFSFeedSource(path: path, archive: archive)
        var entries: [String: Location] = [:]
        for entry in archive where entry.type == .file && !entry.path.hasPrefix("__MACOSX/") {
            entries[entry.path] = .entry(entry)
        }
        try source.choose(from: entries)
        return source
    }

    /// Files of a folder and of its folders one level down, as relative paths.
    private static func folderListing(_ path: String) throws -> [String] {
        let fm = FileManager.default
        guard let top = try? fm.contentsOfDirectory(atPath: path) else {
            throw LoadError(path: path, "is a folder that cannot be read (permission denied?)")
        }
        var out: [String] = []
        for name in top.sorted() {
            var isDirectory: ObjCBool = false
            let full = (path as NSString).appendingPathComponent(name)
            guard fm.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                for inner in ((try? fm.contentsOfDirectory(atPath: full)) ?? []).sorted() { out.append(name + "/" + inner) }
            } else {
                out.append(name)
            }
        }
        return out
    }

    /// Picks the folder holding the feed's files (the top, or the one folder that has them)
    /// and records each `.txt` file by its GTFS name.
    private mutating func choose(from located: [String: Location]) throws {
        let listing = located.keys.sorted()
        let what = archive == nil ? "a folder" : "a zip archive"
        func folder(_ p: String) -> String {
            guard let slash = p.lastIndex(of: "/") else { return "" }
            return String(p[...slash])
        }
        func isFeedFile(_ p: String) -> Bool { GTFSSchema.recognisingFiles.contains(base(p).lowercased()) }
        let folders = Set(listing.filter(isFeedFile).map(folder))
        if folders.contains("") {
            inner = ""
        } else if folders.count == 1, let only = folders.first {
            inner = only
        } else if folders.count > 1 {
            throw LoadError(path: path, "is \(what) that holds GTFS files in several folders (\(folders.sorted().joined(separator: ", "))); "
                            + "load one of them")
        } else {
            let shown = listing.prefix(8).joined(separator: ", ") + (listing.count > 8 ? ", …" : "")
            throw LoadError(path: path, "is \(what) that holds no GTFS files (agency.txt, stops.txt, routes.txt, trips.txt, stop_times.txt …)"
                            + (listing.isEmpty ? "; it is empty" : "; it holds \(shown)"))
        }
        for p in listing where folder(p) == inner && base(p).lowercased().hasSuffix(".txt") {
            let written = base(p), name = written.lowercased()
            if name != written {
                if listing.contains(inner + name) { continue }
                notes.append(LoadWarning(path: displayPath(written), "GTFS file names are lower case; read as \(name)"))
            }
            files[name] = located[p]
        }
    }

    private func base(_ p: String) -> String {
        p.split(separator: "/").last.map(String.init) ?? p
    }

    /// ` (it begins "not a zip…")` for a message about a file that is not what its name says.
    private static func firstBytes(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 24)) ?? Data()
        guard !head.isEmpty else { return " (it is empty)" }
        let printable = head.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A }
        guard printable else { return "" }
        let text = String(decoding: head, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return " (it begins \"\(text)\")"
    }

    // MARK: reading

    /// Reads one file as delimited text.
    func read(_ name: String, table: String, zone: ZoneRules, options: CSVOptions,
              cancel: CancellationFlag?) throws -> LoadedTable {
        let shown = displayPath(name)
        switch files[name] {
        case .file(let full)?:
            var loaded = try CSVLoader.load(path: full, name: table, zone: zone, options: options, cancel: cancel)
            for i in loaded.warnings.indices where loaded.warnings[i].path == full { loaded.warnings[i].path = shown }
            return loaded
        case .entry(let entry)?:
            guard let archive else { throw LoadError(path: shown, "cannot be read") }
            guard entry.uncompressedSize <= Self.maximumEntryBytes else {
                throw LoadError(path: shown, "is \(entry.uncompressedSize >> 20) MB unpacked, too large to read from the zip; "
                                + "unpack the archive and load its folder")
            }
            // Refused before a byte is unpacked when it would not fit; and since a zip may
            // say less than it holds, what it unpacks to is counted and checked again.
            try MemoryBudget.check(path: shown, fileSize: Int(entry.uncompressedSize), document: false, converted: false, setting: memoryLimit)
            let bytes = try unpack(entry, from: archive, shown: shown)
            try MemoryBudget.check(path: shown, fileSize: bytes.count, document: false, converted: false, setting: memoryLimit)
            return try CSVLoader.load(bytes: bytes, path: shown, name: table, zone: zone, options: options, cancel: cancel)
        case nil:
            throw LoadError(path: shown, "is not in the feed")
        }
    }

    private struct ArchiveTooLarge: Error {}

    /// A member's bytes, counted as they are inflated and stopped at the memory budget: the
    /// sizes a zip declares may be false. The buffer never grows past half the budget, and
    /// grows by hand, since growing holds the old buffer and the new one at once.
    private func unpack(_ entry: Entry, from archive: Archive, shown: String) throws -> [UInt8] {
        let budget = MemoryBudget.limit(setting: memoryLimit).map { UInt64(max(0, $0)) } ?? .max
        let most = Int(min(Self.maximumEntryBytes, budget / 2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(most), 64 << 20)))
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                let needed = bytes.count + chunk.count
                guard needed <= most else { throw ArchiveTooLarge() }
                if needed > bytes.capacity { bytes.reserveCapacity(min(max(needed, bytes.capacity * 2), most)) }
                bytes.append(contentsOf: chunk)
            }
        } catch is ArchiveTooLarge {
            throw LoadError(path: shown, "says it unpacks to \(MemoryBudget.describe(Int(clamping: entry.uncompressedSize))) but unpacks to more than "
                            + "\(MemoryBudget.describe(most)), more than fits in memory; the archive may be damaged")
        } catch {
            throw LoadError(path: shown, "cannot be unpacked from the zip (\(error)); the archive may be damaged")
        }
        return bytes
    }
}
