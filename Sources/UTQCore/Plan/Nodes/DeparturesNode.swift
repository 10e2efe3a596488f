/// The stop times of a day's trips with frequencies.txt expanded: a row generator. A trip
/// frequencies.txt repeats is a timetable to be run again: once every headway_secs from each
/// window's start_time while the start is before its end_time, every stop time shifted by the
/// same amount. Such rows carry the number of their run (1, 2, … in the order the runs
/// start); a trip the feed runs once keeps its times and has no run.
public struct DeparturesNode: PlanNode, MemoryOnlyStep {
    /// The stop times of the day's trips (trip_id, arrival_time, departure_time, …).
    public var timetable: LogicalPlan
    /// frequencies.txt's trip_id, start_time, end_time and headway_secs; nil for a feed
    /// without the file, whose trips each run once.
    public var frequencies: LogicalPlan?
    /// The feed's name, for explain.
    public var feed: String

    public init(_ timetable: LogicalPlan, frequencies: LogicalPlan?, feed: String) {
        self.timetable = timetable; self.frequencies = frequencies; self.feed = feed
    }

    public var inputs: [LogicalPlan] { [timetable] + (frequencies.map { [$0] } ?? []) }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> DeparturesNode {
        DeparturesNode(inputs[0], frequencies: inputs.count > 1 ? inputs[1] : nil, feed: feed)
    }
    public var stepName: String { "departures" }

    public var explainLine: String {
        frequencies == nil
            ? "departures: \(feed) has no frequencies.txt, so each trip runs once, at its stop times"
            : "departures: each trip of frequencies.txt run every headway_secs from start_time while before end_time, its stop times shifted; other trips once"
    }

    public var whyInMemory: String { "expanding frequencies.txt into runs has no SQL form" }

    public var schema: Schema {
        var s = timetable.schema
        s.fields.append(Field(name: "run", type: .int))
        s.groupKeys = nil; s.keyOrder = nil
        if s.index(of: "departure_time") != nil { s.timeColumn = "departure_time" }
        return s
    }

    /// The rows keep the timetable's order, a repeating trip's runs one after another where
    /// its first stop time was.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in orderMatters } }
}
