import AudioCore
import CPocketSphinx
import Foundation

/// sphinxbase's MFCC front end over a whole stream: 13 cepstra (c0 is the energy) every 10 ms,
/// every frame kept (no silence removal), so frame i starts i/100 s after the stream's first
/// sample. Keeps the frames not yet taken by `take`. Not thread-safe.
final class VoiceFrontEnd {
  private let frontEnd: MFCCFrontEnd
  private var dimension: Int { frontEnd.dimension }
  /// Frames since `firstFrame`, row after row.
  private var frames: [Float] = []
  private var firstFrame = 0

  init?() {
    guard
      let frontEnd = MFCCFrontEnd(arguments: [
        "-samprate", "16000", "-remove_silence", "no", "-remove_noise", "no",
      ])
    else { return nil }
    self.frontEnd = frontEnd
    frontEnd.startUtterance()
  }

  /// Adds a chunk's samples.
  func process(_ samples: [Int16]) {
    frontEnd.process(samples) { frames.append(contentsOf: $0) }
  }

  /// The frames between two times (seconds from the stream's start); those before `to` are
  /// dropped (utterances come in order).
  func take(from: Double, to: Double, origin: Double) -> VoiceFrames {
    let count = frames.count / dimension
    let first = min(
      max(Int(saturating: from * VoiceFrames.framesPerSecond) &- firstFrame, 0), count)
    let last = min(
      max(Int(saturating: (to * VoiceFrames.framesPerSecond).rounded(.up)) &- firstFrame, first),
      count)
    let taken = VoiceFrames(
      dimension: dimension, values: Array(frames[first * dimension..<last * dimension]),
      start: origin + Double(firstFrame + first) / VoiceFrames.framesPerSecond)
    frames.removeFirst(last * dimension)
    firstFrame += last
    return taken
  }
}
