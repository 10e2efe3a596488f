import Foundation
@testable import UTQCore

/// The language: lexer, parser, binder and executor, by running the input as a script
/// against a session with the market-square study loaded, and printing every outcome.
private let prototype: [Table] = {
    var tables: [Table] = []
    for file in ["datasets/market.json", "datasets/market-weather.csv"] {
        do { tables += try Loaders.load(LoadRequest(path: Fuzz.root + "/" + file, zone: .utc)).tables }
        catch { fatalError("cannot load \(file): \(error)") }
    }
    return tables
}()

/// Words that make utq read or write files. The session works in a scratch folder, but a
/// path with a slash could reach anywhere; such inputs are skipped.
private let fileWords = ["load", "open", "read", "save", "chart", "plot", ":", "to"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLanguage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lower = text.lowercased()
    if (lower.contains("/") || lower.contains("~") || lower.contains("\\")) && fileWords.contains(where: { lower.contains($0) }) {
        return -1  // not added to the corpus
    }
    let session = Session(workingDirectory: Fuzz.scratch, defaultZone: .utc)
    session.settings.render = Fuzz.options
    session.workspace.put(prototype, makeCurrent: true)
    var settings = session.settings
    session.run(text, name: "fuzz.utq", keepGoing: true) { command, outcome in
        settings = session.settings
        _ = OutputText.transcript(command, outcome, settings: settings)
        if let e = outcome.error { _ = DiagnosticRenderer.render(e, showLocation: true, color: true) }
    }
    _ = session.complete(text)
    // Files the script saved go, so the folder stays small and each input starts alike.
    if let made = try? FileManager.default.contentsOfDirectory(atPath: Fuzz.scratch), !made.isEmpty {
        for name in made { unlink(Fuzz.scratch + "/" + name) }
    }
    return 0
}
