import ArgumentParser
import Foundation
import UTQCore
import UTQPostgres

/// Runs scripts and commands, or opens the prompt.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scripts and commands, or open the prompt (what utq does without a subcommand).",
        discussion: """
        utq run FILE is the same as utq FILE.

        Examples:
          utq run examples/tour.utq --echo
          utq --keep-going lesson.utq      report errors and go on
        """
    )

    @Argument(help: "Scripts (.utq) to run in order.", completion: .file(extensions: ["utq"]))
    var scripts: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Run these commands (separated by ; or new lines). May be given more than once.", valueName: "text"))
    var command: [String] = []

    @Flag(name: .long, help: "Report errors and go on with the next command instead of stopping.")
    var keepGoing = false

    @Flag(name: .long, help: "Print each command before its output.")
    var echo = false

    @Flag(name: .long, help: "Let save replace a file that exists, as save! does.")
    var force = false

    @Flag(name: .long, help: "Open the prompt after running the scripts and commands.")
    var interactive = false

    @Flag(name: .long, help: "Presenter mode: show each command and run it when Enter is pressed (q and Enter quits). Goes on after errors.")
    var step = false

    @OptionGroup var variables: VariableOptions

    /// The common command lines read without ArgumentParser: scripts, `-c TEXT`, `--echo`,
    /// `--keep-going` and `--force`, nothing else (any other word, and a value after -c that
    /// starts with -, goes to ArgumentParser). ArgumentParser builds the metadata of every
    /// subcommand's options before it reads a word: 3 of the 7 ms utq took to start.
    static func quick(_ arguments: ArraySlice<String>) -> Run? {
        var scripts: [String] = [], commands: [String] = []
        var keepGoing = false, echo = false, force = false
        var rest = arguments
        while let word = rest.popFirst() {
            switch word {
            case "-c", "--command":
                guard let text = rest.popFirst(), !text.hasPrefix("-") else { return nil }
                commands.append(text)
            case "--keep-going": keepGoing = true
            case "--echo": echo = true
            case "--force": force = true
            default:
                // A script's path; a subcommand's name or an option is ArgumentParser's.
                guard !word.hasPrefix("-"), !subcommandNames.contains(word) else { return nil }
                scripts.append(word)
            }
        }
        guard !scripts.isEmpty || !commands.isEmpty else { return nil }
        var run = Run()
        run.scripts = scripts
        run.command = commands
        run.keepGoing = keepGoing
        run.echo = echo
        run.force = force
        run.interactive = false
        run.step = false
        var variables = VariableOptions()
        variables.assignments = []
        run.variables = variables
        return run
    }

    /// The words ArgumentParser reads as subcommands: each subcommand's name, and help.
    static var subcommandNames: Set<String> {
        Set(UTQ.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
    }

    func validate() throws {
        if step && scripts.isEmpty && command.isEmpty {
            throw ValidationError("--step needs a script to go through, as in: utq --step examples/tour.utq")
        }
    }

    func run() throws {
        Signals.installInterruptHandler()
        Signals.takeTerminateSignals()
        if let problem = MemoryBudget.environmentProblem { Terminal.err("warning: " + TextWidth.printable(problem) + "\n") }
        let session = Session(cancel: interruptFlag)
        session.databaseConnector = PostgresConnector()
        MemoryTuning.follow(session)
        // Read again before every command: a resized window draws the next result to fit.
        session.terminalSize = { (Terminal.width, Terminal.height) }
        session.followTerminal(settings: &session.settings)
        session.settings.render.color = Terminal.colorAllowed
        if !Terminal.stdoutIsTTY { session.settings.render.maxRows = 10_000_000 }
        session.settings.replaceFiles = force
        // A script's loads read first the columns the script names; not when a prompt follows.
        session.readsNamedColumnsFirst = !interactive && !step && (!scripts.isEmpty || !command.isEmpty || !Terminal.stdinIsTTY)
        if Pager.offByEnvironment { session.settings.pager = false }
        let batch = Batch(session: session, keepGoing: keepGoing, echo: echo)
        let input = ScriptInput(values: try variables.values())
        // Every script is read (and its ${…} filled in) before any runs, so a missing file or
        // value stops utq before a lesson is half shown.
        var texts: [(name: String, text: String)] = []
        for path in scripts {
            guard let raw = ScriptInput.read(path) else { throw ExitCode(1) }
            guard let text = input.prepare(raw, name: path) else { throw ExitCode(1) }
            texts.append((path, text))
        }
        for text in command {
            guard let prepared = input.prepare(text, name: "<command line>") else { throw ExitCode(1) }
            texts.append(("<command line>", prepared))
        }
        input.warnUnused()
        var ok = true
        if step {
            let stepper = Stepper(session: session, printer: Printer(session: session, showLocation: true))
            var failed = false
            var quit = false
            for (name, text) in texts {
                if stepper.run(text, name: name, failed: &failed) == .quit { quit = true; break }
            }
            // With --interactive the prompt opens after the last step, everything loaded.
            if interactive && !quit && Terminal.stdinIsTTY { REPL(session: session).run(banner: false) }
            throw ExitCode(failed ? 1 : 0)
        }
        for (k, (name, text)) in texts.enumerated() {
            session.scriptsAfter = texts[(k + 1)...].map(\.text)
            ok = batch.run(text, name: name) && ok
            if !ok && !keepGoing { throw ExitCode(1) }
        }
        session.scriptsAfter = []
        let ranSomething = !scripts.isEmpty || !command.isEmpty
        if !ranSomething || interactive {
            if Terminal.stdinIsTTY {
                REPL(session: session).run(banner: !ranSomething)
            } else if !ranSomething {
                // Standard input is a script.
                let data = FileHandle.standardInput.readDataToEndOfFile()
                guard let text = input.prepare(String(decoding: data, as: UTF8.self), name: "<stdin>") else { throw ExitCode(1) }
                ok = batch.run(text, name: "<stdin>") && ok
            }
        }
        // Leave without freeing the tables column by column: the system takes the memory
        // back at once (tens of milliseconds on a million rows).
        fflush(nil)
        Foundation.exit(ok ? 0 : 1)
    }
}
