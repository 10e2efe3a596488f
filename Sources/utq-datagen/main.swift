import Foundation

/// Writes the shipped datasets and benchmark data. Deterministic: the same command writes
/// the same bytes.
///   utq-datagen market DIR          datasets/market.json and market-weather.csv
let arguments = Array(CommandLine.arguments.dropFirst())

func write(_ text: String, to path: String) {
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        FileHandle.standardError.write("wrote \(path)\n".data(using: .utf8)!)
    } catch {
        FileHandle.standardError.write("utq-datagen: cannot write \(path): \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

func usage() -> Never {
    FileHandle.standardError.write("""
    usage: utq-datagen market DIR

    """.data(using: .utf8)!)
    exit(2)
}

guard let what = arguments.first else { usage() }
switch what {
case "market":
    let dir = arguments.count > 1 ? arguments[1] : "datasets"
    write(Market.projectJSON(), to: dir + "/market.json")
    write(Market.weatherCSV(), to: dir + "/market-weather.csv")
default:
    usage()
}
