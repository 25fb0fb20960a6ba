import AudioCore
import AudioFilesClientLive
import Foundation
import TranscriptionClient

extension VoiceFrontEnd {
  /// The frames of a file between two times (seconds): the file is read from a little before
  /// `from` (the front end needs a few samples before a frame) and no further than `to`.
  static func frames(of url: URL, from: Double, to: Double) throws -> VoiceFrames {
    let reader = try AudioFileReader(path: url.path)
    guard let frontEnd = VoiceFrontEnd() else {
      throw TranscriptionError.decoderFailed("the speech front end could not start")
    }
    var origin: Double?
    while let chunk = try reader.next() {
      guard chunk.end >= from - 0.1 else { continue }
      if origin == nil { origin = chunk.start }
      frontEnd.process(chunk.samples)
      if chunk.end >= to { break }
    }
    guard let origin else { return VoiceFrames(dimension: 0, start: from) }
    return frontEnd.take(from: from - origin, to: to - origin, origin: origin)
  }
}
