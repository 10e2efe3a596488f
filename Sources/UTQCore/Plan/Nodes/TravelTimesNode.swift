/// The earliest arrival at every stop reachable from some stops leaving at a time (or the
/// shortest trip over a window of departures), by RAPTOR over the day's departures.
public struct TravelTimesNode: PlanNode, MemoryOnlyStep {
    /// What the search is asked: from where, when, how long at most, and how riders change.
    public struct Question: Sendable {
        public var origins: [String]
        /// Seconds of the service day: the time to leave, and with a window its end.
        public var leave: Int32
        public var leaveUntil: Int32?
        /// The latest arrival, and the longest travel time, in seconds.
        public var until: Int32?
        public var within: Int32?
        /// Seconds a change takes where transfers.txt says nothing.
        public var change: Int32
        /// Walks between stops at most this far apart, at this speed (metres per second).
        public var walkMetres: Double?
        public var walkSpeed: Double
    }

    /// The day's stop times (trip_id, run, route_id, stop_id, stop_sequence, times,
    /// pickup_type and drop_off_type where there).
    public var departures: LogicalPlan
    /// stop_id, stop_name, stop_lat, stop_lon.
    public var stops: LogicalPlan
    /// transfers.txt's rows, where the feed has them.
    public var transfers: LogicalPlan?
    public var question: Question

    public init(_ departures: LogicalPlan, stops: LogicalPlan, transfers: LogicalPlan?, question: Question) {
        self.departures = departures; self.stops = stops; self.transfers = transfers; self.question = question
    }

    public var inputs: [LogicalPlan] { [departures, stops] + (transfers.map { [$0] } ?? []) }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> TravelTimesNode {
        TravelTimesNode(inputs[0], stops: inputs[1], transfers: inputs.count > 2 ? inputs[2] : nil, question: question)
    }
    public var stepName: String { "travel times" }
    public var whyInMemory: String { "RAPTOR searches the timetable round by round; it has no SQL form" }
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in false } }

    public var explainLine: String {
        let q = question
        func clock(_ s: Int32) -> String { TimeText.duration(Int64(s) * 1_000_000, unit: .clock) }
        var words = "travel times: RAPTOR from " + q.origins.joined(separator: ", ")
        words += q.leaveUntil.map { " leaving between \(clock(q.leave)) and \(clock($0))" } ?? " leaving at \(clock(q.leave))"
        if let u = q.until { words += ", arriving by \(clock(u))" }
        if let w = q.within { words += ", within \(TimeText.duration(Int64(w) * 1_000_000))" }
        words += "; changes take \(TimeText.duration(Int64(q.change) * 1_000_000))" + (transfers == nil ? "" : " or what transfers.txt says")
        if let m = q.walkMetres { words += "; walks up to \(NumberText.double(m)) m at \(NumberText.double(q.walkSpeed)) m/s" }
        return words
    }

    public var schema: Schema {
        let input = departures.schema
        var fields = [Field(name: "stop_id", type: .string), Field(name: "stop_name", type: .string)]
        if question.leaveUntil != nil { fields.append(Field(name: "departure_time", type: .duration, unit: .clock)) }
        fields += [Field(name: "arrival_time", type: .duration, unit: .clock), Field(name: "travel_time", type: .duration),
                   Field(name: "transfers", type: .int), Field(name: "trip_id", type: .string), Field(name: "run", type: .int),
                   Field(name: "route_id", type: .string)]
        return Schema(fields: fields, zone: input.zone, timeColumn: "arrival_time")
    }
}
