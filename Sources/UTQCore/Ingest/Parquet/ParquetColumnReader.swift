import Foundation

/// One column of a Parquet file: its row groups decoded in parallel into one array, their
/// null bits joined, and for text their dictionaries merged into one.
struct ParquetColumnReader {
    let file: ParquetFile
    let plan: ParquetColumnPlan
    /// The first row of each row group, and the total at the end.
    let starts: [Int]
    let zone: ZoneRules
    let request: LoadRequest
    let stop: ParallelParts<(Column, [String])>
    let pool: ChunkScratchPool

    var rows: Int { starts.last! }
    var groups: Int { starts.count - 1 }

    func read() throws -> (Column, [String]) {
        var notes: [String] = []
        var outcomes: [ChunkOutcome] = []
        let column: Column
        switch plan.lane {
        case .none:
            return (Column.nulls(plan.name, count: rows), [])
        case .int:
            var values = try filled(Int64.self, &outcomes) { .int($0) }
            let validity = joinedValidity(outcomes)
            if outcomes.contains(where: \.pastInt64) {
                notes.append("\(plan.name) holds whole numbers past 9,223,372,036,854,775,807 (UINT64); it is read as decimal numbers")
                let doubles = values.map { Double(UInt64(bitPattern: $0)) }
                values = []
                column = Column(name: plan.name, storage: .double(doubles), validity: validity)
            } else {
                column = made(values, validity: validity)
            }
            let bad = outcomes.reduce(0) { $0 + $1.outOfRange }
            if bad > 0 {
                let what = plan.time?.isTimestamp == true ? "times outside the years 1 to 9999" : "durations longer than utq holds"
                notes.append("\(plan.name): \(NumberText.grouped(bad)) \(bad == 1 ? "value is" : "values are") \(what); left empty")
            }
        case .double:
            let values = try filled(Double.self, &outcomes) { .double($0) }
            column = Column(name: plan.name, storage: .double(values), validity: joinedValidity(outcomes))
        case .bool:
            let values = try filled(Bool.self, &outcomes) { .bool($0) }
            column = Column(name: plan.name, storage: .bool(values), validity: joinedValidity(outcomes))
        case .code:
            if let narrow = try narrowText(&notes) { return (narrow, notes) }
            let wide = try filled(UInt32.self, &outcomes) { .code($0) }
            let (codes, dictionary) = mergeDictionaries(outcomes, codes: wide, notes: &notes)
            column = Column(name: plan.name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)), validity: joinedValidity(outcomes))
        }
        return (column, notes)
    }

    /// Whole numbers as the plan's output: numbers, times or durations.
    func made(_ values: [Int64], validity: Bitmap?) -> Column {
        switch plan.output {
        case .timestamp(let day, let floating):
            var c = Column(name: plan.name, storage: .timestamp(values), validity: validity, unit: day ? .day : .automatic)
            c.floating = floating
            return c
        case .duration(let clock):
            return Column(name: plan.name, storage: .duration(values), validity: validity, unit: clock ? .clock : .automatic)
        default:
            return Column(name: plan.name, storage: .int(values), validity: validity)
        }
    }

    /// An array of every row, each row group decoded into its own rows by a worker.
    func filled<T>(_ type: T.Type, _ outcomes: inout [ChunkOutcome], _ lane: (UnsafeMutablePointer<T>) -> LaneOutput) throws -> [T] {
        if rows == 0 {
            outcomes = Array(repeating: ChunkOutcome(), count: groups)
            return []
        }
        var found: [ChunkOutcome] = []
        let values = try [T](unsafeUninitializedCapacity: rows) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: rows * MemoryLayout<T>.stride)
            let output = lane(buffer.baseAddress!)
            let parts = ParallelParts<ChunkOutcome>(count: groups)
            let shared = UnsafeSendable(output)
            DispatchQueue.concurrentPerform(iterations: groups) { g in
                parts.set(g, Result { try decodeGroup(g, into: shared.value) })
            }
            found = try (0..<groups).map { try parts.get($0) }
            initialized = rows
        }
        outcomes = found
        return values
    }

    func decodeGroup(_ g: Int, into output: LaneOutput) throws -> ChunkOutcome {
        if stop.failed || request.cancel?.isCancelled == true { throw CancellationError() }
        let count = starts[g + 1] - starts[g]
        let place = "column \(plan.name), row group \(g + 1)"
        let chunk = file.footer.rowGroups[g].columns[plan.leaf]
        let scratch = pool.take()
        defer { pool.give(scratch) }
        do {
            let bytes = try file.chunk(chunk, into: scratch.chunk)
            request.progress?.advance(bytes.count)
            if count == 0 { return ChunkOutcome() }
            let decoder = ChunkDecoder(plan: plan, codec: ParquetCodec(rawValue: chunk.codec) ?? .uncompressed, zone: zone, scratch: scratch)
            return try decoder.decode(bytes, rows: count, into: output.advanced(by: starts[g]))
        } catch let e as PageError {
            // Say what it means for the file unless the message does.
            let damaged = e.saysDamaged ? "" : "; the file is damaged"
            throw LoadError(path: file.path, "\(place), \(e.message)\(damaged)")
        }
    }

    /// The row groups' null bits one after another; nil when every row holds a value.
    func joinedValidity(_ outcomes: [ChunkOutcome]) -> Bitmap? {
        guard outcomes.contains(where: { $0.validity != nil }) else { return nil }
        var words = [UInt64](repeating: 0, count: (rows + 63) / 64)
        words.withUnsafeMutableBufferPointer { w in
            for (g, o) in outcomes.enumerated() {
                let start = starts[g], count = starts[g + 1] - start
                guard let v = o.validity else { setBits(w.baseAddress!, from: start, count: count); continue }
                let shift = start & 63
                for (k, word) in v.enumerated() {
                    // The chunk's bits past its rows are zero, so whole words can be or-ed in.
                    let bits = min(64, count - k * 64)
                    if bits <= 0 { break }
                    let masked = bits == 64 ? word : word & ((1 << UInt64(bits)) - 1)
                    let at = (start >> 6) + k
                    w[at] |= masked << UInt64(shift)
                    if shift > 0 && at + 1 < w.count { w[at + 1] |= masked >> UInt64(64 - shift) }
                }
            }
        }
        return Bitmap(words: words, count: rows)
    }

    /// One dictionary for the column: each row group's strings interned again, its codes
    /// mapped to the merged ones (the first group's map onto themselves) as they are put in
    /// the width the merged dictionary needs, in one pass (DictionaryCodes).
    func mergeDictionaries(_ outcomes: [ChunkOutcome], codes wide: [UInt32], notes: inout [String]) -> (DictionaryCodes, [String]) {
        let (merged, maps) = Self.merged(outcomes.map(\.interner))
        // A map onto the codes themselves is no map.
        let remaps = maps.map { m in m.flatMap { m in m.indices.allSatisfy { m[$0] == UInt32($0) } ? nil : m } }
        /// Each group's codes through its map (a code past it, under a null, kept), narrowed to `T`.
        func mapped<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> [T] {
            [T](unsafeUninitializedCapacity: wide.count) { out, made in
                wide.withUnsafeBufferPointer { c in
                    let source = UnsafeSendable(c.baseAddress), target = UnsafeSendable(out.baseAddress)
                    DispatchQueue.concurrentPerform(iterations: groups) { g in
                        guard let from = source.value, let to = target.value else { return }
                        guard let map = remaps[g] else {
                            for i in starts[g]..<starts[g + 1] { to[i] = T(truncatingIfNeeded: from[i]) }
                            return
                        }
                        map.withUnsafeBufferPointer { m in
                            for i in starts[g]..<starts[g + 1] {
                                let code = from[i]
                                to[i] = T(truncatingIfNeeded: Int(code) < m.count ? m[Int(code)] : code)
                            }
                        }
                    }
                }
                made = wide.count
            }
        }
        let codes: DictionaryCodes
        if merged.count <= 1 << 8 {
            codes = DictionaryCodes(lanes: .u8(mapped(UInt8.self)))
        } else if merged.count <= 1 << 16 {
            codes = DictionaryCodes(lanes: .u16(mapped(UInt16.self)))
        } else {
            codes = DictionaryCodes(lanes: .u32(remaps.allSatisfy { $0 == nil } ? wide : mapped(UInt32.self)))
        }
        return (codes, strings(of: merged, badText: outcomes.contains(where: \.notUTF8), notes: &notes))
    }

    /// The row groups' strings interned again into one dictionary, and each group's map from
    /// its codes to the merged ones (nil for a group without strings).
    static func merged(_ interners: [ByteInterner?]) -> (ByteInterner, [[UInt32]?]) {
        var merged = ByteInterner()
        let maps = interners.map { local in
            local.map { local in
                (0..<local.count).map { code in local.bytes(of: code).withUnsafeBytes { merged.intern($0) } }
            }
        }
        return (merged, maps)
    }

    /// The merged dictionary's values as the column shows them.
    func strings(of merged: ByteInterner, badText: Bool, notes: inout [String]) -> [String] {
        switch plan.read {
        case .text(.uuid):
            return (0..<merged.count).map { ParquetText.uuid(merged.bytes(of: $0)) }
        case .text(.hex):
            return (0..<merged.count).map { ParquetText.hex(merged.bytes(of: $0)) }
        case .text(.bytes) where badText:
            notes.append("\(plan.name) holds bytes that are not text (BYTE_ARRAY without a type); they are shown in hexadecimal")
            return (0..<merged.count).map { ParquetText.hex(merged.bytes(of: $0)) }
        default:
            if badText { notes.append("\(plan.name): bytes that are not UTF-8 are shown as U+FFFD (\u{FFFD})") }
            return merged.strings()
        }
    }
}

extension LaneOutput {
    func advanced(by n: Int) -> LaneOutput {
        switch self {
        case .int(let p): return .int(p + n)
        case .double(let p): return .double(p + n)
        case .bool(let p): return .bool(p + n)
        case .code(let p): return .code(p + n)
        case .narrow(let c): return .narrow(c.advanced(by: n))
        case .none: return .none
        }
    }

    var isNarrow: Bool { if case .narrow = self { true } else { false } }
}

/// Bytes shown as text: hexadecimal, and UUIDs in their usual groups.
enum ParquetText {
    static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func uuid(_ bytes: ArraySlice<UInt8>) -> String {
        let h = Array(hex(bytes))
        guard h.count == 32 else { return String(h) }
        return [h[0..<8], h[8..<12], h[12..<16], h[16..<20], h[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
