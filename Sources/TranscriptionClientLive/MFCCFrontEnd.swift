import CPocketSphinx

/// sphinxbase's MFCC front end: 16 kHz samples in, frames of `dimension` cepstra out (c0 is the
/// energy), a block of frames at a time. Not thread-safe.
final class MFCCFrontEnd {
  private let frontEnd: OpaquePointer
  let dimension: Int
  private let buffer: UnsafeMutablePointer<Float>
  private var rows: [UnsafeMutablePointer<Float>?]
  private static let blockFrames = 64

  /// A front end with `config`'s parameters (a decoder's, or `fe_get_args` parsed).
  init?(config: OpaquePointer) {
    guard let frontEnd = fe_init_auto_r(config) else { return nil }
    let dimension = Int(fe_get_output_size(frontEnd))
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames * dimension)
    self.frontEnd = frontEnd
    self.dimension = dimension
    self.buffer = buffer
    rows = (0..<Self.blockFrames).map { buffer + $0 * dimension }
  }

  /// A front end with sphinxbase's defaults changed by `arguments` ("-samprate", "16000", ...).
  convenience init?(arguments: [String]) {
    var cArguments: [UnsafeMutablePointer<CChar>?] = (["syncups"] + arguments).map { strdup($0) }
    defer { for argument in cArguments { free(argument) } }
    guard let config = cmd_ln_parse_r(nil, fe_get_args(), Int32(cArguments.count), &cArguments, 1)
    else { return nil }
    defer { cmd_ln_free_r(config) }
    self.init(config: config)
  }

  deinit {
    _ = fe_free(frontEnd)
    buffer.deallocate()
  }

  func startUtterance() { _ = fe_start_utt(frontEnd) }

  /// Forgets the stream so far (its voice activity too) and starts an utterance.
  func startStream() {
    fe_start_stream(frontEnd)
    startUtterance()
  }

  /// Whether the last frame was speech, by the front end's voice activity detection (the one
  /// a decoder with the same configuration ends its utterances by).
  var inSpeech: Bool { fe_get_vad_state(frontEnd) != 0 }

  /// Computes the frames of `samples`, handing them to `frames` a block at a time (row after
  /// row, `dimension` values each; valid only during the call).
  func process(_ samples: [Int16], frames: (UnsafeBufferPointer<Float>) -> Void) {
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
        frames(UnsafeBufferPointer(start: buffer, count: Int(produced) * dimension))
        if produced == 0 && remaining == before { return }
      }
    }
  }

  /// Ends the utterance: hands `frames` the last frame, if the samples left make one.
  func endUtterance(frames: (UnsafeBufferPointer<Float>) -> Void) {
    var last: Int32 = 0
    _ = fe_end_utt(frontEnd, buffer, &last)
    frames(UnsafeBufferPointer(start: buffer, count: Int(last) * dimension))
  }
}
