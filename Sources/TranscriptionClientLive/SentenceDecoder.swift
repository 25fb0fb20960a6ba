import AudioCore
import CPocketSphinx
import TranscriptionClient

/// Decodes a stream sentence by sentence: a `SentenceFinder` finds each sentence, and the
/// decoder decodes it alone, normalised by its own cepstral mean (as `pocketsphinx_batch`
/// normalises an utterance). In a stand-up the voice changes at every turn, and a running mean
/// still follows the previous voice for the first seconds of the next (measured: word errors of
/// whole stand-ups 26.3 % → 19.4 % over eight meetings of three to five voices,
/// `record --fast`). Times count from the stream's first sample. Not thread-safe.
public final class SentenceDecoder {
  public let decoder: SpeechDecoder
  private let finder: SentenceFinder
  /// The stream's samples from sample `kept` on: the sentences not decoded yet.
  private var audio: [Int16] = []
  private var kept = 0
  /// The sum and count of the stream's speech frames so far, after `priorFrames` of the
  /// model's average: what a short sentence's own mean is drawn towards (a few words say little
  /// about the voice).
  private var streamSum: [Double] = []
  private var streamFrames = 0
  /// How many frames (1.5 s) of the stream's mean a sentence's own mean is blended with
  /// (measured: 0 gave the bundled stand-up 10.1 % word errors and eight development meetings
  /// 19.6 %; 150 gave 7.6 % and 19.8 %; 400 gave 7.6 % and 20.5 %).
  static let priorFrames = 150.0

  public init(options: DecoderOptions) throws(TranscriptionError) {
    decoder = try SpeechDecoder(options: options)
    guard let config = ps_get_config(decoder.decoder), let finder = SentenceFinder(config: config)
    else { throw .decoderFailed("the speech front end could not start") }
    self.finder = finder
  }

  /// Starts a new stream: times count from zero again.
  public func startStream() {
    finder.startStream()
    audio = []
    kept = 0
    streamSum = []
    streamFrames = 0
  }

  /// Feeds samples; returns the sentences that ended.
  func process(_ samples: [Int16]) -> [Utterance] {
    audio.append(contentsOf: samples)
    let sentences = finder.process(samples).compactMap(decode)
    let done = min(max(finder.firstNeeded - kept, 0), audio.count)
    audio.removeFirst(done)
    kept += done
    return sentences
  }

  /// Ends the stream: the last sentence, if any.
  func finish() -> [Utterance] {
    finder.finish().compactMap(decode)
  }

  /// The mean of `samples`' speech frames, blended with the stream's (from the frames heard so
  /// far, this sentence's included) by `priorFrames`.
  private func mean(of samples: [Int16]) -> [Float]? {
    guard let (sum, count) = decoder.fileMean?.total(of: samples), count > 0 else { return nil }
    if streamSum.isEmpty {
      let average = decoder.initialMean.count == sum.count ? decoder.initialMean : []
      streamSum = sum.indices.map { average.isEmpty ? 0 : Double(average[$0]) * Self.priorFrames }
      streamFrames = average.isEmpty ? 0 : Int(Self.priorFrames)
    }
    for index in sum.indices { streamSum[index] += sum[index] }
    streamFrames += count
    let prior = Self.priorFrames
    return sum.indices.map { index in
      let stream = streamSum[index] / Double(streamFrames)
      return Float((sum[index] + prior * stream) / (Double(count) + prior))
    }
  }

  /// The stream's samples `range` decoded as one sentence, from their own mean; nil when
  /// nothing but noise is heard.
  private func decode(_ range: Range<Int>) -> Utterance? {
    let from = min(max(range.lowerBound - kept, 0), audio.count)
    let samples = Array(audio[from..<min(max(range.upperBound - kept, from), audio.count)])
    decoder.startStream(cepstralMean: mean(of: samples))
    let heard = (decoder.process(samples) + decoder.finish()).compactMap { event in
      if case .final(let utterance) = event { utterance } else { nil }
    }
    let offset = AudioFormat.seconds(samples: kept + from)
    let words = heard.flatMap(\.words).map { word in
      var word = word
      word.start += offset
      word.end += offset
      return word
    }
    guard let start = words.first?.start, let end = words.last?.end else { return nil }
    return Utterance(
      start: start, end: end, text: heard.map(\.text).joined(separator: " "), words: words)
  }
}
