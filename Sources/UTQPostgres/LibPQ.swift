import CLibPQ
import Foundation
import UTQCore

/// libpq, opened when a database is first attached rather than linked: libpq brings twenty
/// libraries with it (TLS, Kerberos, LDAP), which cost every run of utq 6 MB and a few
/// milliseconds at start, and a utq copied to a machine without libpq must still start.
/// The declarations come from libpq-fe.h; the functions from the library found at run time.
struct LibPQ: @unchecked Sendable {
    typealias Conn = OpaquePointer?
    typealias Result = OpaquePointer?
    let connectdbParams: @convention(c) (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> Conn
    let status: @convention(c) (Conn) -> ConnStatusType
    let errorMessage: @convention(c) (Conn) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Conn) -> Void
    let host: @convention(c) (Conn) -> UnsafeMutablePointer<CChar>?
    let port: @convention(c) (Conn) -> UnsafeMutablePointer<CChar>?
    let db: @convention(c) (Conn) -> UnsafeMutablePointer<CChar>?
    let escapeIdentifier: @convention(c) (Conn, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?
    let escapeLiteral: @convention(c) (Conn, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let sendQuery: @convention(c) (Conn, UnsafePointer<CChar>?) -> Int32
    let socket: @convention(c) (Conn) -> Int32
    let isBusy: @convention(c) (Conn) -> Int32
    let consumeInput: @convention(c) (Conn) -> Int32
    let getCancel: @convention(c) (Conn) -> OpaquePointer?
    let cancel: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let freeCancel: @convention(c) (OpaquePointer?) -> Void
    let getResult: @convention(c) (Conn) -> Result
    let clear: @convention(c) (Result) -> Void
    let resultStatus: @convention(c) (Result) -> ExecStatusType
    let resultErrorMessage: @convention(c) (Result) -> UnsafeMutablePointer<CChar>?
    let resultErrorField: @convention(c) (Result, Int32) -> UnsafeMutablePointer<CChar>?
    let exec: @convention(c) (Conn, UnsafePointer<CChar>?) -> Result
    let putCopyData: @convention(c) (Conn, UnsafePointer<CChar>?, Int32) -> Int32
    let putCopyEnd: @convention(c) (Conn, UnsafePointer<CChar>?) -> Int32
    let ntuples: @convention(c) (Result) -> Int32
    let nfields: @convention(c) (Result) -> Int32
    let fname: @convention(c) (Result, Int32) -> UnsafeMutablePointer<CChar>?
    let ftype: @convention(c) (Result, Int32) -> Oid
    let getvalue: @convention(c) (Result, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getisnull: @convention(c) (Result, Int32, Int32) -> Int32
    let getlength: @convention(c) (Result, Int32, Int32) -> Int32
    let setSingleRowMode: @convention(c) (Conn) -> Int32

    /// The library, opened once; nil with the reason when it cannot be found.
    static let shared: Swift.Result<LibPQ, Diagnostic> = open()

    static func load() throws -> LibPQ {
        switch shared {
        case .success(let lib): return lib
        case .failure(let e): throw e
        }
    }

    private static func open() -> Swift.Result<LibPQ, Diagnostic> {
        var handle: UnsafeMutableRawPointer? = nil
        for name in ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"] {
            handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
            if handle != nil { break }
        }
        guard let handle else {
            return .failure(Diagnostic("attach needs libpq, PostgreSQL's client library, which is not installed",
                                       hint: "Debian and Ubuntu: apt-get install libpq5; macOS: brew install libpq"))
        }
        let names = ["PQconnectdbParams", "PQstatus", "PQerrorMessage", "PQfinish", "PQhost", "PQport", "PQdb",
                     "PQescapeIdentifier", "PQescapeLiteral", "PQfreemem", "PQsendQuery", "PQsocket", "PQisBusy",
                     "PQconsumeInput", "PQgetCancel", "PQcancel", "PQfreeCancel", "PQgetResult", "PQclear", "PQresultStatus",
                     "PQresultErrorMessage", "PQresultErrorField", "PQexec", "PQputCopyData", "PQputCopyEnd", "PQntuples", "PQnfields", "PQfname",
                     "PQftype", "PQgetvalue", "PQgetisnull", "PQgetlength", "PQsetSingleRowMode"]
        let missing = names.filter { dlsym(handle, $0) == nil }
        if !missing.isEmpty {
            return .failure(Diagnostic("the libpq found is too old: it lacks \(missing.joined(separator: ", "))", hint: "install libpq 10 or later"))
        }
        // Every name was found above.
        func f<T>(_ name: String) -> T { unsafeBitCast(dlsym(handle, name)!, to: T.self) }
        let lib = LibPQ(
            connectdbParams: f("PQconnectdbParams"), status: f("PQstatus"), errorMessage: f("PQerrorMessage"),
            finish: f("PQfinish"), host: f("PQhost"), port: f("PQport"), db: f("PQdb"),
            escapeIdentifier: f("PQescapeIdentifier"), escapeLiteral: f("PQescapeLiteral"), freemem: f("PQfreemem"),
            sendQuery: f("PQsendQuery"), socket: f("PQsocket"), isBusy: f("PQisBusy"), consumeInput: f("PQconsumeInput"),
            getCancel: f("PQgetCancel"), cancel: f("PQcancel"), freeCancel: f("PQfreeCancel"), getResult: f("PQgetResult"),
            clear: f("PQclear"), resultStatus: f("PQresultStatus"), resultErrorMessage: f("PQresultErrorMessage"), resultErrorField: f("PQresultErrorField"),
            exec: f("PQexec"), putCopyData: f("PQputCopyData"), putCopyEnd: f("PQputCopyEnd"),
            ntuples: f("PQntuples"), nfields: f("PQnfields"), fname: f("PQfname"), ftype: f("PQftype"),
            getvalue: f("PQgetvalue"), getisnull: f("PQgetisnull"),
            getlength: f("PQgetlength"), setSingleRowMode: f("PQsetSingleRowMode"))
        return .success(lib)
    }
}
