import CLibPQ
import Foundation
import UTQCore

/// One libpq connection. Queries are sent without blocking and waited on in slices of a
/// tenth of a second, so Ctrl-C (the session's cancel flag) sends the server a cancel request
/// instead of waiting for the query to end.
final class PGConnection: @unchecked Sendable {
    /// The name the database is attached as, for what its errors say.
    var owner = ""
    private let conn: OpaquePointer
    private let pq: LibPQ
    /// libpq's functions, for reading the rows `stream` hands over.
    var library: LibPQ { pq }
    private let lock = NSLock()
    /// host:port/dbname, for messages.
    let location: String

    init(uri: String) throws {
        let pq = try LibPQ.load()
        self.pq = pq
        // connect_timeout: a host that does not answer must not hang the prompt.
        let keywords = ["dbname", "connect_timeout", "application_name", "client_encoding"]
        let values = [uri, "5", "utq", "UTF8"]
        let c = withCStrings(keywords) { k in withCStrings(values) { v in pq.connectdbParams(k, v, 1) } }
        guard let c else { throw Diagnostic("could not connect to \(uri): libpq has no memory") }
        if pq.status(c) != CONNECTION_OK {
            // libpq's message runs over lines indented with tabs: one line here.
            let reason = cText(pq.errorMessage(c)).split(whereSeparator: { $0 == "\n" || $0 == "\t" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
            pq.finish(c)
            throw Diagnostic("could not connect to \(PGConnection.redacted(uri)): \(reason)", hint: PGConnection.hint(for: reason))
        }
        conn = c
        let host = cText(pq.host(c)), port = cText(pq.port(c)), db = cText(pq.db(c))
        location = host.hasPrefix("/") ? "\(db) (socket \(host))" : "\(db) on \(host):\(port)"
        // Times come back in UTC and are shown in the table's zone by utq. A table is read from
        // its first page on (not joining a scan under way), so its rows come in one order.
        // Notices ("… does not exist, skipping") would go to stderr through libpq: only
        // warnings and errors are sent.
        _ = try query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 3; SET synchronize_seqscans = off; SET client_min_messages = warning")
    }

    deinit { pq.finish(conn) }

    /// A URI without its password, for messages.
    static func redacted(_ uri: String) -> String { SecretText.masked(uri) }

    /// What to try, by the cause libpq gives; the form of a URI only when the URI is the cause.
    static func hint(for reason: String) -> String? {
        let r = reason.lowercased()
        func has(_ s: String) -> Bool { r.contains(s) }
        if has("password authentication failed") || has("no password supplied") {
            return "check the user and password: postgresql://USER:PASSWORD@host/dbname, or a line in ~/.pgpass"
        }
        if has("database") && has("does not exist") { return "the server has no such database: psql -l lists those it has" }
        if has("role") && has("does not exist") { return "the server has no such user: name one with postgresql://USER@host/dbname or ?user=USER" }
        if has("no such file or directory") && has("socket") {
            return "no server listens at that socket: is PostgreSQL running, and is host= the folder its socket is in?"
        }
        if has("connection refused") { return "no server answered there: is PostgreSQL running, on that host and port, and listening on TCP?" }
        if has("could not translate host name") || has("name or service not known") { return "the host name is not known: check how it is spelt" }
        if has("timeout expired") { return "the server did not answer within 5 seconds: is the host reachable from here?" }
        if has("invalid") || has("missing \"=\"") || has("uri") || has("unrecognized") {
            return "a URI looks like postgresql://user@host:5432/dbname, or postgresql:///dbname?host=/path/to/socket"
        }
        return nil
    }

    /// A name as SQL, quoted by libpq (quotes inside doubled).
    func identifier(_ name: String) -> String {
        escaped(name, by: pq.escapeIdentifier) ?? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A text value as an SQL literal, quoted by libpq (quotes and backslashes escaped).
    func literal(_ text: String) -> String {
        escaped(text, by: pq.escapeLiteral) ?? "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private func escaped(_ text: String, by escape: @convention(c) (LibPQ.Conn, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?) -> String? {
        lock.lock(); defer { lock.unlock() }
        let bytes = Array(text.utf8)
        let p = bytes.withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { escape(conn, $0.baseAddress, b.count) } }
        guard let p else { return nil }
        defer { pq.freemem(UnsafeMutableRawPointer(p)) }
        return String(cString: p)
    }

    /// How long the last query took until its whole result had arrived (the server's work and
    /// the transfer), in seconds; reading the rows into columns comes after.
    private(set) var lastWait: Double = 0

    /// Runs SQL; the last statement's rows. Cancelled on the server when `cancel` is set.
    @discardableResult
    func query(_ sql: String, cancel: CancellationFlag? = nil) throws -> PGRows {
        lock.lock(); defer { lock.unlock() }
        let started = DispatchTime.now().uptimeNanoseconds
        var arrived: UInt64 = 0
        defer { lastWait = Double((arrived == 0 ? DispatchTime.now().uptimeNanoseconds : arrived) - started) / 1e9 }
        guard pq.sendQuery(conn, sql) == 1 else { throw failure(sql) }
        let socket = pq.socket(conn)
        var cancelled = false
        while pq.isBusy(conn) == 1 {
            var fds = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, 100)
            if pq.consumeInput(conn) == 0 { throw failure(sql) }
            if !cancelled, cancel?.isCancelled == true {
                cancelled = true
                if let handle = pq.getCancel(conn) {
                    var buffer = [CChar](repeating: 0, count: 256)
                    _ = pq.cancel(handle, &buffer, Int32(buffer.count))
                    pq.freeCancel(handle)
                }
            }
        }
        arrived = DispatchTime.now().uptimeNanoseconds
        var rows: PGRows? = nil
        // The server's reason for the first result that failed.
        var refusal: String? = nil, state = ""
        while let result = pq.getResult(conn) {
            defer { pq.clear(result) }
            switch pq.resultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_COPY_IN:
                rows = PGRows(result, pq)
            default:
                if refusal == nil {
                    refusal = cText(pq.resultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
                    state = cText(pq.resultErrorField(result, 67))   // PG_DIAG_SQLSTATE ('C')
                }
            }
        }
        if let refusal {
            if cancelled { throw CancellationError() }
            throw failure(refusal, state: state)
        }
        if cancelled { throw CancellationError() }
        return rows ?? PGRows(columns: [], types: [], cells: [], nulls: [])
    }

    /// What a failed result means, by its message and SQLSTATE.
    private func failure(_ refusal: String, state: String) -> Error {
        // A server process that ended (shut down, or terminated by an administrator) says
        // so in its last result; the connection is gone then, not the query refused.
        if pq.status(conn) != CONNECTION_OK {
            return Diagnostic("the connection to \(location) was lost: \(refusal)", hint: "attach the database again")
        }
        if let ranOut = PGConnection.clientOutOfMemory(refusal, state: state, database: owner.isEmpty ? location : owner) { return ranOut }
        // A table or column gone or changed since the tables were read (undefined table,
        // undefined column, a type that no longer matches).
        if ["42P01", "42703", "42804"].contains(state) { return DatabaseChanged(database: owner, reason: refusal) }
        return Diagnostic("the database refused the query: \(refusal)", hint: "explain shows the SQL utq sends")
    }

    /// libpq's own failure to allocate ("out of memory for query result") comes as a failed
    /// result like the server's refusals, but without a SQLSTATE, which only the server
    /// gives (its own "out of memory" is 53200): it is this process that ran out.
    static func clientOutOfMemory(_ message: String, state: String, database: String) -> Diagnostic? {
        guard state.isEmpty, message.lowercased().contains("out of memory") else { return nil }
        return Diagnostic("utq ran out of memory reading the result from \(database) (\(message))",
                          hint: "have the database send less: a limit, a summary such as count by, or a where runs there; "
                              + "set memory-limit SIZE stops a result before it takes more than SIZE")
    }

    /// Runs one SELECT and hands its rows to `row` as they arrive, each a result of its own
    /// that is freed when `row` returns, so the client never holds the whole result: libpq's
    /// single-row mode. (Measured on 5M rows of four columns against a local server: the
    /// whole result at once 3.1 s and 590 MB; single rows 2.0 s and 6 MB; a cursor fetched
    /// 5,000 rows at a time 2.2 s, 50,000 at a time 3.0 s, the server idle while the client
    /// reads each batch. Single rows also keep the plan the server would choose for the
    /// query, where a cursor asks for one that starts fast.)
    ///
    /// `columns` is called once with the result's column names before the first row. When
    /// `row` throws, or `cancel` is set, the server is asked to cancel the query and the rows
    /// still on their way are read and dropped, so the connection is ready for the next query.
    func stream(_ sql: String, cancel: CancellationFlag?, columns: ([String]) throws -> Void,
                row: (_ result: OpaquePointer) throws -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        var waited: UInt64 = 0
        defer { lastWait = Double(waited) / 1e9 }
        guard pq.sendQuery(conn, sql) == 1 else { throw failure(sql) }
        _ = pq.setSingleRowMode(conn)
        let socket = pq.socket(conn)
        var cancelled = false, stopped: Error? = nil, described = false
        var refusal: String? = nil, state = ""
        func askToCancel() {
            guard !cancelled else { return }
            cancelled = true
            if let handle = pq.getCancel(conn) {
                var buffer = [CChar](repeating: 0, count: 256)
                _ = pq.cancel(handle, &buffer, Int32(buffer.count))
                pq.freeCancel(handle)
            }
        }
        var k = 0
        while true {
            if pq.isBusy(conn) == 1 {
                let started = DispatchTime.now().uptimeNanoseconds
                while pq.isBusy(conn) == 1 {
                    var fds = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                    _ = poll(&fds, 1, 100)
                    if pq.consumeInput(conn) == 0 { throw failure(sql) }
                    if cancel?.isCancelled == true { askToCancel() }
                }
                waited += DispatchTime.now().uptimeNanoseconds - started
            }
            guard let result = pq.getResult(conn) else { break }
            defer { pq.clear(result) }
            switch pq.resultStatus(result) {
            case PGRES_SINGLE_TUPLE, PGRES_TUPLES_OK:
                guard stopped == nil, !cancelled else { continue }
                do {
                    if !described {
                        described = true
                        try columns((0..<Int(pq.nfields(result))).map { cText(pq.fname(result, Int32($0))) })
                    }
                    if pq.resultStatus(result) == PGRES_SINGLE_TUPLE { try row(result) }
                } catch {
                    stopped = error
                    askToCancel()
                }
                k &+= 1
                if k & 0xFFF == 0, cancel?.isCancelled == true { askToCancel() }
            case PGRES_COMMAND_OK:
                continue
            default:
                if refusal == nil {
                    refusal = cText(pq.resultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
                    state = cText(pq.resultErrorField(result, 67))   // PG_DIAG_SQLSTATE ('C')
                }
            }
        }
        if let stopped { throw stopped }
        if cancelled { throw CancellationError() }
        if let refusal { throw failure(refusal, state: state) }
        if !described { try columns([]) }
    }

    /// Sends rows to a `COPY … FROM STDIN` already started by `sql`.
    func copyIn(_ sql: String, chunks: (_ send: ([UInt8]) throws -> Void) throws -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard let start = pq.exec(conn, sql) else { throw failure(sql) }
        let status = pq.resultStatus(start)
        let message = cText(pq.resultErrorMessage(start))
        pq.clear(start)
        guard status == PGRES_COPY_IN else { throw Diagnostic("the database refused the copy: \(message.trimmingCharacters(in: .whitespacesAndNewlines))") }
        var failed: Error? = nil
        do {
            try chunks { bytes in
                let ok = bytes.withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { pq.putCopyData(conn, $0.baseAddress, Int32(b.count)) } }
                if ok != 1 { throw failure(sql) }
            }
        } catch { failed = error }
        _ = pq.putCopyEnd(conn, failed == nil ? nil : "cancelled")
        var error: Error? = failed
        while let result = pq.getResult(conn) {
            if pq.resultStatus(result) != PGRES_COMMAND_OK, error == nil {
                error = Diagnostic("the copy failed: \(cText(pq.resultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            pq.clear(result)
        }
        if let error { throw error }
    }

    private func failure(_ sql: String) -> Error {
        let message = cText(pq.errorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
        if pq.status(conn) != CONNECTION_OK {
            return Diagnostic("the connection to \(location) was lost: \(message)", hint: "attach the database again")
        }
        if let ranOut = PGConnection.clientOutOfMemory(message, state: "", database: owner.isEmpty ? location : owner) { return ranOut }
        return Diagnostic("the database refused the query: \(message)")
    }
}

/// A query's rows as text, as libpq gives them.
struct PGRows {
    var columns: [String]
    var types: [UInt32]
    /// cells[column][row]
    var cells: [[String]]
    var nulls: [[Bool]]

    /// No columns and no rows.
    static let none = PGRows(columns: [], types: [], cells: [], nulls: [])

    init(columns: [String], types: [UInt32], cells: [[String]], nulls: [[Bool]]) {
        self.columns = columns; self.types = types; self.cells = cells; self.nulls = nulls
    }

    init(_ r: OpaquePointer, _ pq: LibPQ) {
        let n = Int(pq.ntuples(r)), w = Int(pq.nfields(r))
        columns = (0..<w).map { cText(pq.fname(r, Int32($0))) }
        types = (0..<w).map { UInt32(pq.ftype(r, Int32($0))) }
        cells = (0..<w).map { c in (0..<n).map { cText(pq.getvalue(r, Int32($0), Int32(c))) } }
        nulls = (0..<w).map { c in (0..<n).map { pq.getisnull(r, Int32($0), Int32(c)) == 1 } }
    }

    var count: Int { cells.first?.count ?? 0 }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers = copies.map { UnsafePointer<CChar>($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { body(UnsafePointer($0.baseAddress!)) }
}

/// A C string from libpq as text ("" for none).
func cText(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
