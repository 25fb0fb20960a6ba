import CPocketSphinx

/// The cepstral mean of some audio as a decoder's own front end sees it (its parameters, its
/// silence removal): what `pocketsphinx_batch` normalises a whole utterance with. A decoder that
/// starts a file from it instead of the model's average (`-cmninit`) decodes the first seconds
/// as well as the rest. Not thread-safe: one per decoder.
final class CepstralMean {
  private let frontEnd: MFCCFrontEnd
  /// Fewer speech frames than this (half a second) say too little about the channel.
  static let minimumFrames = 50

  /// A front end with the decoder's configuration; nil when sphinxbase cannot make one.
  init?(decoder: OpaquePointer) {
    guard let config = ps_get_config(decoder), let frontEnd = MFCCFrontEnd(config: config) else {
      return nil
    }
    self.frontEnd = frontEnd
  }

  /// The mean of the speech frames in `samples` (frames without energy skipped, as the
  /// decoder's own running mean skips them); nil when there is too little speech.
  func of(_ samples: [Int16]) -> [Float]? {
    guard let (sum, count) = total(of: samples), count >= Self.minimumFrames else { return nil }
    return sum.map { Float($0 / Double(count)) }
  }

  /// The sum of the speech frames in `samples` and their count.
  func total(of samples: [Int16]) -> (sum: [Double], count: Int)? {
    let dimension = frontEnd.dimension
    var sum = [Double](repeating: 0, count: dimension)
    var count = 0
    func add(_ frames: UnsafeBufferPointer<Float>) {
      for start in stride(from: 0, to: frames.count, by: dimension) where frames[start] >= 0 {
        for index in 0..<dimension { sum[index] += Double(frames[start + index]) }
        count += 1
      }
    }
    frontEnd.startUtterance()
    frontEnd.process(samples, frames: add)
    frontEnd.endUtterance(frames: add)
    return (sum, count)
  }
}
