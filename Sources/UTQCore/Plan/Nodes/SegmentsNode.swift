/// Consecutive stops of each run of a trip as segments: from which stop to which, leaving the
/// first and reaching the second, how far (along the shape where there is one), in how long
/// and how fast.
public struct SegmentsNode: PlanNode, MemoryOnlyStep {
    /// The day's stop times (trip_id, stop_sequence, stop_id, departure_time; run,
    /// arrival_time, route_id, direction_id, shape_id and shape_dist_traveled where there).
    public var departures: LogicalPlan
    /// stop_id, stop_lat, stop_lon.
    public var stops: LogicalPlan
    /// shapes.txt's points, when the trips can follow them.
    public var shapes: LogicalPlan?

    public init(_ departures: LogicalPlan, stops: LogicalPlan, shapes: LogicalPlan?) {
        self.departures = departures; self.stops = stops; self.shapes = shapes
    }

    public var inputs: [LogicalPlan] { [departures, stops] + (shapes.map { [$0] } ?? []) }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> SegmentsNode {
        SegmentsNode(inputs[0], stops: inputs[1], shapes: inputs.count > 2 ? inputs[2] : nil)
    }
    public var stepName: String { "segments" }
    public var explainLine: String {
        "segments: each stop of a run to the next, metres " + (shapes == nil ? "straight from stop to stop"
            : "by shape_dist_traveled, else along the shape between the stops' nearest positions, else straight")
    }
    public var whyInMemory: String { "pairing each stop with the next and measuring between them has no SQL form" }
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in false } }

    /// The trip's columns carried to each segment, as the departures have them.
    static let carried = ["trip_id", "run", "route_id", "direction_id"]

    public var schema: Schema {
        let input = departures.schema
        var fields = Self.carried.compactMap { input.index(of: $0).map { input.fields[$0] } }
        fields.append(Field(name: "stop_sequence", type: .int))
        fields += [Field(name: "from_stop_id", type: .string), Field(name: "to_stop_id", type: .string),
                   Field(name: "departure_time", type: .duration, unit: .clock), Field(name: "arrival_time", type: .duration, unit: .clock),
                   Field(name: "distance_m", type: .double), Field(name: "run_time", type: .duration),
                   Field(name: "speed_kmh", type: .double), Field(name: "measured", type: .string)]
        return Schema(fields: fields, zone: input.zone, timeColumn: "departure_time")
    }
}
