import CPocketSphinx

/// The cepstral mean of some audio as a decoder's own front end sees it (its parameters, its
/// silence removal): what `pocketsphinx_batch` normalises a whole utterance with. A decoder that
/// starts a file from it instead of the model's average (`-cmninit`) decodes the first seconds
/// as well as the rest. Not thread-safe: one per decoder.
final class CepstralMean {
  private let frontEnd: OpaquePointer
  private let dimension: Int
  private let buffer: UnsafeMutablePointer<Float>
  private var rows: [UnsafeMutablePointer<Float>?]
  private static let blockFrames = 64
  /// Fewer speech frames than this (half a second) say too little about the channel.
  static let minimumFrames = 50

  /// A front end with the decoder's configuration; nil when sphinxbase cannot make one.
  init?(decoder: OpaquePointer) {
    guard let config = ps_get_config(decoder), let frontEnd = fe_init_auto_r(config) else {
      return nil
    }
    self.frontEnd = frontEnd
    dimension = Int(fe_get_output_size(frontEnd))
    buffer = .allocate(capacity: Self.blockFrames * dimension)
    rows = (0..<Self.blockFrames).map { [buffer, dimension] in buffer + $0 * dimension }
  }

  deinit {
    _ = fe_free(frontEnd)
    buffer.deallocate()
  }

  /// The mean of the speech frames in `samples` (frames without energy skipped, as the
  /// decoder's own running mean skips them); nil when there is too little speech.
  func of(_ samples: [Int16]) -> [Float]? {
    var sum = [Double](repeating: 0, count: dimension)
    var frames = 0
    func add(_ count: Int) {
      for row in 0..<count {
        let frame = buffer + row * dimension
        guard frame[0] >= 0 else { continue }
        for index in 0..<dimension { sum[index] += Double(frame[index]) }
        frames += 1
      }
    }
    _ = fe_start_utt(frontEnd)
    samples.withUnsafeBufferPointer { samples in
      var pointer: UnsafePointer<Int16>? = samples.baseAddress
      var remaining = samples.count
      while remaining > 0 {
        var produced = Int32(Self.blockFrames)
        var index: Int32 = 0
        let before = remaining
        let result = rows.withUnsafeMutableBufferPointer { rows in
          fe_process_frames(frontEnd, &pointer, &remaining, rows.baseAddress, &produced, &index)
        }
        guard result >= 0 else { return }
        add(Int(produced))
        if produced == 0 && remaining == before { return }
      }
    }
    var last: Int32 = 0
    _ = fe_end_utt(frontEnd, buffer, &last)
    add(Int(last))
    guard frames >= Self.minimumFrames else { return nil }
    return sum.map { Float($0 / Double(frames)) }
  }
}
