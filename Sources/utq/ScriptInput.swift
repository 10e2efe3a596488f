import ArgumentParser
import Foundation
import UTQCore

/// `--set NAME=VALUE`, shared by running scripts and making notebooks of them.
struct VariableOptions: ParsableArguments {
    @Option(name: .customLong("set"), parsing: .singleValue,
            help: ArgumentHelp("Give ${NAME} in the scripts a value (write $${ for a literal ${). May be given more than once.",
                               valueName: "NAME=VALUE"))
    var assignments: [String] = []

    /// The values by name; a malformed assignment ends utq with a message.
    func values() throws -> [String: String] {
        var values: [String: String] = [:]
        for a in assignments {
            do {
                let (name, value) = try ScriptVariables.assignment(a)
                values[name] = value
            } catch let d as Diagnostic {
                Terminal.err("utq: " + d.message + "\n" + (d.hint.map { "  hint: \($0)\n" } ?? ""))
                throw ExitCode(2)
            }
        }
        return values
    }
}

/// Scripts as they will run: read from their files, with `--set` values put in, keeping
/// count of which values were used so a misspelt `--set` name does not pass unnoticed.
final class ScriptInput {
    let values: [String: String]
    private var used = Set<String>()

    init(values: [String: String]) { self.values = values }

    /// The text of a script file, or nil (with a message) when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            let reason = !exists ? "no such file" : isDir.boolValue ? "is a folder, not a script" : "cannot be read"
            Terminal.err("utq: \(path): \(reason)\n")
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The text with `${NAME}` replaced, or nil after printing where a name has no value.
    func prepare(_ text: String, name: String) -> String? {
        do {
            let (out, names) = try ScriptVariables.substitute(text, values: values, name: name)
            used.formUnion(names)
            return out
        } catch let d as Diagnostic {
            Terminal.err(DiagnosticRenderer.render(d, showLocation: true, color: Terminal.stderrIsTTY && Terminal.colorAllowed))
            return nil
        } catch {
            Terminal.err("utq: \(error)\n")
            return nil
        }
    }

    /// Warns about `--set` names no script used.
    func warnUnused() {
        for name in values.keys.sorted() where !used.contains(name) {
            Terminal.err("warning: --set \(name) was given, but no script uses ${\(name)}\n")
        }
    }
}
