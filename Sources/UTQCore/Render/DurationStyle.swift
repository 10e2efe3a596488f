/// One way of writing every duration of a column, chosen from its range: the largest unit
/// its longest value needs, down to the smallest any value needs, so that `1 h 03 min 58 s`
/// and `0 h 12 min 00 s` line up and no seconds are dropped. Under a minute: seconds with
/// the decimals the values need; past a minute, seconds are rounded to whole ones.
struct DurationStyle: Equatable {
    enum Unit: Int, Comparable {
        case second, minute, hour, day
        static func < (a: Unit, b: Unit) -> Bool { a.rawValue < b.rawValue }
        var micros: Int64 {
            switch self {
            case .second: 1_000_000
            case .minute: 60_000_000
            case .hour: 3_600_000_000
            case .day: 86_400_000_000
            }
        }
        var label: String {
            switch self {
            case .second: "s"
            case .minute: "min"
            case .hour: "h"
            case .day: "d"
            }
        }
    }

    let largest: Unit
    let smallest: Unit
    /// Decimals of the seconds (0 to 3).
    let fraction: Int

    init(largest: Unit, smallest: Unit, fraction: Int) {
        self.largest = largest; self.smallest = smallest; self.fraction = fraction
    }

    init(_ values: [Int64]) {
        let magnitudes = values.map { $0 == Int64.min ? Int64.max : abs($0) }
        let longest = magnitudes.max() ?? 0
        largest = [.day, .hour, .minute].first { longest >= $0.micros } ?? .second
        // The smallest unit some value has a part of (1 h 30 min needs minutes, not seconds).
        var smallest = largest
        var fraction = 0
        for m in magnitudes.prefix(5000) {
            if m % Unit.minute.micros != 0 { smallest = .second }
            else if m % Unit.hour.micros != 0 { smallest = min(smallest, .minute) }
            else if m % Unit.day.micros != 0 { smallest = min(smallest, .hour) }
            let micros = m % 1_000_000
            if micros != 0 { fraction = max(fraction, micros % 10_000 != 0 ? 3 : micros % 100_000 != 0 ? 2 : 1) }
        }
        // Parts of a second show under a minute only: past that, whole seconds are precise
        // enough (an average wait of 12 min 54.379 s says no more than 12 min 54 s).
        if largest > .second { fraction = 0 } else if fraction > 0 { smallest = .second }
        self.smallest = smallest
        self.fraction = fraction
    }

    func text(_ micros: Int64) -> String {
        let negative = micros < 0
        let m = micros == Int64.min ? Int64.max : abs(micros)
        let units: [Unit] = [.day, .hour, .minute, .second].filter { $0 <= largest && $0 >= smallest }
        var rest = m
        var parts: [String] = []
        for (k, u) in units.enumerated() {
            let last = k == units.count - 1
            if last && u == .second {
                let seconds = Double(rest) / 1_000_000
                var text = NumberText.fixed(seconds, decimals: fraction)
                if k > 0 && seconds < 10 { text = "0" + text }
                parts.append(text + " s")
            } else {
                // The last unit rounds; the ones before it carry what is left down.
                let n = last ? (rest + u.micros / 2) / u.micros : rest / u.micros
                rest -= n * u.micros
                parts.append((k > 0 && n < 10 && u != .day ? "0" : "") + "\(n) \(u.label)")
            }
        }
        return (negative ? "-" : "") + parts.joined(separator: " ")
    }
}
