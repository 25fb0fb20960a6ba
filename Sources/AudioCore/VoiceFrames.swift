/// What a stretch of speech sounds like, frame by frame, for telling voices apart: cepstral
/// vectors (sphinxbase's MFCC front end, 100 frames a second), stored row after row.
public struct VoiceFrames: Sendable, Equatable, Hashable {
  /// Values per frame.
  public var dimension: Int
  /// `count × dimension` values, frame after frame.
  public var values: [Float]
  /// Seconds from the start of the stream to the first frame.
  public var start: Double

  public static let framesPerSecond = 100.0

  public init(dimension: Int, values: [Float] = [], start: Double) {
    self.dimension = dimension
    self.values = values
    self.start = start
  }

  public var count: Int { dimension == 0 ? 0 : values.count / dimension }

  /// Frame `index`'s values.
  public subscript(index: Int) -> ArraySlice<Float> {
    values[index * dimension..<(index + 1) * dimension]
  }

  /// The frames between two stream times (seconds), clamped to those there are.
  public func between(_ from: Double, _ to: Double) -> VoiceFrames {
    let first = max(
      0, min(count, Int(saturating: ((from - start) * Self.framesPerSecond).rounded())))
    let last = max(
      first, min(count, Int(saturating: ((to - start) * Self.framesPerSecond).rounded())))
    return VoiceFrames(
      dimension: dimension, values: Array(values[first * dimension..<last * dimension]),
      start: start + Double(first) / Self.framesPerSecond)
  }
}
