import AudioCore
import AudioFilesClientLive
import Foundation
import TranscriptionClient

extension SpeakerTransforms {
  /// The words of `spans` of `audio` heard again with `transform` (a `-mllr` file; nil: none)
  /// applied: for each span, the words whose middle falls in it as one utterance in seconds from
  /// the file's start, nil when none. The whole file is decoded as the second pass decodes it
  /// (sentence by sentence), so that no sentence loses its edges or its context, and with no
  /// transform the words are the second pass's. A transform, estimated from these voices in
  /// their own band, stands in for the narrowband channel transform. Blocking: call from a
  /// worker thread.
  public static func redecode(
    audio: URL, spans: [Span], transform: Data?, options: DecoderOptions
  ) throws -> [Utterance?] {
    let folder = try TemporaryFolder("syncups-mllr")
    defer { folder.remove() }
    var options = options
    options.partials = false
    if let transform {
      let file = folder.url.appendingPathComponent("mllr_matrix")
      try transform.write(to: file)
      options.extraArguments += ["-mllr", file.path]
      options.narrowbandTransform = "none"
    }
    let decoder = try SentenceDecoder(options: options)
    let transcript = try decoder.transcribe(try AudioFileReader(path: audio.path))
    let words = transcript.utterances.flatMap(\.words)
    return spans.map { span in
      let inside = words.filter { span.start...span.end ~= ($0.start + $0.end) / 2 }
      guard let first = inside.first, let last = inside.last else { return nil }
      return Utterance(
        start: first.start, end: last.end, text: inside.map(\.word).joined(separator: " "),
        words: inside)
    }
  }
}
