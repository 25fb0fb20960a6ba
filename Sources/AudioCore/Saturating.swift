/// Conversions of numbers that come from outside (files, the database, arguments), which never
/// trap: a value beyond what the type holds becomes its nearest end, NaN becomes zero.
extension FixedWidthInteger {
  public init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= Double(Self.max) {
      self = .max
    } else if value <= Double(Self.min) {
      self = .min
    } else {
      self.init(value)
    }
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded; the nearest end of `Int64` when beyond it.
  public var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let fraction = Int64((Double(attoseconds) / 1e15).rounded())
    let (sum, sumOverflow) = product.addingReportingOverflow(fraction)
    return sumOverflow ? (product < 0 ? .min : .max) : sum
  }
}
