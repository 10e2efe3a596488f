import ArgumentParser
import Foundation
import UTQCore

/// utq: a line-edited analysis shell for the data of people who study how a town moves.
struct UTQ: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "utq",
        abstract: "Count, chart and compare how a town moves: mapping entries, bus lines, GTFS feeds, ride logs.",
        discussion: """
        With no arguments utq opens a prompt (or reads commands from standard input when it is not a terminal).
        Examples:
          utq                                        open the prompt
          utq examples/tour.utq                      run a script
          utq -c 'load datasets/market.json; count by legend, hour'
        """,
        version: "0.1.0"
    )

    @Argument(help: "Scripts (.utq) to run in order.", completion: .file(extensions: ["utq"]))
    var scripts: [String] = []

    @Option(name: .shortAndLong, help: "Run these commands (separated by ; or new lines). May be given more than once.")
    var command: [String] = []

    @Flag(name: .long, help: "Report errors and go on with the next command instead of stopping.")
    var keepGoing = false

    @Flag(name: .long, help: "Print each command before its output.")
    var echo = false

    @Flag(name: .long, help: "Let save replace a file that exists, as save! does.")
    var force = false

    @Flag(name: .long, help: "Open the prompt after running the scripts and commands.")
    var interactive = false

    func run() throws {
        // Keep large blocks (file buffers, finished columns) on their own mappings, so memory
        // freed during a load goes back to the system instead of raising the peak.
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
        Signals.installInterruptHandler()
        Signals.takeTerminateSignals()
        let session = Session(cancel: interruptFlag)
        session.settings.render.width = Terminal.width
        session.settings.render.height = Terminal.height
        session.settings.render.color = Terminal.colorAllowed
        if !Terminal.stdoutIsTTY { session.settings.render.maxRows = 10_000_000 }
        session.settings.replaceFiles = force
        let batch = Batch(session: session, keepGoing: keepGoing, echo: echo)
        var ok = true
        for path in scripts {
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
                Terminal.err("utq: \(path): \(reason)\n")
                throw ExitCode(1)
            }
            ok = batch.run(String(decoding: data, as: UTF8.self), name: path) && ok
            if !ok && !keepGoing { throw ExitCode(1) }
        }
        for text in command {
            ok = batch.run(text, name: "<command line>") && ok
            if !ok && !keepGoing { throw ExitCode(1) }
        }
        let ranSomething = !scripts.isEmpty || !command.isEmpty
        if !ranSomething || interactive {
            if Terminal.stdinIsTTY {
                REPL(session: session).run(banner: !ranSomething)
            } else if !ranSomething {
                // Standard input is a script.
                let data = FileHandle.standardInput.readDataToEndOfFile()
                ok = batch.run(String(decoding: data, as: UTF8.self), name: "<stdin>") && ok
            }
        }
        if !ok { throw ExitCode(1) }
    }
}

/// glibc's mallopt (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt")
func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

UTQ.main()
