/// Summaries over rolling windows (`avg(count) over 7 days`, `sum(x) over 3 rows`). Each
/// group's rows are put in a sequence — the rows' own order for a window of rows, the order
/// of their times for a window of time — and each row's window is a stretch of it whose ends
/// only move forward. So one pass adds the rows that come into the window and takes out those
/// that leave: sums exactly (whole numbers in 128 bits, decimals compensated), minima and
/// maxima with a queue of the candidates.
struct Rolling {
    let function: AggregateFunction
    let frame: RollingFrame
    let type: DataType
    let cancel: CancellationFlag?

    /// The rolling summary of `arg` (nil: `count()`, the rows) for every row of the table.
    func column(_ arg: Column?, table: Table, groupOf: [Int32], layout: Window.Layout) throws -> Column {
        let n = table.rowCount
        var out = Output(count: n, type: type)
        var windows: [(row: Int32, lo: Int, hi: Int)] = []
        for g in 0..<(layout.starts.count - 1) {
            if g & 0xFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            let rows = Array(layout.order[layout.starts[g]..<layout.starts[g + 1]])
            let sequence: [Int32]
            windows.removeAll(keepingCapacity: true)
            switch frame {
            case .rows(let size):
                sequence = rows
                for (p, r) in rows.enumerated() { windows.append((r, Swift.max(0, p - size + 1), p + 1)) }
            case .time(let span, let column):
                let wholeDays = span % CivilTime.microsPerDay == 0 && !table.zone.isFixed
                guard case .timestamp(let times) = table.columns[column].storage else { continue }
                let timeColumn = table.columns[column]
                // A row without a time is in no window, and has none.
                sequence = rows.filter { timeColumn.isValid(Int($0)) }.sorted { (times[Int($0)], $0) < (times[Int($1)], $1) }
                var lo = 0, a = 0
                while a < sequence.count {
                    let t = times[Int(sequence[a])]
                    var b = a
                    while b < sequence.count && times[Int(sequence[b])] == t { b += 1 }
                    // (t − span, t]: rows at exactly t − span have left. A span of whole days
                    // reaches back that many days on the calendar, so a day of 23 or 25 hours
                    // (a clock change) is one day.
                    let (edge, overflow) = t.subtractingReportingOverflow(span)
                    let calendarEdge = wholeDays && !overflow ? table.zone.instant(wallMicros: table.zone.wallMicros(t) - span) : edge
                    if !overflow { while lo < a && times[Int(sequence[lo])] <= calendarEdge { lo += 1 } }
                    for k in a..<b { windows.append((sequence[k], lo, b)) }
                    a = b
                }
            }
            try slide(sequence, windows, arg, &out)
        }
        return out.column()
    }

    /// Moves the window along the sequence, writing each row's summary.
    private func slide(_ sequence: [Int32], _ windows: [(row: Int32, lo: Int, hi: Int)], _ arg: Column?, _ out: inout Output) throws {
        var state = State(function: function)
        var lo = 0, hi = 0
        for w in windows {
            while hi < w.hi { try state.add(Int(sequence[hi]), hi, arg); hi += 1 }
            while lo < w.lo { state.remove(Int(sequence[lo]), lo, arg); lo += 1 }
            out.set(Int(w.row), state, arg)
        }
    }

    /// What the window holds: its rows, its values' count and sum, and the candidates for its
    /// least and greatest value (positions in the sequence, their values in order).
    struct State {
        let function: AggregateFunction
        var rows = 0
        var count = 0
        var wholeSum: Int128 = 0
        var sum = CompensatedSum()
        /// Values past the doubles' range, and NaN, are counted apart: they cannot be taken out
        /// of a sum again.
        var positiveInfinities = 0, negativeInfinities = 0, notANumber = 0
        var queue: [(position: Int, value: Double, raw: Int64)] = []
        var queueStart = 0
        var isDecimal = false

        init(function: AggregateFunction) { self.function = function }

        mutating func add(_ row: Int, _ position: Int, _ arg: Column?) throws {
            rows += 1
            guard let arg, arg.isValid(row) else { return }
            count += 1
            switch arg.storage {
            case .int(let a), .duration(let a), .timestamp(let a): take(Double(a[row]), raw: a[row], position)
            case .bool(let a): take(a[row] ? 1 : 0, raw: a[row] ? 1 : 0, position)
            case .double(let a): isDecimal = true; take(a[row], raw: 0, position)
            default: break
            }
        }

        private mutating func take(_ x: Double, raw: Int64, _ position: Int) {
            switch function {
            case .sum, .avg:
                if x.isNaN { notANumber += 1 } else if x == .infinity { positiveInfinities += 1 } else if x == -.infinity { negativeInfinities += 1 }
                else { sum.add(x) }
                wholeSum += Int128(raw)
            case .min, .max:
                // Candidates stay in order of position; one that can no longer be the least
                // (or greatest) while a newer value is in the window is dropped. Decimals
                // compare as utq orders them (NaN above all), whole values exactly.
                let wantsLeast = function == .min
                while queue.count > queueStart, let last = queue.last {
                    let c = isDecimal ? Comparison.order(last.value, x) : (last.raw == raw ? 0 : (last.raw < raw ? -1 : 1))
                    guard wantsLeast ? c >= 0 : c <= 0 else { break }
                    queue.removeLast()
                }
                queue.append((position, x, raw))
            default: break
            }
        }

        mutating func remove(_ row: Int, _ position: Int, _ arg: Column?) {
            rows -= 1
            guard let arg, arg.isValid(row) else { return }
            count -= 1
            var x = 0.0, raw: Int64 = 0
            switch arg.storage {
            case .int(let a), .duration(let a), .timestamp(let a): x = Double(a[row]); raw = a[row]
            case .bool(let a): x = a[row] ? 1 : 0; raw = a[row] ? 1 : 0
            case .double(let a): x = a[row]
            default: return
            }
            switch function {
            case .sum, .avg:
                if x.isNaN { notANumber -= 1 } else if x == .infinity { positiveInfinities -= 1 } else if x == -.infinity { negativeInfinities -= 1 }
                else { sum.add(-x) }
                wholeSum -= Int128(raw)
            case .min, .max:
                while queueStart < queue.count && queue[queueStart].position <= position { queueStart += 1 }
                if queueStart > 4096 && queueStart * 2 > queue.count { queue.removeFirst(queueStart); queueStart = 0 }
            default: break
            }
        }

        /// The sum of the decimals in the window, infinities and NaN as they make it.
        var doubleSum: Double {
            if notANumber > 0 || (positiveInfinities > 0 && negativeInfinities > 0) { return .nan }
            if positiveInfinities > 0 { return .infinity }
            if negativeInfinities > 0 { return -.infinity }
            return sum.value
        }
    }

    /// The column being written, row by row, in the summary's type.
    struct Output {
        let type: DataType
        var whole: [Int64]
        var decimals: [Double]
        var valid: Bitmap

        init(count: Int, type: DataType) {
            self.type = type
            let isDouble = type == .double
            whole = isDouble ? [] : [Int64](repeating: 0, count: count)
            decimals = isDouble ? [Double](repeating: 0, count: count) : []
            valid = Bitmap(count: count, value: false)
        }

        mutating func set(_ row: Int, _ s: State, _ arg: Column?) {
            switch s.function {
            case .count:
                whole[row] = Int64(arg == nil ? s.rows : s.count); valid[row] = true
            case .sum:
                guard s.count > 0 else { return }
                if type == .double { decimals[row] = s.doubleSum }
                else { guard let x = Int64(exactly: s.wholeSum) else { return }; whole[row] = x }
                valid[row] = true
            case .avg:
                guard s.count > 0 else { return }
                let isWhole: Bool
                if case .double = arg?.storage { isWhole = false } else { isWhole = true }
                let mean = isWhole ? Accumulate.divide(s.wholeSum, s.count) : s.doubleSum / Double(s.count)
                if type == .double { decimals[row] = mean }
                else { guard let x = Checked.int64(mean.rounded()) else { return }; whole[row] = x }
                valid[row] = true
            case .min, .max:
                guard s.queueStart < s.queue.count else { return }
                let best = s.queue[s.queueStart]
                if type == .double { decimals[row] = best.value } else { whole[row] = best.raw }
                valid[row] = true
            default: return
            }
        }

        func column() -> Column {
            let storage: Column.Storage
            switch type {
            case .double: storage = .double(decimals)
            case .duration: storage = .duration(whole)
            case .timestamp: storage = .timestamp(whole)
            default: storage = .int(whole)
            }
            return Column(name: "", storage: storage, validity: valid)
        }
    }
}
