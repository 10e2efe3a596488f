/// Columns made from values a transit step computed one by one, nil where a row has none.
extension Column {
    static func texts(_ name: String, _ values: [String?]) -> Column {
        var dictionary: [String] = [], codes: [UInt32] = [], index: [String: UInt32] = [:]
        codes.reserveCapacity(values.count)
        for v in values {
            guard let v else { codes.append(0); continue }
            if let c = index[v] { codes.append(c); continue }
            index[v] = UInt32(dictionary.count); codes.append(UInt32(dictionary.count)); dictionary.append(v)
        }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)), validity: validity(values))
    }

    static func ints(_ name: String, _ values: [Int64?]) -> Column {
        Column(name: name, storage: .int(values.map { $0 ?? 0 }), validity: validity(values))
    }

    static func doubles(_ name: String, _ values: [Double?]) -> Column {
        Column(name: name, storage: .double(values.map { $0 ?? 0 }), validity: validity(values))
    }

    static func durations(_ name: String, _ values: [Int64?], unit: DisplayUnit) -> Column {
        Column(name: name, storage: .duration(values.map { $0 ?? 0 }), validity: validity(values), unit: unit)
    }

    private static func validity<T>(_ values: [T?]) -> Bitmap {
        var valid = Bitmap(count: values.count, value: true)
        for (k, v) in values.enumerated() where v == nil { valid[k] = false }
        return valid
    }
}
