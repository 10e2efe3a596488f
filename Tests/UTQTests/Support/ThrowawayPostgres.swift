import Foundation

/// A PostgreSQL server of its own for a test: initdb into a temporary folder (as the
/// `postgres` user when the tests run as root, since initdb refuses root), a unix socket in
/// that folder and no TCP, fsync off, every statement logged. Stopped and removed by `stop`.
final class ThrowawayPostgres: @unchecked Sendable {
    let folder: String
    let log: String
    private let bin: String
    private let asPostgres: Bool

    /// Where PostgreSQL's server programs are (Debian puts them under /usr/lib/postgresql).
    static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root))?.sorted(by: >) ?? []
        for v in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/initdb") { return "\(root)/\(v)/bin" }
        return nil
    }

    /// Whether an extension that ships with the server (contrib) is installed.
    static func hasExtension(_ name: String) -> Bool {
        guard let bin = binaries else { return false }
        let version = URL(fileURLWithPath: bin).deletingLastPathComponent().lastPathComponent
        return FileManager.default.fileExists(atPath: "/usr/share/postgresql/\(version)/extension/\(name).control")
    }

    static var available: Bool { binaries != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") }

    /// Whether the PostgreSQL suites run: where it is installed, and always in CI, which
    /// installs it, so a missing server fails there instead of passing unseen.
    static var runs: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// `hba`: the lines of pg_hba.conf, when the test needs passwords (trust for all otherwise).
    init(hba: String? = nil) throws {
        guard let bin = Self.binaries else { throw TestError(description: "PostgreSQL is not installed (apt-get install postgresql)") }
        self.bin = bin
        asPostgres = getuid() == 0
        folder = "/tmp/utq-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        log = folder + "/server.log"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if asPostgres { try run("/bin/chown", ["postgres", folder], asUser: false) }
        try run("\(bin)/initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
        if let hba { try hba.write(toFile: folder + "/data/pg_hba.conf", atomically: false, encoding: .utf8) }
        try run("\(bin)/pg_ctl", ["-D", folder + "/data", "-l", log, "-w", "-o",
                                 "-k \(folder) -c listen_addresses='' -c fsync=off -c full_page_writes=off -c log_statement=all", "start"])
    }

    /// A libpq URI for a database of this server.
    func uri(_ database: String = "postgres") -> String { "postgresql:///\(database)?host=\(folder)&user=postgres" }

    /// Runs SQL through psql (stdin), failing on the first error.
    func psql(_ sql: String, database: String = "postgres") throws {
        try run("/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder, "-U", "postgres", "-d", database], input: sql, asUser: false)
    }

    /// The statements the server logged (a statement's further lines are logged indented).
    func statements() -> [String] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var out: [String] = []
        var inStatement = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("\t") {
                if inStatement { out[out.count - 1] += "\n" + line.dropFirst() }
                continue
            }
            // Simple queries log as "statement: …", prepared ones (postgres_fdw's) as "execute <name>: …".
            let found = line.range(of: "statement: ") ?? line.range(of: #"execute [^:]*: "#, options: .regularExpression)
            inStatement = found != nil
            if let found { out.append(String(line[found.upperBound...])) }
        }
        return out
    }

    func stop() {
        try? run("\(bin)/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a program to its end with posix_spawn and waitpid (Foundation's Process missed
    /// the exit of runuser once pg_ctl's server had started), output into a file.
    private func run(_ program: String, _ arguments: [String], input: String? = nil, asUser: Bool = true) throws {
        let stamp = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = NSTemporaryDirectory() + "utq-pg-out-\(stamp).txt"
        let inPath = NSTemporaryDirectory() + "utq-pg-in-\(stamp).sql"
        defer { try? FileManager.default.removeItem(atPath: outPath); try? FileManager.default.removeItem(atPath: inPath) }
        FileManager.default.createFile(atPath: inPath, contents: Data((input ?? "").utf8))
        let argv = (asUser && asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program]) + arguments
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let status = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard status == 0 else { throw TestError(description: "could not start \(argv[0]): \(String(cString: strerror(status)))") }
        var code: Int32 = 0
        while waitpid(pid, &code, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        if code != 0 { throw TestError(description: "\(program) failed (\(code)): \(text.suffix(800))") }
    }
}

extension ThrowawayPostgres {
    /// The SQL a coordinator runs to reach `shards` (servers shard0, shard1, … with a user
    /// mapping each) and, for each of `tables` (partitioned by hash over as many partitions
    /// as shards), one foreign-table partition per shard over the shard's table of that name.
    static func shardSQL(_ shards: [ThrowawayPostgres], database: String, tables: [String] = [], async: Bool = true) -> String {
        var sql = ""
        for (k, shard) in shards.enumerated() {
            sql += """
                CREATE SERVER shard\(k) FOREIGN DATA WRAPPER postgres_fdw
                  OPTIONS (host '\(shard.folder)', dbname '\(database)'\(async ? ", async_capable 'true'" : ""));
                CREATE USER MAPPING FOR postgres SERVER shard\(k) OPTIONS (user 'postgres');

                """
            for table in tables {
                sql += """
                    CREATE FOREIGN TABLE \(table)_\(k) PARTITION OF \(table) FOR VALUES WITH (MODULUS \(shards.count), REMAINDER \(k))
                      SERVER shard\(k) OPTIONS (table_name '\(table)');

                    """
            }
        }
        return sql
    }
}
