import Foundation

extension Interpreter {
    /// `load`: reads the file whole first; only then do the tables change.
    /// A path with wildcards (`days/*.csv`) that names no file itself loads every file it
    /// matches as one table.
    func load(path: String, alias: String?, at: String?, options: LoadOptions = LoadOptions(), into outcome: inout CommandOutcome) throws {
        var (full, which) = session.files.lookUp(path, relativeTo: source)
        var pattern: FilePattern? = nil
        if FilePattern.isPattern(path) && !FileManager.default.fileExists(atPath: full) {
            let p = FilePattern(path)
            pattern = p
            (full, which) = session.files.lookUp(p.folder.isEmpty ? "." : p.folder, relativeTo: source)
            if at != nil { throw Diagnostic("at PATH is for one JSON document; load the files one at a time to give it") }
        }
        // A folder of GTFS-Realtime snapshots (as a collector keeps them) is its .pb files.
        if pattern == nil, RealtimeLoader.isSnapshotFolder(full) {
            pattern = FilePattern((path as NSString).appendingPathComponent("*.pb"))
        }
        if let which { outcome.outputs.append(.info(which)) }
        var request = LoadRequest(path: full, name: alias ?? pattern.map(PatternLoader.tableName) ?? Loaders.tableName(for: path), at: at,
                                  zone: options.timezone.flatMap(ZoneRules.named) ?? session.defaultZone,
                                  cancel: session.cancel, progress: session.progress, memoryLimit: session.settings.memoryLimit)
        request.options = options
        // A large Parquet file's columns wait for the questions; a script's load reads the
        // columns the script names. A pattern's files each do.
        request.deferParquetAbove = session.deferParquetAbove
        request.namedColumns = session.namesAhead()
        let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? 0
        session.progress.begin(path, bytes: size)
        session.loadPhase?(true)
        defer { session.progress.end(); session.loadPhase?(false) }
        let result: LoadResult
        do {
            if let pattern {
                result = try PatternLoader.load(request, pattern: pattern, base: (full as NSString).standardizingPath)
            } else {
                result = try Loaders.load(request)
            }
        } catch var e as LoadError {
            // A pattern's loader names its files as the pattern does already.
            if pattern == nil { e.path = Self.asWritten(e.path, full: full, written: path) }
            var message = "cannot load \(e.description)"
            var hint: String? = nil
            if e.kind == .noSuchFile, let near = FileOutput.nearestFile(to: full) {
                let folder = (path as NSString).deletingLastPathComponent
                message += " — did you mean \(folder.isEmpty ? near : (folder as NSString).appendingPathComponent(near))?"
            } else if e.kind == .noSuchFile, !path.hasPrefix("/"), !path.hasPrefix("~/") {
                hint = session.files.lookedIn(relativeTo: source)
            }
            throw Diagnostic(message, hint: hint)
        }
        var entries = result.entries
        for k in entries.indices {
            // Messages of reading a deferred table later name the file as the user wrote it.
            if case .deferred(var d) = entries[k] { d.path = Self.asWritten(d.path, full: full, written: path); entries[k] = .deferred(d) }
        }
        workspace.put(entries, makeCurrent: true)
        if let current = result.current, workspace.catalog[current] != nil { workspace.use(current) }
        for w in result.warnings {
            var w = w
            if pattern == nil { w.path = Self.asWritten(w.path, full: full, written: path) }
            outcome.outputs.append(.warning(w.description))
        }
        outcome.outputs.append(.info(result.summary))
    }

    /// A path in a message as the user wrote it: the loaded path itself, or a file inside
    /// it (a GTFS feed's `stops.txt`), shown under the name the user gave.
    static func asWritten(_ reported: String, full: String, written: String) -> String {
        if reported == full { return written }
        let folder = full.hasSuffix("/") ? full : full + "/"
        guard reported.hasPrefix(folder) else { return reported }
        let base = written.hasSuffix("/") ? String(written.dropLast()) : written
        return base + "/" + reported.dropFirst(folder.count)
    }
}
