import Foundation

/// A text column whose every row group starts with a dictionary (as writers make them while
/// a chunk's distinct values stay few): the dictionaries are read and merged first, so the
/// merged codes' width is known before any row is, and each row group's indexes go through
/// its worker's scratch straight into that width. The rows' memory is then a byte a row for
/// a column of a few values, where decoding into four-byte codes and narrowing after touched
/// five times as many fresh pages, which the kernel hands out slowly.
extension ParquetColumnReader {
    /// One row group's dictionary: its values interned, and each entry's code among them.
    struct GroupDictionary {
        var interner: ByteInterner
        var codes: [UInt32]
        var notUTF8: Bool
    }

    /// The column read this way, or nil when a row group does not start with a dictionary or
    /// holds a page of values not from it (the general way then reads it).
    func narrowText(_ notes: inout [String]) throws -> Column? {
        guard rows > 0, groups > 0, let dictionaries = groupDictionaries() else { return nil }
        let (merged, locals) = Self.merged(dictionaries.map { $0?.interner })
        // Each group's dictionary entries, through their local codes, to the merged ones.
        let maps: [[UInt32]] = zip(dictionaries, locals).map { d, local in
            guard let d, let local else { return [] }
            return d.codes.map { local[Int($0)] }
        }
        var outcomes: [ChunkOutcome] = []
        let codes: DictionaryCodes
        do {
            if merged.count <= 1 << 8 {
                codes = DictionaryCodes(lanes: .u8(try narrowRows(UInt8.self, maps: maps, &outcomes)))
            } else if merged.count <= 1 << 16 {
                codes = DictionaryCodes(lanes: .u16(try narrowRows(UInt16.self, maps: maps, &outcomes)))
            } else {
                codes = DictionaryCodes(lanes: .u32(try narrowRows(UInt32.self, maps: maps, &outcomes)))
            }
        } catch is NotDictionaryOnly {
            return nil
        }
        let badText = dictionaries.contains { $0?.notUTF8 == true }
        let dictionary = strings(of: merged, badText: badText, notes: &notes)
        return Column(name: plan.name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)),
                      validity: joinedValidity(outcomes))
    }

    /// Each row group's dictionary (nil for a group of no rows), read from the first page of
    /// its chunk alone; nil when one does not start with a readable dictionary.
    func groupDictionaries() -> [GroupDictionary?]? {
        let parts = ParallelParts<GroupDictionary?>(count: groups)
        DispatchQueue.concurrentPerform(iterations: groups) { g in
            if parts.failed { parts.set(g, .failure(NotDictionaryOnly())); return }
            guard starts[g + 1] > starts[g] else { parts.set(g, .success(nil)); return }
            let chunk = file.footer.rowGroups[g].columns[plan.leaf]
            let scratch = pool.take()
            defer { pool.give(scratch) }
            guard let (header, body) = file.leadingPage(chunk, into: scratch.chunk), header.kind == .dictionary else {
                parts.set(g, .failure(NotDictionaryOnly())); return
            }
            let decoder = ChunkDecoder(plan: plan, codec: ParquetCodec(rawValue: chunk.codec) ?? .uncompressed, zone: zone, scratch: scratch)
            do {
                try decoder.dictionaryPage(try decoder.unpack(body, Int(header.uncompressedSize)), header: header)
                parts.set(g, .success(GroupDictionary(interner: decoder.interner, codes: decoder.dictionaryCodes, notUTF8: decoder.notUTF8)))
            } catch {
                parts.set(g, .failure(NotDictionaryOnly()))
            }
        }
        return try? (0..<groups).map { try parts.get($0) }
    }

    /// Every row's merged code in `T`, each row group decoded by a worker through its map.
    func narrowRows<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, maps: [[UInt32]], _ outcomes: inout [ChunkOutcome]) throws -> [T] {
        var found: [ChunkOutcome] = []
        let values = try [T](unsafeUninitializedCapacity: rows) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: rows * MemoryLayout<T>.stride)
            let base = UnsafeSendable(UnsafeMutableRawPointer(buffer.baseAddress!))
            let parts = ParallelParts<ChunkOutcome>(count: groups)
            DispatchQueue.concurrentPerform(iterations: groups) { g in
                parts.set(g, Result {
                    try maps[g].withUnsafeBufferPointer { m in
                        // A group of no rows has no map and is not decoded.
                        let map = m.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        let codes = NarrowCodes(base: base.value, width: MemoryLayout<T>.stride, map: map, mapCount: m.count)
                        return try decodeGroup(g, into: .narrow(codes))
                    }
                })
            }
            found = try (0..<groups).map { try parts.get($0) }
            initialized = rows
        }
        outcomes = found
        return values
    }
}
