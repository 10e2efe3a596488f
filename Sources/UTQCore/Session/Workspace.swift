/// What a session has loaded and kept: the catalog of tables, which one is current, and the
/// numbered results (`[3]`, reused as `$3` and `_`).
public final class Workspace: @unchecked Sendable {
    public private(set) var catalog = Catalog()
    public private(set) var currentTable: String?
    public private(set) var results: [Int: Table] = [:]
    public private(set) var lastResult: Int?
    private var nextResult = 1

    public init() {}

    /// What binding may look names up in.
    var bindContext: BindContext {
        BindContext(catalog: catalog.schemas, results: results.mapValues(Schema.init), lastResult: lastResult, currentTable: currentTable)
    }

    /// What a plan runs against.
    func executionContext(cancel: CancellationFlag?, memoryLimit: Int?, notes: RunNotes? = nil,
                          loadPhase: (@Sendable (Bool) -> Void)? = nil) -> ExecutionContext {
        var context = ExecutionContext(catalog: catalog, results: results, cancel: cancel, memoryLimit: memoryLimit, notes: notes)
        context.loadPhase = loadPhase
        return context
    }

    /// Keeps a table as the next numbered result.
    func keep(_ t: Table) -> Int {
        let n = nextResult
        nextResult += 1
        results[n] = t
        lastResult = n
        return n
    }

    /// Forgets the numbered results; numbering starts again from [1].
    func clearResults() {
        results = [:]
        lastResult = nil
        nextResult = 1
    }

    /// Adds or replaces tables, all at once (a load that fails puts none).
    func put(_ tables: [Table], makeCurrent: Bool) {
        put(tables.map { .loaded($0) }, makeCurrent: makeCurrent)
    }

    func put(_ entries: [CatalogEntry], makeCurrent: Bool) {
        for e in entries { catalog.put(e) }
        if makeCurrent, let first = entries.first { currentTable = first.name }
    }

    func use(_ name: String) { currentTable = name }

    /// Forgets the tables that match (an attached database's, when it is attached again).
    func dropTables(where matches: (CatalogEntry) -> Bool) {
        for name in catalog.names where catalog[name].map(matches) ?? false { catalog.remove(name) }
        if let current = currentTable, catalog[current] == nil { currentTable = nil }
    }

    /// Everything the workspace holds, to go back to (a lesson tries each answer from the
    /// same point). Tables are shared, not copied.
    struct State {
        var catalog: Catalog, currentTable: String?, results: [Int: Table], lastResult: Int?, nextResult: Int
    }

    var state: State {
        get { State(catalog: catalog, currentTable: currentTable, results: results, lastResult: lastResult, nextResult: nextResult) }
        set {
            catalog = newValue.catalog; currentTable = newValue.currentTable; results = newValue.results
            lastResult = newValue.lastResult; nextResult = newValue.nextResult
        }
    }
}
