import Foundation

/// A mixture of Gaussians with diagonal covariances over feature vectors: how likely a frame is
/// under one voice (or under all voices, the background model). Each component also carries the
/// number of frames it was learned from, so that a model is refined by new frames in proportion
/// to what it already knows (`adapted(to:)`).
public struct GaussianMixture: Codable, Equatable, Sendable {
  public let dimension: Int
  public private(set) var weights: [Double]
  /// Component after component, `dimension` values each.
  public private(set) var means: [Double]
  public private(set) var variances: [Double]
  /// Frames (or the prior's pseudo-frames) behind each component.
  public private(set) var counts: [Double]

  // Per component: log weight − ½(D·log 2π + Σ log variance); and the inverse variances.
  private var constants: [Double] = []
  private var precisions: [Double] = []

  enum CodingKeys: String, CodingKey { case dimension, weights, means, variances, counts }

  /// The smallest variance kept, so no component collapses onto a few identical frames.
  static let varianceFloor = 1e-3

  public init(
    dimension: Int, weights: [Double], means: [Double], variances: [Double], counts: [Double]
  ) {
    self.dimension = dimension
    self.weights = weights
    self.means = means
    self.variances = variances.map { max($0, Self.varianceFloor) }
    self.counts = counts
    prepare()
  }

  /// Refuses what no training makes (sizes that disagree, values that are not numbers) before
  /// anything reads it: a model pulled from elsewhere never crashes the laptop that scores with it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let dimension = try container.decode(Int.self, forKey: .dimension)
    let weights = try container.decode([Double].self, forKey: .weights)
    let means = try container.decode([Double].self, forKey: .means)
    let variances = try container.decode([Double].self, forKey: .variances)
    let counts = try container.decode([Double].self, forKey: .counts)
    guard (1...Self.largestDimension).contains(dimension),
      (1...Self.mostComponents).contains(weights.count),
      means.count == weights.count * dimension, variances.count == means.count,
      counts.count == weights.count,
      [weights, means, variances, counts].allSatisfy({ $0.allSatisfy(\.isFinite) }),
      variances.allSatisfy({ $0 > 0 })
    else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "inconsistent mixture sizes"))
    }
    self.init(
      dimension: dimension, weights: weights, means: means, variances: variances, counts: counts)
  }

  /// Bounds of a mixture that can be read back (far above what training makes).
  static let largestDimension = 1_000
  static let mostComponents = 4_096

  public var components: Int { weights.count }

  /// Frames behind the whole model.
  public var frameCount: Double { counts.reduce(0, +) }

  private mutating func prepare() {
    let logTwoPi = log(2 * Double.pi)
    constants = (0..<components).map { k in
      var sum = Double(dimension) * logTwoPi
      for d in 0..<dimension { sum += log(variances[k * dimension + d]) }
      return log(max(weights[k], 1e-12)) - sum / 2
    }
    precisions = variances.map { 1 / $0 }
  }

  /// Each component's log(weight · density) at one frame, into `out`.
  func componentLogLikelihoods(_ frame: ArraySlice<Float>, into out: inout [Double]) {
    let base = frame.startIndex
    for k in 0..<components {
      var distance = 0.0
      let offset = k * dimension
      for d in 0..<dimension {
        let difference = Double(frame[base + d]) - means[offset + d]
        distance += difference * difference * precisions[offset + d]
      }
      out[k] = constants[k] - distance / 2
    }
  }

  /// log p(frame).
  public func logLikelihood(_ frame: ArraySlice<Float>) -> Double {
    var scratch = [Double](repeating: 0, count: components)
    componentLogLikelihoods(frame, into: &scratch)
    return logSumExp(scratch)
  }

  /// log p of each frame.
  public func logLikelihoods(_ frames: FrameSet) -> [Double] {
    var scratch = [Double](repeating: 0, count: components)
    return (0..<frames.count).map { index in
      componentLogLikelihoods(frames[index], into: &scratch)
      return logSumExp(scratch)
    }
  }

  /// What the frames say about each component (responsibilities under this model): occupancy,
  /// first and second moments.
  public func statistics(of frames: FrameSet) -> Statistics {
    var statistics = Statistics(components: components, dimension: dimension)
    var occupancy = statistics.occupancy
    var first = statistics.first
    var second = statistics.second
    var scratch = [Double](repeating: 0, count: components)
    frames.values.withUnsafeBufferPointer { values in
      for index in 0..<frames.count {
        componentLogLikelihoods(frames[index], into: &scratch)
        let total = logSumExp(scratch)
        let base = index * dimension
        for k in 0..<components {
          let responsibility = exp(scratch[k] - total)
          guard responsibility > 1e-6 else { continue }
          occupancy[k] += responsibility
          let offset = k * dimension
          for d in 0..<dimension {
            let value = Double(values[base + d])
            first[offset + d] += responsibility * value
            second[offset + d] += responsibility * value * value
          }
        }
      }
    }
    statistics.occupancy = occupancy
    statistics.first = first
    statistics.second = second
    return statistics
  }

  /// This model refined by frames' statistics (gathered under this model): each component moves
  /// toward what the frames say in proportion to how many frames it holds against how many it
  /// was learned from (maximum a posteriori, one EM step over old and new frames together).
  public func adapted(to statistics: Statistics, maximumCount: Double = .infinity) -> Self {
    var weights = weights
    var means = means
    var variances = variances
    var counts = counts
    for k in 0..<components {
      let old = counts[k]
      let new = statistics.occupancy[k]
      let total = old + new
      guard total > 0, new > 0 else { continue }
      let offset = k * dimension
      for d in 0..<dimension {
        let mean = (old * means[offset + d] + statistics.first[offset + d]) / total
        let square =
          (old * (variances[offset + d] + means[offset + d] * means[offset + d])
            + statistics.second[offset + d]) / total
        means[offset + d] = mean
        variances[offset + d] = max(square - mean * mean, Self.varianceFloor)
      }
      counts[k] = total
    }
    // A model learned from very many frames still listens to new ones.
    let sum = counts.reduce(0, +)
    if sum > maximumCount { counts = counts.map { $0 * maximumCount / sum } }
    let newSum = counts.reduce(0, +)
    for k in 0..<components { weights[k] = counts[k] / newSum }
    return GaussianMixture(
      dimension: dimension, weights: weights, means: means, variances: variances, counts: counts)
  }

  /// The same components, each as if learned from `count` frames: a prior that new frames
  /// outweigh once a component holds more than that many.
  public func withCounts(_ count: Double) -> Self {
    GaussianMixture(
      dimension: dimension, weights: weights, means: means, variances: variances,
      counts: Array(repeating: count, count: components))
  }

  /// A mixture learned from frames by expectation-maximisation, starting from components
  /// placed on frames spread evenly through the set (deterministic: the same frames give the
  /// same model). Fewer frames than components give fewer components.
  public static func trained(
    on frames: FrameSet, components requested: Int, iterations: Int = 8
  ) -> GaussianMixture? {
    let dimension = frames.dimension
    guard frames.count >= 2, dimension > 0 else { return nil }
    let components = max(1, min(requested, frames.count / 4))
    // The global mean and variance: the starting variances, and the start of every component.
    var mean = [Double](repeating: 0, count: dimension)
    var square = [Double](repeating: 0, count: dimension)
    for index in 0..<frames.count {
      let frame = frames[index]
      for d in 0..<dimension {
        let value = Double(frame[frame.startIndex + d])
        mean[d] += value
        square[d] += value * value
      }
    }
    let n = Double(frames.count)
    let variance = (0..<dimension).map { max(square[$0] / n - mean[$0] * mean[$0] / (n * n), 1e-2) }
    var means: [Double] = []
    for k in 0..<components {
      let frame = frames[(k * frames.count + frames.count / 2) / components]
      means += frame.map { Double($0) }
    }
    var model = GaussianMixture(
      dimension: dimension, weights: Array(repeating: 1 / Double(components), count: components),
      means: means, variances: Array(repeated(variance, components)),
      counts: Array(repeating: 0, count: components))
    for _ in 0..<iterations {
      let statistics = model.statistics(of: frames)
      model = model.maximised(statistics)
    }
    return model
  }

  /// The model whose parameters are the statistics' (an EM step's M step); a component that
  /// holds almost no frames keeps its place.
  func maximised(_ statistics: Statistics) -> Self {
    var weights = weights
    var means = means
    var variances = variances
    let total = max(statistics.occupancy.reduce(0, +), 1e-9)
    for k in 0..<components {
      let occupancy = statistics.occupancy[k]
      weights[k] = max(occupancy / total, 1e-4)
      guard occupancy > 1 else { continue }
      let offset = k * dimension
      for d in 0..<dimension {
        let mean = statistics.first[offset + d] / occupancy
        means[offset + d] = mean
        variances[offset + d] = statistics.second[offset + d] / occupancy - mean * mean
      }
    }
    let sum = weights.reduce(0, +)
    return GaussianMixture(
      dimension: dimension, weights: weights.map { $0 / sum }, means: means,
      variances: variances, counts: statistics.occupancy)
  }

  /// Sufficient statistics of frames against a mixture's components.
  public struct Statistics: Equatable, Sendable {
    public var occupancy: [Double]
    public var first: [Double]
    public var second: [Double]

    public init(components: Int, dimension: Int) {
      occupancy = Array(repeating: 0, count: components)
      first = Array(repeating: 0, count: components * dimension)
      second = first
    }

    public static func + (lhs: Self, rhs: Self) -> Self {
      var sum = lhs
      sum += rhs
      return sum
    }

    public static func += (lhs: inout Self, rhs: Self) {
      for i in lhs.occupancy.indices { lhs.occupancy[i] += rhs.occupancy[i] }
      for i in lhs.first.indices {
        lhs.first[i] += rhs.first[i]
        lhs.second[i] += rhs.second[i]
      }
    }

    public static func - (lhs: Self, rhs: Self) -> Self {
      var difference = lhs
      for i in difference.occupancy.indices {
        difference.occupancy[i] = max(0, difference.occupancy[i] - rhs.occupancy[i])
      }
      for i in difference.first.indices {
        difference.first[i] -= rhs.first[i]
        difference.second[i] -= rhs.second[i]
      }
      return difference
    }
  }
}

private func repeated(_ values: [Double], _ times: Int) -> [Double] {
  (0..<times).flatMap { _ in values }
}

func logSumExp(_ values: [Double]) -> Double {
  guard let top = values.max(), top > -.infinity else { return -.infinity }
  var sum = 0.0
  for value in values { sum += exp(value - top) }
  return top + log(sum)
}
