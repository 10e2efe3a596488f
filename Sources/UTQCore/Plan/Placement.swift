/// Where one step of a plan runs.
public enum Site: Sendable {
    /// In memory, with why it is not sent to the database (nil where no database takes part).
    case memory(reason: String?)
    /// In an attached database; `fragment` is set on the step whose rows come back from it:
    /// the top of a part that is sent as one query.
    case database(String, fragment: (any RemoteFragment)?)
    /// Not decided: the step is made once the probes have answered (explain only).
    case undecided

    public var isMemory: Bool {
        if case .memory = self { return true }
        return false
    }
}

/// A step that never runs in a database, and why: explain says it when the rows it reads come
/// from one (the transit verbs' row generators and searches).
public protocol MemoryOnlyStep {
    var whyInMemory: String { get }
}

/// A plan with each step placed: the physical plan. `run` executes exactly this, and
/// `explain` prints exactly this.
public struct PlacedPlan: Sendable {
    public var plan: LogicalPlan
    public var inputs: [PlacedPlan]
    public var site: Site
    /// Whether the order of this step's rows matters above it.
    public var orderMatters = true
    /// The step in the database's form, where it has one.
    var form: (any DatabaseStep)?
    /// Whether the step is the sort placement adds above a summary that comes back from a
    /// database, to give its groups in key order.
    public var restoresKeyOrder = false

    /// Every step, this one first, then its inputs', depth first.
    public var steps: [PlacedPlan] { [self] + inputs.flatMap(\.steps) }

    /// The parts sent to databases, in the order they run (inputs first).
    public var fragments: [any RemoteFragment] {
        let below = inputs.flatMap(\.fragments)
        if case .database(_, let f?) = site { return below + [f] }
        return below
    }

    /// Where each step runs, a line a step, as explain shows it and the tests compare.
    public var placementText: String {
        steps.map { step in
            switch step.site {
            case .memory(let reason): return "\(step.plan.explainLine) — in memory" + (reason.map { ": \($0)" } ?? "")
            case .database(let name, _): return "\(step.plan.explainLine) — in \(name)"
            case .undecided: return "\(step.plan.explainLine) — once the probes have answered"
            }
        }.joined(separator: "\n") + "\n"
    }
}

/// Decides where each step of a plan runs. Without a database's table in the plan, every
/// step runs in memory. With one, steps are tried in the database from the scans up: a step
/// goes there when its inputs are there and the database has a form for it, else it runs in
/// memory, over rows that come back from the parts below, with the reason. Small loaded tables
/// read with the database's are copied in; two databases never mix.
public struct Placement {
    let catalog: Catalog
    let databases: [String: any AttachedDatabase]

    public init(catalog: Catalog, databases: [String: any AttachedDatabase]) {
        self.catalog = catalog; self.databases = databases
    }

    public func place(_ plan: LogicalPlan) throws -> PlacedPlan {
        let scanned = plan.scannedTables
        let homes = Set(scanned.compactMap { catalog[$0]?.database })
        guard let home = homes.first else { return Self.inMemory(plan) }
        if homes.count > 1 {
            let remote = scanned.filter { catalog[$0]?.database != nil }
            throw Diagnostic("this pipeline reads tables of two databases (\(remote.joined(separator: ", "))); each pipeline runs in one place",
                             hint: "save one side into the other database first")
        }
        guard let database = databases[home] else { throw Diagnostic("\(home) is no longer attached", hint: "attach it again") }
        var walk = Walk(placement: self, database: database)
        return walk.cut(walk.visit(plan, orderMatters: true), parentInDatabase: false)
    }

    /// Every step in memory, for no reason but that no database takes part.
    public static func inMemory(_ plan: LogicalPlan) -> PlacedPlan {
        PlacedPlan(plan: plan, inputs: plan.inputs.map(inMemory), site: .memory(reason: nil))
    }

    /// One placement's walk over a plan: each step with its database form, where it has one.
    private struct Walk {
        let placement: Placement
        let database: any AttachedDatabase
        /// Loaded tables this plan copies in, by name: each once, numbered in order.
        var copied: [String: Int] = [:]

        /// The step placed, with its database form if it has one.
        mutating func visit(_ plan: LogicalPlan, orderMatters: Bool) -> PlacedPlan {
            let flags = plan.node.inputOrderMatters(orderMatters)
            var inputs: [PlacedPlan] = []
            for (input, matters) in zip(plan.inputs, flags) { inputs.append(visit(input, orderMatters: matters)) }
            func memory(_ reason: String) -> PlacedPlan {
                PlacedPlan(plan: plan, inputs: inputs, site: .memory(reason: reason), orderMatters: orderMatters)
            }
            func tooLarge(_ name: String, _ rows: Int) -> String {
                "\(name) has \(NumberText.counted(rows, "row")), more than are copied into \(database.name) "
                    + "(\(NumberText.grouped(database.copyLimit))): the database's rows come here instead"
            }
            func there(_ form: any DatabaseStep) -> PlacedPlan {
                PlacedPlan(plan: plan, inputs: inputs, site: .database(database.name, fragment: nil), orderMatters: orderMatters, form: form)
            }
            if let scan = plan.as(ScanNode.self) {
                switch scan.relation {
                case .result(let n):
                    return memory("$\(n) is a result kept in memory")
                case .probe(_, let n):
                    return memory("probe \(n) kept these rows in memory")
                case .table(let name):
                    guard let entry = placement.catalog[name], entry.database == nil else { break }
                    var rows = 0
                    if case .loaded(let t) = entry { rows = t.rowCount } else if case .deferred(let d) = entry { rows = d.rowCount }
                    guard rows <= database.copyLimit else { return memory(tooLarge(name, rows)) }
                    // A copy takes every column: a deferred table's not read yet are read now.
                    // When they cannot be, the scan in memory says why.
                    guard let table = try? entry.rows() else { return memory("\(name)'s columns are read in memory") }
                    let index = copied[name] ?? copied.count
                    copied[name] = index
                    return there(database.compileCopy(of: table, named: name, index: index))
                }
            }
            if plan.is(PendingNode.self) { return PlacedPlan(plan: plan, inputs: inputs, site: .undecided, orderMatters: orderMatters) }
            if let step = plan.node as? any MemoryOnlyStep { return memory(step.whyInMemory) }
            let forms = inputs.compactMap(\.form)
            guard forms.count == inputs.count else {
                let here = zip(plan.inputs, inputs).filter { $1.site.isMemory }.map { $0.0.stepName }
                return memory(here.count == 1 ? "its input (\(here[0])) runs in memory" : "its inputs (\(here.joined(separator: ", "))) run in memory")
            }
            do {
                return there(try database.compile(plan, inputs: forms, orderMatters: orderMatters))
            } catch let refused as NotInDatabase {
                return memory(refused.reason)
            } catch {
                return memory("\(error)")
            }
        }

        /// Marks the tops of the parts sent to the database (a step there whose parent is in
        /// memory, or the whole plan's top), and puts a summary's groups back in key order
        /// where they come back and their order matters. A copied table whose rows would only
        /// come straight back is not copied: it is read in memory.
        func cut(_ placed: PlacedPlan, parentInDatabase: Bool) -> PlacedPlan {
            var placed = placed
            let inDatabase = placed.form != nil
            placed.inputs = placed.inputs.map { cut($0, parentInDatabase: inDatabase) }
            guard let form = placed.form, !parentInDatabase else { return placed }
            if let scan = placed.plan.as(ScanNode.self), case .table(let name) = scan.relation, placement.catalog[name]?.database == nil {
                placed.site = .memory(reason: "read here: the step above runs in memory")
                placed.form = nil
                return placed
            }
            placed.site = .database(database.name, fragment: database.fragment(form, schema: placed.plan.schema))
            let schema = placed.plan.schema
            guard placed.orderMatters, !form.givesKeyOrder, let keys = schema.keyOrder, !keys.isEmpty else { return placed }
            let sortKeys = keys.compactMap { name in schema.index(of: name).map { BoundSortKey(expr: .column($0, schema.fields[$0]), descending: false) } }
            return PlacedPlan(plan: LogicalPlan(SortNode(placed.plan, keys: sortKeys)), inputs: [placed],
                              site: .memory(reason: "\(database.name) gives groups in any order; here they are put in key order"),
                              restoresKeyOrder: true)
        }
    }
}
