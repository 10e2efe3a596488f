import Foundation
import GTFSRealtime

/// A GTFS-Realtime FeedMessage as tables. Column names follow the static feed's (trip_id,
/// route_id, stop_id, stop_sequence) so that a join with it needs no renaming; times are
/// instants (the feed's POSIX seconds), delays durations; enumerations keep the
/// specification's names (STOPPED_AT, SCHEDULED, …).
struct RealtimeTables {
    enum Kind: String, CaseIterable { case vehicles, trip_updates, alerts }

    let feed: TransitRealtime_FeedMessage
    let zone: ZoneRules

    var kinds: [Kind] {
        Kind.allCases.filter { kind in
            feed.entity.contains { e in
                switch kind {
                case .vehicles: return e.hasVehicle
                case .trip_updates: return e.hasTripUpdate
                case .alerts: return e.hasAlert
                }
            }
        }
    }

    func table(_ kind: Kind, name: String) -> Table {
        switch kind {
        case .vehicles: return vehicles(name)
        case .trip_updates: return tripUpdates(name)
        case .alerts: return alerts(name)
        }
    }

    // MARK: the three kinds

    static let tripFields: [(String, DataType)] = [
        ("trip_id", .string), ("route_id", .string), ("direction_id", .int), ("start_date", .string),
        ("start_time", .string), ("trip_schedule", .string),
    ]

    func trip(_ t: TransitRealtime_TripDescriptor, present: Bool) -> [Value] {
        guard present else { return Array(repeating: .null, count: Self.tripFields.count) }
        return [t.hasTripID ? .string(t.tripID) : .null, t.hasRouteID ? .string(t.routeID) : .null,
                t.hasDirectionID ? .int(Int64(t.directionID)) : .null, t.hasStartDate ? .string(t.startDate) : .null,
                t.hasStartTime ? .string(t.startTime) : .null,
                t.hasScheduleRelationship ? .string(Self.name(t.scheduleRelationship)) : .null]
    }

    func vehicles(_ name: String) -> Table {
        var rows = RowTable(name: name, [("entity_id", .string)] + Self.tripFields + [
            ("vehicle_id", .string), ("vehicle_label", .string), ("license_plate", .string),
            ("lat", .double), ("lon", .double), ("bearing", .double), ("speed", .double), ("odometer", .double),
            ("current_stop_sequence", .int), ("stop_id", .string), ("current_status", .string), ("timestamp", .timestamp),
            ("congestion_level", .string), ("occupancy_status", .string), ("occupancy_percentage", .int),
        ])
        for e in feed.entity where e.hasVehicle && !e.isDeleted {
            let v = e.vehicle
            let d = v.vehicle, p = v.position
            rows.append([.string(e.id)] + trip(v.trip, present: v.hasTrip) + [
                v.hasVehicle && d.hasID ? .string(d.id) : .null, v.hasVehicle && d.hasLabel ? .string(d.label) : .null,
                v.hasVehicle && d.hasLicensePlate ? .string(d.licensePlate) : .null,
                v.hasPosition ? .double(Double(p.latitude)) : .null, v.hasPosition ? .double(Double(p.longitude)) : .null,
                v.hasPosition && p.hasBearing ? .double(Double(p.bearing)) : .null,
                v.hasPosition && p.hasSpeed ? .double(Double(p.speed)) : .null,
                v.hasPosition && p.hasOdometer ? .double(p.odometer) : .null,
                v.hasCurrentStopSequence ? .int(Int64(v.currentStopSequence)) : .null,
                v.hasStopID ? .string(v.stopID) : .null,
                v.hasCurrentStatus ? .string(Self.name(v.currentStatus)) : .null,
                v.hasTimestamp ? Self.instant(v.timestamp) : .null,
                v.hasCongestionLevel ? .string(Self.name(v.congestionLevel)) : .null,
                v.hasOccupancyStatus ? .string(Self.name(v.occupancyStatus)) : .null,
                v.hasOccupancyPercentage ? .int(Int64(v.occupancyPercentage)) : .null,
            ])
        }
        return rows.table(zone: zone, rowNoun: "vehicles")
    }

    func tripUpdates(_ name: String) -> Table {
        var rows = RowTable(name: name, [("entity_id", .string)] + Self.tripFields + [
            ("vehicle_id", .string), ("stop_sequence", .int), ("stop_id", .string),
            ("arrival_time", .timestamp), ("arrival_delay", .duration), ("departure_time", .timestamp), ("departure_delay", .duration),
            ("stop_schedule", .string), ("trip_delay", .duration), ("timestamp", .timestamp),
        ])
        for e in feed.entity where e.hasTripUpdate && !e.isDeleted {
            let u = e.tripUpdate
            let head: [Value] = [.string(e.id)] + trip(u.trip, present: true)
                + [u.hasVehicle && u.vehicle.hasID ? .string(u.vehicle.id) : .null]
            let tail: [Value] = [u.hasDelay ? .duration(Int64(u.delay) * 1_000_000) : .null,
                                 u.hasTimestamp ? Self.instant(u.timestamp) : .null]
            // A trip cancelled, or updated only as a whole, is one row without a stop.
            if u.stopTimeUpdate.isEmpty {
                rows.append(head + Array(repeating: .null, count: 7) + tail)
                continue
            }
            for s in u.stopTimeUpdate {
                func time(_ ev: TransitRealtime_TripUpdate.StopTimeEvent, _ has: Bool) -> [Value] {
                    guard has else { return [.null, .null] }
                    return [ev.hasTime ? .timestamp(ev.time * 1_000_000) : .null, ev.hasDelay ? .duration(Int64(ev.delay) * 1_000_000) : .null]
                }
                rows.append(head + [s.hasStopSequence ? .int(Int64(s.stopSequence)) : .null, s.hasStopID ? .string(s.stopID) : .null]
                            + time(s.arrival, s.hasArrival) + time(s.departure, s.hasDeparture)
                            + [s.hasScheduleRelationship ? .string(Self.name(s.scheduleRelationship)) : .null] + tail)
            }
        }
        return rows.table(zone: zone, rowNoun: "stop time updates")
    }

    func alerts(_ name: String) -> Table {
        var rows = RowTable(name: name, [
            ("entity_id", .string), ("cause", .string), ("effect", .string), ("header", .string), ("description", .string),
            ("url", .string), ("active_start", .timestamp), ("active_end", .timestamp),
            ("agency_id", .string), ("route_id", .string), ("stop_id", .string), ("trip_id", .string),
        ])
        for e in feed.entity where e.hasAlert && !e.isDeleted {
            let a = e.alert
            let period = a.activePeriod.first
            let head: [Value] = [
                .string(e.id), a.hasCause ? .string(Self.name(a.cause)) : .null, a.hasEffect ? .string(Self.name(a.effect)) : .null,
                Self.text(a.headerText, a.hasHeaderText), Self.text(a.descriptionText, a.hasDescriptionText), Self.text(a.url, a.hasURL),
                period.flatMap { $0.hasStart ? Self.instant($0.start) : nil } ?? .null,
                period.flatMap { $0.hasEnd ? Self.instant($0.end) : nil } ?? .null,
            ]
            // One row per route, stop or trip the alert is about.
            let informed = a.informedEntity.isEmpty ? [TransitRealtime_EntitySelector()] : a.informedEntity
            for s in informed {
                rows.append(head + [s.hasAgencyID ? .string(s.agencyID) : .null, s.hasRouteID ? .string(s.routeID) : .null,
                                    s.hasStopID ? .string(s.stopID) : .null, s.hasTrip && s.trip.hasTripID ? .string(s.trip.tripID) : .null])
            }
        }
        return rows.table(zone: zone, rowNoun: "alerts")
    }

    // MARK: values

    static func instant(_ seconds: UInt64) -> Value {
        seconds > UInt64(Int64.max / 1_000_000) ? .null : .timestamp(Int64(seconds) * 1_000_000)
    }

    /// A translated text: English where there is one, else the first.
    static func text(_ t: TransitRealtime_TranslatedString, _ has: Bool) -> Value {
        guard has, !t.translation.isEmpty else { return .null }
        let english = t.translation.first { $0.language.lowercased().hasPrefix("en") }
        return .string((english ?? t.translation[0]).text)
    }

    /// An enumeration's case as the specification spells it: `incomingAt` is INCOMING_AT.
    static func name<E>(_ value: E) -> String {
        let camel = String(describing: value)
        var out = ""
        for ch in camel {
            if ch.isUppercase, !out.isEmpty { out.append("_") }
            out += ch.uppercased()
        }
        return out
    }

    static func text(_ seconds: Int64, zone: ZoneRules) -> String {
        TimeText.display(seconds * 1_000_000, zone: zone, unit: .automatic)
    }
}
