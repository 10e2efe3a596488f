import Foundation

/// An Excel workbook (.xlsx) opened for reading: its zip archive, which part is which (found
/// through the package's relationships, as Excel finds them, so workbooks written by other
/// programs with other part names read too), its sheets in order, and its date system.
/// Parts are unpacked into memory one at a time, never to disk.
struct XLSXWorkbook {
    struct Sheet {
        var name: String
        /// The part holding its cells; nil when the workbook names none.
        var part: String?
        var hidden: Bool
        /// False for a chart sheet (or a macro or dialog sheet), which has no cells.
        var isWorksheet: Bool
    }

    let path: String
    private let zip: XLSXZip
    /// Members by part name, lower-cased and with `%20` undone: a few writers change the
    /// case of part names, and a part name may be written either way.
    private let entries: [String: XLSXZip.Member]
    private(set) var sheets: [Sheet] = []
    /// Serial day 0 is 1904-01-01 (old Mac Excel) instead of 1899-12-30.
    private(set) var date1904 = false
    private(set) var sharedStringsPart: String?
    private(set) var stylesPart: String?
    /// The session's memory limit (`set memory-limit`), for parts unpacked.
    var memoryLimit: Int?
    var progress: LoadProgress?

    /// Parts larger than this are not unpacked into memory.
    static let maximumPartBytes: UInt64 = 2 << 30

    /// Whether a file is a workbook to read here: a zip archive named as a workbook, or one
    /// whatever its name that holds a workbook part.
    static func isWorkbook(_ path: String) -> Bool {
        let lower = path.lowercased()
        guard Loaders.isZip(path) || startsAsZip(path) else { return false }
        if [".xlsx", ".xlsm", ".xltx", ".xltm"].contains(where: { lower.hasSuffix($0) }) { return true }
        guard let zip = try? XLSXZip(path: path) else { return false }
        return zip.members.contains { key($0.name) == "xl/workbook.xml" }
    }

    private static func key(_ name: String) -> String { (name.removingPercentEncoding ?? name).lowercased() }

    /// A zip's local header signature (`PK\3\4`), also when the rest is damaged.
    private static func startsAsZip(_ path: String) -> Bool {
        (try? Loaders.rawHead(path, count: 4)) == [0x50, 0x4B, 0x03, 0x04]
    }

    static func open(_ path: String, memoryLimit: Int?, progress: LoadProgress?) throws -> XLSXWorkbook {
        let zip: XLSXZip
        do {
            zip = try XLSXZip(path: path)
        } catch let problem as XLSXZip.Problem {
            throw LoadError(path: path, problem.message + " — an .xlsx workbook is a zip archive; open it in Excel or LibreOffice and save it again")
        }
        var entries: [String: XLSXZip.Member] = [:]
        for member in zip.members where !member.name.hasSuffix("/") {
            let k = key(member.name)
            if entries[k] == nil { entries[k] = member }
        }
        var book = XLSXWorkbook(path: path, zip: zip, entries: entries)
        book.memoryLimit = memoryLimit
        book.progress = progress
        try book.readStructure()
        return book
    }

    private init(path: String, zip: XLSXZip, entries: [String: XLSXZip.Member]) {
        self.path = path; self.zip = zip; self.entries = entries
    }

    func contains(_ part: String) -> Bool { entries[Self.key(part)] != nil }

    // MARK: structure

    private mutating func readStructure() throws {
        // The package says which part is the workbook; xl/workbook.xml when it does not.
        var workbookPart = "xl/workbook.xml"
        if contains("_rels/.rels") {
            let top = try relationships(of: "")
            if let office = top.values.first(where: { $0.type.hasSuffix("/officeDocument") }), contains(office.target) {
                workbookPart = office.target
            }
        }
        guard contains(workbookPart) else {
            let listing = entries.keys.sorted()
            let shown = listing.prefix(6).joined(separator: ", ") + (listing.count > 6 ? ", …" : "")
            throw LoadError(path: path, "is a zip archive but not an Excel workbook: it has no \(workbookPart)"
                            + (listing.isEmpty ? " (it is empty)" : " (it holds \(shown))"))
        }
        let rels = contains(relationshipsPart(of: workbookPart)) ? try relationships(of: workbookPart) : [:]
        sharedStringsPart = rels.values.first { $0.type.hasSuffix("/sharedStrings") }?.target
            ?? (contains("xl/sharedStrings.xml") ? "xl/sharedStrings.xml" : nil)
        stylesPart = rels.values.first { $0.type.hasSuffix("/styles") }?.target
            ?? (contains("xl/styles.xml") ? "xl/styles.xml" : nil)

        let bytes = try read(workbookPart)
        (sheets, date1904) = try parse(workbookPart, bytes) { x in
            var found: [Sheet] = []
            var date1904 = false
            while true {
                switch try x.next() {
                case .endOfDocument:
                    return (found, date1904)
                case .start where x.isName("workbookPr"):
                    let flag = x.attributeText("date1904")
                    date1904 = flag == "1" || flag?.lowercased() == "true"
                case .start where x.isName("sheet"):
                    let name = x.attributeText("name") ?? "Sheet\(found.count + 1)"
                    let rel = x.attributeText("id").flatMap { rels[$0] }
                    let hidden = x.attributeText("state").map { $0 != "visible" } ?? false
                    // Without a relationship type, a worksheet is assumed (older writers).
                    let worksheet = rel.map { $0.type.hasSuffix("/worksheet") } ?? true
                    found.append(Sheet(name: name, part: rel?.target, hidden: hidden, isWorksheet: worksheet))
                default:
                    continue
                }
            }
        }
        if sheets.isEmpty {
            throw LoadError(path: path, "is a workbook without sheets (\(workbookPart) lists none); the file is damaged")
        }
    }

    struct Relationship { var type: String; var target: String }

    private func relationshipsPart(of part: String) -> String {
        let (folder, base) = split(part)
        return folder + "_rels/" + base + ".rels"
    }

    /// A part's relationships by id, targets resolved to part names. External targets
    /// (links to other files) are left out.
    private func relationships(of part: String) throws -> [String: Relationship] {
        let relsPart = part.isEmpty ? "_rels/.rels" : relationshipsPart(of: part)
        let bytes = try read(relsPart)
        var out: [String: Relationship] = [:]
        try parse(relsPart, bytes) { x in
            while true {
                switch try x.next() {
                case .endOfDocument: return
                case .start where x.isName("Relationship"):
                    guard let id = x.attributeText("Id"), let target = x.attributeText("Target"),
                          x.attributeText("TargetMode")?.lowercased() != "external" else { continue }
                    out[id] = Relationship(type: x.attributeText("Type") ?? "", target: resolve(target, from: split(part).folder))
                default: continue
                }
            }
        }
        return out
    }

    /// A relationship's target as a part name: relative to the folder of the part that
    /// names it, or from the top when it starts with `/`; `%20` and `../` undone.
    func resolve(_ target: String, from folder: String) -> String {
        let decoded = target.removingPercentEncoding ?? target
        let joined = decoded.hasPrefix("/") ? String(decoded.dropFirst()) : folder + decoded
        var parts: [Substring] = []
        for piece in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if piece == "." { continue }
            if piece == ".." { _ = parts.popLast(); continue }
            parts.append(piece)
        }
        return parts.joined(separator: "/")
    }

    private func split(_ part: String) -> (folder: String, base: String) {
        guard let slash = part.lastIndex(of: "/") else { return ("", part) }
        return (String(part[...slash]), String(part[part.index(after: slash)...]))
    }

    // MARK: reading parts

    /// Runs `body` over a part's XML; a malformed document becomes an error naming the part.
    func parse<T>(_ part: String, _ bytes: [UInt8], _ body: (inout XMLScanner) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var scanner = XMLScanner(raw)
            do {
                return try body(&scanner)
            } catch let m as XMLScanner.Malformed {
                throw damaged(part, "is not well-formed XML: \(m)")
            }
        }
    }

    /// An error about one part of the workbook.
    func damaged(_ part: String, _ what: String) -> LoadError {
        LoadError(path: path, "the workbook's part \(part) \(what); the file is damaged — open it in Excel or LibreOffice and save it again")
    }

    /// A part's bytes, stopped at the memory budget as they are inflated: the sizes a zip
    /// declares may be false (a zip bomb says little and unpacks to much), and the buffer
    /// never grows past half the budget.
    func read(_ part: String) throws -> [UInt8] {
        guard let entry = entries[Self.key(part)] else {
            throw LoadError(path: path, "the workbook has no part \(part), which it refers to; the file is damaged — "
                            + "open it in Excel or LibreOffice and save it again")
        }
        guard entry.size <= Self.maximumPartBytes else {
            throw LoadError(path: path, "the workbook's part \(part) is \(MemoryBudget.describe(Int(clamping: entry.size))) "
                            + "unpacked, too large to read; save the sheet as CSV and load that")
        }
        try MemoryBudget.check(path: path, fileSize: Int(entry.size), document: false, converted: false, setting: memoryLimit)
        let budget = MemoryBudget.limit(setting: memoryLimit).map { UInt64(max(0, $0)) } ?? .max
        let most = Int(min(Self.maximumPartBytes, budget / 2))
        let bytes: [UInt8]
        do {
            bytes = try zip.bytes(of: entry, limit: most)
        } catch is XLSXZip.TooLarge {
            throw LoadError(path: path, "the workbook's part \(part) says it unpacks to "
                            + "\(MemoryBudget.describe(Int(clamping: entry.size))) but unpacks to more than "
                            + "\(MemoryBudget.describe(most)), more than fits in memory; the file may be damaged")
        } catch let problem as XLSXZip.Problem {
            throw damaged(part, problem.message)
        }
        progress?.advance(Int(clamping: entry.compressedSize))
        return bytes
    }

    // MARK: choosing a sheet

    /// The sheet `load … sheet NAME` asks for: by name (exactly, else ignoring case and
    /// spaces around it), or by number when no sheet has that name; the first visible
    /// worksheet when none is asked for.
    func sheet(named wanted: String?) throws -> Sheet {
        guard let wanted else {
            guard let first = sheets.first(where: { $0.isWorksheet && !$0.hidden }) ?? sheets.first(where: \.isWorksheet) else {
                throw LoadError(path: path, "the workbook has no sheet of cells, only charts (\(sheetList))")
            }
            return first
        }
        let folded = wanted.trimmingCharacters(in: .whitespaces).lowercased()
        let found = sheets.first { $0.name == wanted }
            ?? sheets.first { $0.name.trimmingCharacters(in: .whitespaces).lowercased() == folded }
            ?? Int(wanted).flatMap { $0 >= 1 && $0 <= sheets.count ? sheets[$0 - 1] : nil }
        guard let found else {
            let near = Suggest.closest(wanted, among: sheets.map(\.name))
            throw LoadError(path: path, "has no sheet \(wanted.quoted)" + (near.map { " (did you mean \($0.quoted)?)" } ?? "")
                            + "; the workbook has sheets: \(sheetList)")
        }
        guard found.isWorksheet else {
            throw LoadError(path: path, "sheet \(found.name.quoted) is a chart, not a sheet of cells; the workbook has sheets: \(sheetList)")
        }
        return found
    }

    var sheetList: String { sheets.map(\.name).joined(separator: ", ") }
}
