/// Repeated measurements of one figure (for example images per second over N runs), summarised by the median
/// and the spread, as the benchmarks report them.
public struct Samples: Sendable, Codable, Hashable {
    /// The measured values, in the order they were taken.
    public private(set) var values: [Double]

    public init(_ values: [Double] = []) {
        self.values = values
    }

    /// Adds one measurement.
    public mutating func append(_ value: Double) {
        values.append(value)
    }

    /// The median (the mean of the middle two for an even count); 0 when empty.
    public var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The smallest value; 0 when empty.
    public var minimum: Double { values.min() ?? 0 }

    /// The largest value; 0 when empty.
    public var maximum: Double { values.max() ?? 0 }

    /// (maximum − minimum) / median, as a fraction (0.12 = ±6 % around the median); 0 when empty.
    public var relativeSpread: Double {
        median > 0 ? (maximum - minimum) / median : 0
    }

    private enum CodingKeys: String, CodingKey {
        case values, median, minimum, maximum
    }

    /// Encodes the values and, for readers of the JSON, their median, minimum and maximum.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .values)
        try container.encode(median, forKey: .median)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.container(keyedBy: CodingKeys.self).decode([Double].self, forKey: .values)
    }
}
