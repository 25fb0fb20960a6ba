import AudioCore
import AudioFilesClientLive
import Foundation
import TranscriptionClient

extension SpeakerTransforms {
  /// Decodes `spans` of `audio` again with `transform` (a `-mllr` file) applied: for each span
  /// its words as one utterance in seconds from the file's start, nil when none were heard.
  /// Blocking: call from a worker thread.
  public static func redecode(
    audio: URL, spans: [Span], transform: Data, options: DecoderOptions
  ) throws -> [Utterance?] {
    let folder = try TemporaryFolder("syncups-mllr")
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("mllr_matrix")
    try transform.write(to: file)
    var options = options
    options.partials = false
    options.extraArguments += ["-mllr", file.path]
    let decoder = try SpeechDecoder(options: options)
    let samples = try AudioFileReader(path: audio.path).readAll()
    let rate = Double(AudioFormat.sampleRate)
    return spans.map { span in
      let first = min(samples.count, max(0, Int(span.start * rate)))
      let last = min(samples.count, max(first, Int(span.end * rate)))
      decoder.startStream(cepstralMean: decoder.fileMean?.of(Array(samples[first..<last])))
      var heard: [Utterance] = []
      for events in [decoder.process(samples[first..<last]), decoder.finish()] {
        for case .final(let utterance) in events { heard.append(utterance) }
      }
      guard !heard.isEmpty else { return nil }
      let words = heard.flatMap(\.words)
      let joined = Utterance(
        start: heard[0].start, end: heard[heard.count - 1].end,
        text: heard.map(\.text).joined(separator: " "), words: words)
      return joined.shifted(by: Double(first) / rate)
    }
  }
}
