import CCompression
import Foundation
import Testing
@testable import UTQCore

/// gzip and zstd files: they load as their text does, whatever the format inside, across the
/// blocks they are decompressed in, as several members or frames; a damaged or cut one is an
/// error that says at which byte, and leaves the tables as they were; save writes them, and
/// gzip and zstd read what it wrote. The compressed files are made by the gzip and zstd
/// commands where they are installed, else by the libraries' one-shot calls, never by the
/// code under test.
@Suite struct CompressedFilesTests {
    static let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("utq-compressed-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a command with `input` on its standard input; its standard output.
    static func run(_ tool: String, _ arguments: [String], input: [UInt8]? = nil, inputFile: String? = nil) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments + (inputFile.map { [$0] } ?? [])
        let out = Pipe(), inPipe = Pipe()
        p.standardOutput = out
        p.standardInput = inPipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        if let input {
            DispatchQueue.global().async { inPipe.fileHandleForWriting.write(Data(input)); try? inPipe.fileHandleForWriting.close() }
        } else {
            try inPipe.fileHandleForWriting.close()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError(description: "\(tool) \(arguments) failed") }
        return [UInt8](data)
    }

    /// One gzip member of `bytes`: the gzip command, else zlib's deflate with gzip's framing.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        if let gz = tool("gzip") { return try run(gz, ["-c", "-6"], input: bytes) }
        var z = z_stream()
        var out = [UInt8](repeating: 0, count: bytes.count + bytes.count / 10 + 1024)
        #expect(deflateInit2_(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        var input = bytes
        let n = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o -> Int in
                z.next_in = i.baseAddress; z.avail_in = uInt(i.count)
                z.next_out = o.baseAddress; z.avail_out = uInt(o.count)
                _ = deflate(&z, Z_FINISH)
                return o.count - Int(z.avail_out)
            }
        }
        deflateEnd(&z)
        return Array(out.prefix(n))
    }

    /// One zstd frame of `bytes`: ZSTD_compress in one call.
    static func zstd(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let n = out.withUnsafeMutableBytes { o in bytes.withUnsafeBytes { i in ZSTD_compress(o.baseAddress, o.count, i.baseAddress, i.count, 3) } }
        #expect(ZSTD_isError(n) == 0)
        return Array(out.prefix(n))
    }

    static func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

    /// Every cell of every table as text, with names and types.
    static func cells(_ result: LoadResult) -> [String] {
        result.tables.flatMap { t -> [String] in
            var out = ["\(t.name) \(t.rowCount) \(t.columnNames) \(t.zone.identifier)"]
            for c in t.columns {
                out.append("\(c.name):\(c.type)")
                out += (0..<t.rowCount).map { "\(c.value(at: $0))" }
            }
            return out
        }
    }

    static func load(_ path: String, name: String? = nil) throws -> LoadResult {
        try Loaders.load(LoadRequest(path: path, name: name, zone: .utc))
    }

    /// The warnings without the file's name, which differs between the plain and compressed file.
    static func messages(_ r: LoadResult) -> [String] { r.warnings.map { "\($0.line.map(String.init) ?? "-") \($0.message)" } }

    /// A compressed file loads as the plain one does: the same tables, cells and warnings.
    func expectSame(plain: String, compressed: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try Self.load(plain, name: "t"), b = try Self.load(compressed, name: "t")
        let x = Self.cells(a), y = Self.cells(b)
        #expect(x.count == y.count, sourceLocation: sourceLocation)
        if let i = zip(x, y).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("\(compressed) differs at \(i): \(x[i]) vs \(y[i])", sourceLocation: sourceLocation)
        }
        #expect(Self.messages(a) == Self.messages(b), sourceLocation: sourceLocation)
        #expect(a.summary == b.summary, sourceLocation: sourceLocation)
    }

    static let rides = bytes(Repo.path("datasets/rides.csv"))

    @Test func csvTsvAndJSONLoadAsTheirText() throws {
        let csv = Self.write("rides.csv", Self.rides)
        try expectSame(plain: csv, compressed: Self.write("rides.csv.gz", try Self.gzip(Self.rides)))
        try expectSame(plain: csv, compressed: Self.write("rides.csv.zst", Self.zstd(Self.rides)))
        let tsvText = Array(String(decoding: Self.rides, as: UTF8.self).replacingOccurrences(of: ",", with: "\t").utf8)
        let tsv = Self.write("rides.tsv", tsvText)
        try expectSame(plain: tsv, compressed: Self.write("rides.tsv.gz", try Self.gzip(tsvText)))
        // NDJSON and a JSON array, as utq writes them.
        let table = try Self.load(csv).tables[0]
        for format in [OutputFormat.ndjson, .json] {
            let text = TableWriter.bytes(table, format: format)
            let plain = Self.write("rides.\(format.rawValue)", text)
            try expectSame(plain: plain, compressed: Self.write("rides.\(format.rawValue).gz", try Self.gzip(text)))
            try expectSame(plain: plain, compressed: Self.write("rides.\(format.rawValue).zst", Self.zstd(text)))
        }
        // A JSON document read whole, with its rows found at a path.
        let document = Array("{\"response\": {\"items\": [{\"a\": 1, \"b\": \"x\"}, {\"a\": 2, \"b\": \"y\"}]}}".utf8)
        let doc = Self.write("doc.json.zst", Self.zstd(document))
        var request = LoadRequest(path: doc, zone: .utc)
        request.at = "response.items"
        #expect(try Loaders.load(request).tables[0].strings("b") == ["x", "y"])
    }

    /// A file's last line is looked at before its types are voted: a totals row is left out,
    /// and a last cell that breaks its column's type is said. A compressed file's end is known
    /// only once read; it must come out as the plain file does, whether its text fits in the
    /// first block read (small) or not (the totals row found at the end, the file read again).
    @Test func lastLinesAsInThePlainFile() throws {
        var big = "id,count,share\n"
        var random = SeededRandom(seed: 32)
        for i in 0..<30_000 { big += "\(i),\(random.next() % 100),0.\(random.next() % 1000)\n" }
        let cases: [(String, String)] = [
            ("small-total", "id,count\n1,5\n2,7\n3,9\nTotal,21\n"),
            ("small-widened", "service_id,start_date,end_date\nFULLW,20070101,20101231\nWE,2007p101,20101231\n"),
            ("big-total", big + "Total,9999999,1.0\n"),
            ("big-total-no-newline", big + "Sum,1,2"),
            ("big-data-last", big + "30000,5,0.5\n"),
        ]
        for (name, text) in cases {
            let bytes = Array(text.utf8)
            let plain = Self.write("\(name).csv", bytes)
            try expectSame(plain: plain, compressed: Self.write("\(name).csv.gz", try Self.gzip(bytes)))
            try expectSame(plain: plain, compressed: Self.write("\(name).csv.zst", Self.zstd(bytes)))
        }
        // What the plain files do, so the comparison above means something.
        let total = try Self.load(Self.write("big-total.csv.gz", try Self.gzip(Array((big + "Total,9999999,1.0\n").utf8))))
        #expect(total.tables[0].rowCount == 30_000)
        #expect(total.tables[0].column("id")?.type == .int)
        #expect(Self.messages(total).contains { $0.hasPrefix("30002 the last line (Total,9999999,1.0) is left out") })
        let widened = try Self.load(Self.write("small-widened.csv.zst", Self.zstd(Array(cases[1].1.utf8))))
        #expect(Self.messages(widened).contains { $0.hasPrefix("3 start_date is kept as text: 1 of 2 cells is not a number") })
    }

    @Test func formatsKnownByTheirTextInside() throws {
        // A Behaviour Mapper export, a PLDP count and a Behaviour Mapper project, each compressed.
        for (file, inside) in [("datasets/market-export.csv", "market-export.csv"), ("datasets/pldp-sf/sf-pedvol.csv", "sf-pedvol.csv"),
                               ("datasets/market.json", "market.json")] {
            let text = Self.bytes(Repo.path(file))
            let plain = Self.write(inside, text)
            try expectSame(plain: plain, compressed: Self.write(inside + ".gz", try Self.gzip(text)))
            try expectSame(plain: plain, compressed: Self.write(inside + ".zst", Self.zstd(text)))
        }
        // A file in UTF-16 is converted inside its compression too.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "a,b\n1,é\n2,ü\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let loaded = try Self.load(Self.write("utf16.csv.gz", try Self.gzip(utf16)))
        #expect(loaded.tables[0].strings("b") == ["é", "ü"])
        #expect(loaded.warnings.contains { $0.message.contains("UTF-16") })
    }

    @Test func tableNamesDropBothSuffixes() {
        #expect(Loaders.tableName(for: "data/rides.csv.gz") == "rides")
        #expect(Loaders.tableName(for: "rides.ndjson.zst") == "rides")
        #expect(Loaders.tableName(for: "rides.JSON.GZ") == "rides")
        #expect(OutputFormat.forFile("out.tsv.zst") == .tsv)
        #expect(OutputFormat.forFile("out.gz") == nil)
    }

    @Test func membersAndFramesReadAsOneStream() throws {
        let text = String(decoding: Self.rides, as: UTF8.self)
        let cut = text.index(text.startIndex, offsetBy: text.count / 3)
        let (first, second) = (Array(text[..<cut].utf8), Array(text[cut...].utf8))
        let csv = Self.write("rides-whole.csv", Self.rides)
        // Cut mid-line: the members join into one text before it is parsed.
        try expectSame(plain: csv, compressed: Self.write("members.csv.gz", try Self.gzip(first) + Self.gzip(second)))
        try expectSame(plain: csv, compressed: Self.write("frames.csv.zst", Self.zstd(first) + Self.zstd([]) + Self.zstd(second)))
        // Zeros after the last member pad the file, as tape archives do.
        try expectSame(plain: csv, compressed: Self.write("padded.csv.gz", try Self.gzip(Self.rides) + [UInt8](repeating: 0, count: 512)))
        // An empty text is an empty file.
        let empty = Self.write("empty.csv.gz", try Self.gzip([]))
        #expect(throws: LoadError.self) { try Self.load(empty) }
        #expect(makeSession().failure("load \(empty)")?.message.contains("the file is empty") == true)
    }

    /// Text larger than a decompressed block (1 MB), the head kept for the sample (4 MB) and
    /// a reading chunk, so every boundary is crossed, some of them inside quoted cells.
    @Test func largeTextAcrossBlocks() throws {
        var text = Array("id,note,n\n".utf8)
        var k = 0, short = 0
        while text.count < 9 << 20 {
            text += Array("\(k),\"a note, with a comma and a\nline break \(k % 97)\",\(k % 1000)\n".utf8)
            // A row that is short, now and then: its warning must name its line in the file.
            if k % 40_000 == 39_999 { text += Array("\(k),short\n".utf8); short += 1 }
            k += 1
        }
        text += Array("\(k),last line without a line break,1.5".utf8)
        let plain = Self.write("big.csv", text)
        try expectSame(plain: plain, compressed: Self.write("big.csv.gz", try Self.gzip(text)))
        let zst = Self.write("big.csv.zst", Self.zstd(text))
        try expectSame(plain: plain, compressed: zst)
        // Tiny reading chunks on the stream agree with the plain file read in one part.
        var small = CSVOptions()
        small.chunkSize = 4093
        var one = CSVOptions()
        one.parts = 1
        let a = try CSVLoader.load(path: plain, name: "t", zone: .utc, options: one)
        let b = try CSVLoader.load(path: zst, name: "t", zone: .utc, options: small)
        #expect(a.table.rowCount == k + 1 + short)
        #expect(Self.cells(LoadResult(tables: [a.table], summary: "", warnings: [])) == Self.cells(LoadResult(tables: [b.table], summary: "", warnings: [])))
        // The last column widens to numbers only at the end: the stream is read again.
        #expect(b.table.column("n")?.type == .double)
        #expect(a.warnings.contains { $0.kind == .rowLength })
        #expect(a.warnings.map { "\($0.line ?? 0) \($0.message)" } == b.warnings.map { "\($0.line ?? 0) \($0.message)" })
        // The stream read in one part, in order, as one worker does.
        let c = try CSVLoader.load(path: zst, name: "t", zone: .utc, options: one)
        #expect(Self.cells(LoadResult(tables: [a.table], summary: "", warnings: [])) == Self.cells(LoadResult(tables: [c.table], summary: "", warnings: [])))
        #expect(a.warnings.map(\.message) == c.warnings.map(\.message))
        // A quote never closed near the end is found at its line, whichever part it falls in.
        let lines = text.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let broken = text + Array("\n1,\"never closed,2\n3,4,5\n".utf8)
        let plainBroken = Self.write("broken.csv", broken)
        let gzBroken = Self.write("broken.csv.gz", try Self.gzip(broken))
        for path in [plainBroken, gzBroken] {
            #expect(throws: LoadError.self) { try Self.load(path) }
            do { _ = try Self.load(path) } catch let e as LoadError {
                #expect(e.line == lines + 1, "\(e)")
                #expect(e.message.contains("never closed"))
            }
        }
    }

    @Test func progressCountsCompressedBytes() throws {
        let path = Self.write("progress.csv.gz", try Self.gzip(Self.rides))
        let size = Self.bytes(path).count
        let progress = LoadProgress()
        progress.begin(path, bytes: size)
        var request = LoadRequest(path: path, zone: .utc)
        request.progress = progress
        _ = try Loaders.load(request)
        let seen = progress.snapshot
        progress.end()
        #expect(seen?.1 == size, "read \(String(describing: seen)) of \(size)")
    }

    /// Everything a user could see of the loaded tables.
    static func snapshot(_ s: Session) -> [String] {
        s.catalog.names.flatMap { name -> [String] in
            let t = s.catalog.table(name)!
            return ["\(name) \(t.rowCount) \(t.columnNames)"] + t.columns.map { c in (0..<t.rowCount).map { "\(c.value(at: $0))" }.joined(separator: "|") }
        } + ["current: \(s.currentTable ?? "-")"]
    }

    @Test func damagedAndCutStreamsSayWhereAndChangeNothing() throws {
        let gz = try Self.gzip(Self.rides)
        let zst = Self.zstd(Self.rides)
        let cutGz = Self.write("cut.csv.gz", Array(gz.prefix(gz.count * 2 / 3)))
        let cutZst = Self.write("cut.csv.zst", Array(zst.prefix(zst.count / 2)))
        var damaged = gz
        for i in stride(from: gz.count / 2, to: gz.count / 2 + 64, by: 1) { damaged[i] ^= 0x5A }
        var badTrailer = gz
        badTrailer[badTrailer.count - 6] ^= 0xFF  // the CRC of the text
        let cases: [(String, [String])] = [
            (cutGz, ["the gzip stream ends early at byte \(NumberText.grouped(gz.count * 2 / 3)): the file is truncated"]),
            (cutZst, ["the zstd stream ends early at byte \(NumberText.grouped(zst.count / 2)): the file is truncated"]),
            (Self.write("damaged.csv.gz", damaged), ["the gzip stream is damaged at byte"]),
            (Self.write("crc.csv.gz", badTrailer), ["the gzip stream is damaged at byte", "incorrect data check"]),
            (Self.write("trailing.csv.gz", gz + Array("more text".utf8)), ["after the gzip stream ends at byte \(NumberText.grouped(gz.count))", "not gzip"]),
            (Self.write("header-only.csv.gz", [0x1F, 0x8B]), ["the gzip stream ends early at byte 2"]),
            // What is inside is checked as a plain file is: a tar archive, an image.
            (Self.write("archive.tar.gz", try Self.gzip(Array(repeating: 0x61, count: 100) + Array(repeating: 0, count: 157) + Array("ustar\u{0}00".utf8)
                                                         + Array(repeating: 0, count: 1024))), ["is a tar archive", "tar xf"]),
            (Self.write("image.csv.zst", Self.zstd([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64))), ["PNG image"]),
        ]
        let s = makeSession()
        #expect(s.run("load datasets/market.json\nload datasets/rides.csv as cut").isEmpty)
        let before = Self.snapshot(s)
        for (path, expected) in cases {
            for command in ["load \(path)", "load \(path) as cut", "load \(path) as market"] {
                guard let e = s.failure(command) else { Issue.record("\(command) did not fail"); continue }
                for text in expected + ["cannot load \(path)"] { #expect(e.message.contains(text), "\(command): \(e.message)") }
            }
            #expect(Self.snapshot(s) == before, "\(path) changed the tables")
        }
    }

    @Test func saveWritesCompressedFilesOthersRead() throws {
        let s = makeSession()
        let out = Self.dir + "/saved"
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(s.run("load datasets/rides.csv").isEmpty)
        let table = try Self.load(Repo.path("datasets/rides.csv"), name: "rides").tables[0]
        for (name, format) in [("r.csv.gz", OutputFormat.csv), ("r.tsv.gz", .tsv), ("r.json.gz", .json), ("r.ndjson.zst", .ndjson), ("r.csv.zst", .csv)] {
            let path = out + "/" + name
            unlink(path)
            #expect(s.run("rides | save \(path)").isEmpty)
            let written = Self.bytes(path)
            #expect(Compression.of(written) == (name.hasSuffix(".gz") ? .gzip : .zstd))
            let text = TableWriter.bytes(table, format: format)
            // The tools read what save wrote, byte for byte the text of a plain save.
            if name.hasSuffix(".gz"), let gz = Self.tool("gzip") {
                #expect(try Self.run(gz, ["-dc"], inputFile: path) == text, "gzip -dc \(name)")
            }
            if name.hasSuffix(".zst"), let zstd = Self.tool("zstd") {
                #expect(try Self.run(zstd, ["-dcq"], inputFile: path) == text, "zstd -dc \(name)")
            }
            let size = ZSTD_getFrameContentSize(written, written.count)
            if name.hasSuffix(".zst") { #expect(size == UInt64(text.count)) }
            // And utq reads it back as the table it was.
            let back = try Self.load(path, name: "rides")
            #expect(back.tables[0].rowCount == table.rowCount)
            #expect(back.tables[0].strings("price") == table.strings("price"))
            #expect(back.tables[0].strings("requested_at") == table.strings("requested_at"))
        }
        // An existing file is kept unless save! replaces it, compressed or not.
        let existing = out + "/r.csv.gz"
        #expect(s.failure("rides | save \(existing)")?.message.contains("the file exists") == true)
        #expect(s.run("rides | limit 3 | save! \(existing)").isEmpty)
        #expect(try Self.load(existing).tables[0].rowCount == 3)
    }
}
