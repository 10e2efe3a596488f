import Foundation
import UTQCore

/// Long help at the prompt, a screen at a time: `help` is taller than a 24-line window, and
/// its start would scroll away unread. The pager is $PAGER when set, else `less -FRX` (it
/// leaves the text on the screen when it quits), else a small one of utq's own.
/// Only the prompt pages (REPL): scripts, `-c`, pipes and notebooks get the text whole.
enum Pager {
    /// Whether `text` goes through the pager: the prompt's output is a terminal, paging is
    /// on (`set pager`, UTQ_PAGER), and the text does not fit above the next prompt.
    static func wanted(for text: String, session: Session) -> Bool {
        guard session.settings.pager, Terminal.stdoutIsTTY, Terminal.stdinIsTTY else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        return lines > Terminal.height - 1
    }

    /// UTQ_PAGER=off (or no, false, 0) turns paging off from the start.
    static var offByEnvironment: Bool {
        guard let value = Environment.value("UTQ_PAGER")?.lowercased() else { return false }
        return ["off", "no", "false", "0"].contains(value)
    }

    static func show(_ text: String) {
        let env = ProcessInfo.processInfo.environment
        if let custom = env["PAGER"], !custom.trimmingCharacters(in: .whitespaces).isEmpty {
            // A command line, as shells and git run it.
            if run(["/bin/sh", "-c", custom], input: text) { return }
        } else if let less = lookUp("less", path: env["PATH"] ?? "") {
            if run([less, "-FRX"], input: text) { return }
        }
        ownPager(text)
    }

    /// The program's path on PATH, or nil.
    static func lookUp(_ name: String, path: String) -> String? {
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs the pager with the text as its standard input, from a temporary file rather than
    /// a pipe: a pager quit early (q) then costs utq no SIGPIPE. Waits for it; false when it
    /// could not be started or the shell found no such program.
    static func run(_ arguments: [String], input: String) -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-help-\(getpid()).txt").path
        guard FileManager.default.createFile(atPath: path, contents: Data(input.utf8), attributes: [.posixPermissions: 0o600]) else { return false }
        defer { unlink(path) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        // The pager starts with no signal blocked and every one as the system sets it: utq
        // blocks SIGTERM and SIGHUP for its own thread, and children inherit the mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGTSTP] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) == 0 else { return false }
        var status: Int32 = 0
        // Ctrl-C in the pager reaches utq too (one terminal, one process group): keep waiting.
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // A PAGER the shell could not find or run (127, 126) showed nothing: utq pages.
        let exited = status & 0x7F == 0
        return !(exited && [126, 127].contains((status >> 8) & 0xFF))
    }

    /// utq's own pager, for a system without less: a screen, then `-- more (space, q) --`;
    /// space shows the next screen, Enter one more line, q (or Ctrl-C) stops.
    static func ownPager(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { Terminal.out(text); return }
        var keys = original
        // One key at a time, not echoed; Ctrl-C still interrupts.
        keys.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &keys.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &keys)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        var shown = 0
        var step = max(Terminal.height - 1, 1)
        let prompt = Terminal.colorAllowed ? "\u{1B}[7m-- more (space, q) --\u{1B}[0m" : "-- more (space, q) --"
        while shown < lines.count {
            let end = min(shown + step, lines.count)
            Terminal.out(lines[shown..<end].map { $0 + "\n" }.joined())
            shown = end
            if shown >= lines.count { break }
            Terminal.out(prompt)
            var key: UInt8 = 0
            let n = read(STDIN_FILENO, &key, 1)
            Terminal.out("\r\u{1B}[K")
            if n != 1 || key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") || interruptFlag.isCancelled { return }
            step = key == 0x0A || key == 0x0D ? 1 : max(Terminal.height - 1, 1)
        }
    }
}
