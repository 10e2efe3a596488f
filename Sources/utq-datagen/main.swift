import Foundation

/// Writes the shipped datasets and benchmark data. Deterministic: the same command writes
/// the same bytes.
///   utq-datagen market DIR                     market.json, market-weather.csv, market-export.csv, market-zones.csv
///   utq-datagen prishtina DIR                  routes.json and itineraries.json
///   utq-datagen rides DIR [rides] [users] [weeks]   rides.csv, users.csv, friend_requests.csv
///   utq-datagen trips DIR                      trips.csv
///   utq-datagen nvdb DIR                       nvdb-speedlimits.json, nvdb-positions.csv
///   utq-datagen realtime DIR                   gtfs/demo-realtime.pb (trip updates for the demo feed, from DIR/gtfs/demo-transit)
///   utq-datagen all DIR                        all of the above into DIR
///   utq-datagen entries N JSON CSV             N mapping entries for the benchmarks
///   utq-datagen keys N K FILE [SEED]          N rows of k (K distinct ids), k2, v as CSV (K ≥ N: each id once)
let arguments = Array(CommandLine.arguments.dropFirst())

func write(_ text: String, to path: String) {
    do {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        FileHandle.standardError.write("wrote \(path)\n".data(using: .utf8)!)
    } catch {
        FileHandle.standardError.write("utq-datagen: cannot write \(path): \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

func usage() -> Never {
    FileHandle.standardError.write("""
    usage: utq-datagen market|prishtina|rides|trips|nvdb|realtime|all DIR
           utq-datagen rides DIR [RIDES] [USERS] [WEEKS]

    """.data(using: .utf8)!)
    exit(2)
}

guard let what = arguments.first else { usage() }
let dir = arguments.count > 1 ? arguments[1] : "datasets"
func int(_ i: Int, _ fallback: Int) -> Int { arguments.count > i ? Int(arguments[i]) ?? fallback : fallback }

func market() {
    write(Market.projectJSON(), to: dir + "/market.json")
    write(Market.weatherCSV(), to: dir + "/market-weather.csv")
    write(Market.exportCSV(), to: dir + "/market-export.csv")
    write(Market.zonesCSV(), to: dir + "/market-zones.csv")
}
func prishtina() {
    write(PrishtinaData.routesJSON(), to: dir + "/prishtina/routes.json")
    write(PrishtinaData.itinerariesJSON(), to: dir + "/prishtina/itineraries.json")
}
func rides() {
    let data = RidesData(users: int(3, 40), rides: int(2, 3200), weeks: int(4, 7))
    data.write(to: dir) { text, path in write(text, to: path) }
}
func trips() { write(TripsData.csv(), to: dir + "/trips.csv") }
func realtime() {
    let path = dir + "/gtfs/demo-realtime.pb"
    guard let stopTimes = try? String(contentsOfFile: dir + "/gtfs/demo-transit/stop_times.txt", encoding: .utf8) else {
        FileHandle.standardError.write("utq-datagen: realtime reads \(dir)/gtfs/demo-transit/stop_times.txt, which is not there\n".data(using: .utf8)!)
        exit(1)
    }
    do {
        try RealtimeData.tripUpdates(stopTimes: stopTimes).write(to: URL(fileURLWithPath: path), options: .atomic)
        FileHandle.standardError.write("wrote \(path)\n".data(using: .utf8)!)
    } catch {
        FileHandle.standardError.write("utq-datagen: cannot write \(path): \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
func nvdb() {
    write(NVDBData.responseJSON(), to: dir + "/nvdb-speedlimits.json")
    write(NVDBData.positionsCSV(), to: dir + "/nvdb-positions.csv")
}

switch what {
case "market": market()
case "prishtina": prishtina()
case "rides": rides()
case "trips": trips()
case "nvdb": nvdb()
case "realtime": realtime()
case "all": market(); prishtina(); rides(); trips(); nvdb(); realtime()
case "entries":
    guard arguments.count >= 4, let n = Int(arguments[1]) else { usage() }
    BenchEntries.write(n, json: arguments[2] == "-" ? nil : arguments[2], csv: arguments[3] == "-" ? nil : arguments[3])
case "keys":
    guard arguments.count >= 4, let n = Int(arguments[1]), let k = Int(arguments[2]), k > 0 else { usage() }
    KeysData.write(rows: n, keys: k, seed: UInt64(arguments.count > 4 ? Int(arguments[4]) ?? 37 : 37), to: arguments[3])
default: usage()
}
