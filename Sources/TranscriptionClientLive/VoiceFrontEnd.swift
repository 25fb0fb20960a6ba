import AudioCore
import CPocketSphinx
import Foundation

/// sphinxbase's MFCC front end over a whole stream: 13 cepstra (c0 is the energy) every 10 ms,
/// every frame kept (no silence removal), so frame i starts i/100 s after the stream's first
/// sample. Keeps the frames not yet taken by `take`. Not thread-safe.
final class VoiceFrontEnd {
  private let frontEnd: OpaquePointer
  private let dimension: Int
  /// Frames since `firstFrame`, row after row.
  private var frames: [Float] = []
  private var firstFrame = 0
  private var buffer: UnsafeMutablePointer<Float>
  private var rows: [UnsafeMutablePointer<Float>?]
  private static let blockFrames = 64

  init?() {
    let arguments = [
      "syncups", "-samprate", "16000", "-remove_silence", "no", "-remove_noise", "no",
    ]
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    defer { for argument in cArguments { free(argument) } }
    guard let config = cmd_ln_parse_r(nil, fe_get_args(), Int32(cArguments.count), &cArguments, 1)
    else { return nil }
    defer { cmd_ln_free_r(config) }
    guard let frontEnd = fe_init_auto_r(config) else { return nil }
    let dimension = Int(fe_get_output_size(frontEnd))
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames * dimension)
    self.frontEnd = frontEnd
    self.dimension = dimension
    self.buffer = buffer
    rows = (0..<Self.blockFrames).map { buffer + $0 * dimension }
    _ = fe_start_utt(frontEnd)
  }

  deinit {
    _ = fe_free(frontEnd)
    buffer.deallocate()
  }

  /// Adds a chunk's samples.
  func process(_ samples: [Int16]) {
    samples.withUnsafeBufferPointer { samples in
      guard samples.count > 0 else { return }
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
        frames.append(
          contentsOf: UnsafeBufferPointer(start: buffer, count: Int(produced) * dimension))
        if produced == 0 && remaining == before { return }
      }
    }
  }

  /// The frames between two times (seconds from the stream's start); those before `to` are
  /// dropped (utterances come in order).
  func take(from: Double, to: Double, origin: Double) -> VoiceFrames {
    let count = frames.count / dimension
    let first = min(max(Int(from * VoiceFrames.framesPerSecond) - firstFrame, 0), count)
    let last = min(
      max(Int((to * VoiceFrames.framesPerSecond).rounded(.up)) - firstFrame, first), count)
    let taken = VoiceFrames(
      dimension: dimension, values: Array(frames[first * dimension..<last * dimension]),
      start: origin + Double(firstFrame + first) / VoiceFrames.framesPerSecond)
    frames.removeFirst(last * dimension)
    firstFrame += last
    return taken
  }
}
