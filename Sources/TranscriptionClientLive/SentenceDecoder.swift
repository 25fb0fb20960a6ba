import AudioCore
import CPocketSphinx
import SpeechAdaptation
import TranscriptionClient

/// Decodes a stream sentence by sentence: a `SentenceFinder` finds each sentence, and the
/// decoder decodes it alone, normalised by its own cepstral mean (as `pocketsphinx_batch`
/// normalises an utterance). In a stand-up the voice changes at every turn, and a running mean
/// still follows the previous voice for the first seconds of the next (measured: word errors of
/// whole stand-ups 26.3 % → 19.4 % over eight meetings of three to five voices,
/// `record --fast`; 20.3 % with `lookahead`). Times count from the stream's first sample. Not
/// thread-safe.
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
  /// The sentence decoded as it is heard, once longer than `lookahead`: its first sample, the
  /// next sample to feed, where the part its mean came from ends, and what was decoded so far.
  private var streaming: (first: Int, fed: Int, meanEnd: Int, heard: [Utterance])?
  /// Decoding a sentence only once it ends left up to 30 s to decode when a meeting ended;
  /// longer than this, it is decoded as it is heard, from the mean of its first 3 s (measured
  /// over eight stand-ups: whole sentences' means 19.4 % word errors, the first 3 s 20.3 %, 4 s
  /// 20.4 %, 5 s 20.2 %, 1.5 s 21.7 %).
  static let lookahead = 3 * AudioFormat.sampleRate
  /// The channel transform for narrowband sentences (nil: none found, or none wanted).
  private let band: BandTransform?
  /// The band of the whole stream so far: the meeting's.
  public private(set) var streamBand = AudioBand()
  /// Speech (20 ms frames: 1 s) a sentence needs to be judged by its own band rather than the
  /// stream's.
  static let ownBandFrames = 50

  public init(options: DecoderOptions) throws(TranscriptionError) {
    let decoder = try SpeechDecoder(options: options)
    guard let config = ps_get_config(decoder.decoder), let finder = SentenceFinder(config: config)
    else { throw .decoderFailed("the speech front end could not start") }
    self.decoder = decoder
    self.finder = finder
    let transform = NarrowbandModel.find(
      explicit: options.narrowbandTransform,
      standupModelDirectory: options.standupModelDirectory)
    band = transform.flatMap { BandTransform(path: $0, decoder: decoder.decoder) }
  }

  /// Whether the channel transform is in use now (the last sentence was heard narrowband).
  public var decodesNarrowband: Bool { band?.narrowband ?? false }

  /// Starts a new stream: times count from zero again.
  public func startStream() {
    finder.startStream()
    streamBand = AudioBand()
    audio = []
    kept = 0
    streamSum = []
    streamFrames = 0
    streaming = nil
  }

  /// Feeds samples; returns the sentences that ended.
  public func process(_ samples: [Int16]) -> [Utterance] {
    audio.append(contentsOf: samples)
    if band != nil { streamBand.add(samples) }
    let sentences = finder.process(samples).compactMap(end)
    if let first = finder.openSince { stream(from: first) }
    let done = min(max(finder.firstNeeded - kept, 0), audio.count)
    audio.removeFirst(done)
    kept += done
    return sentences
  }

  /// Ends the stream: the last sentence, if any.
  public func finish() -> [Utterance] {
    finder.finish().compactMap(end)
  }

  /// The sentence in `range` decoded: the rest of it if it is being decoded as it is heard,
  /// else the whole of it.
  private func end(_ range: Range<Int>) -> Utterance? {
    let streamed = streaming
    streaming = nil
    guard let open = streamed, open.first == range.lowerBound else { return decode(range) }
    let rest = samples(open.fed..<max(range.upperBound, open.fed))
    let unmeasured = samples(open.meanEnd..<max(range.upperBound, open.meanEnd))
    if let (sum, count) = decoder.fileMean?.total(of: unmeasured) { addToStream(sum, count) }
    // What was fed after the sentence's end (the finder ends it a little after the fact)
    // belongs to the next one.
    let heard = open.heard + (decoder.process(rest) + decoder.finish()).finals
    let end = AudioFormat.seconds(samples: range.upperBound - open.first)
    return sentence(from: heard.compactMap { $0.before(end) }, at: open.first)
  }

  /// A sentence heard for longer than `lookahead` is decoded as it goes on, from the mean of
  /// its first `lookahead`: whatever its length, little is left to decode when it ends.
  private func stream(from first: Int) {
    let seen = finder.seen
    if streaming?.first != first {
      guard seen - first >= Self.lookahead else { return }
      let start = samples(first..<seen)
      adapt(to: start)
      decoder.startStream(cepstralMean: mean(of: start))
      streaming = (first, first, seen, [])
    }
    guard var open = streaming, seen > open.fed else { return }
    open.heard += decoder.process(samples(open.fed..<seen)).finals
    open.fed = seen
    streaming = open
  }

  /// The mean of `samples`' speech frames, blended with the stream's (from the frames heard so
  /// far, this sentence's included) by `priorFrames`.
  private func mean(of samples: [Int16]) -> [Float]? {
    guard let (sum, count) = decoder.fileMean?.total(of: samples), count > 0 else { return nil }
    addToStream(sum, count)
    let prior = Self.priorFrames
    return sum.indices.map { index in
      let stream = streamSum[index] / Double(streamFrames)
      return Float((sum[index] + prior * stream) / (Double(count) + prior))
    }
  }

  /// Counts `count` speech frames summing to `sum` in the stream's mean.
  private func addToStream(_ sum: [Double], _ count: Int) {
    if streamSum.isEmpty {
      let average = decoder.initialMean.count == sum.count ? decoder.initialMean : []
      streamSum = sum.indices.map { average.isEmpty ? 0 : Double(average[$0]) * Self.priorFrames }
      streamFrames = average.isEmpty ? 0 : Int(Self.priorFrames)
    }
    for index in sum.indices { streamSum[index] += sum[index] }
    streamFrames += count
  }

  /// A narrowband sentence is decoded with the channel transform, any other without: judged by
  /// its own band when it has a second of speech, else by the stream's so far.
  private func adapt(to sentence: [Int16]) {
    guard let band else { return }
    let narrow =
      AudioBand(of: sentence).isNarrowband(minimumFrames: Self.ownBandFrames)
      ?? streamBand.isNarrowband() ?? false
    band.use(narrowband: narrow, in: decoder.decoder)
  }

  /// The stream's samples `range` decoded as one sentence, from their own mean; nil when
  /// nothing but noise is heard.
  private func decode(_ range: Range<Int>) -> Utterance? {
    let sentence = samples(range)
    adapt(to: sentence)
    decoder.startStream(cepstralMean: mean(of: sentence))
    return self.sentence(
      from: (decoder.process(sentence) + decoder.finish()).finals, at: range.lowerBound)
  }

  /// The buffered samples in `range` (the stream's sample numbers).
  private func samples(_ range: Range<Int>) -> [Int16] {
    let from = min(max(range.lowerBound - kept, 0), audio.count)
    return Array(audio[from..<min(max(range.upperBound - kept, from), audio.count)])
  }

  /// One sentence from what the decoder heard in it, its times moved to the stream's (it began
  /// at sample `first`); nil when nothing was heard.
  private func sentence(from heard: [Utterance], at first: Int) -> Utterance? {
    let offset = AudioFormat.seconds(samples: first)
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

extension Utterance {
  /// The words that begin before `seconds`; nil when none do.
  fileprivate func before(_ seconds: Double) -> Utterance? {
    let kept = words.filter { $0.start < seconds }
    guard kept.count < words.count else { return self }
    guard let last = kept.last else { return nil }
    var cut = self
    cut.words = kept
    cut.end = last.end
    cut.text = kept.map(\.word).joined(separator: " ")
    return cut
  }
}
