import AudioCore
import CPocketSphinx
import Foundation
import SpeechAdaptation
import TranscriptionClient

/// One PocketSphinx decoder, warm for a whole stream: feed it 16 kHz samples, get partial and
/// final results. Not thread-safe (neither is PocketSphinx): use each decoder from one task or
/// thread at a time.
public final class SpeechDecoder {
  let decoder: OpaquePointer
  private let options: DecoderOptions
  /// Samples are fed to PocketSphinx in fixed 10 ms blocks counted from the stream's start, so
  /// the result never depends on how the audio happened to be chunked (file or microphone).
  private static let blockSamples = 160
  private var pending: [Int16] = []
  private var inUtterance = false
  private var lastPartial = ""
  /// Samples fed since the stream started.
  public private(set) var samplesFed = 0

  public let model: SpeechModel
  /// The cepstral mean the decoder starts from, restored for every new stream so a stream's
  /// transcript never depends on what the decoder heard before (batch workers reuse decoders).
  private(set) var initialMean: [Float] = []
  /// Measures a file's cepstral mean with this decoder's front-end settings (made when needed).
  lazy var fileMean = CepstralMean(decoder: decoder)

  public init(options: DecoderOptions = DecoderOptions()) throws(TranscriptionError) {
    self.options = options
    let model = try SpeechModel.resolve(explicit: options.modelDirectory)
    self.model = model
    SphinxLog.set(verbose: options.verbose)
    let mix = options.languageModelMix()
    var arguments = [
      "syncups",
      "-hmm", model.acousticModel,
      "-dict", model.dictionary,
      "-vad_postspeech", String(options.endSilenceFrames),
      "-maxhmmpf", String(options.maxActiveHMMs),
    ]
    // A decoder with more than the general model gets its search from DecoderAdaptation alone:
    // each search PocketSphinx builds (its lexicon tree over the whole dictionary) took a
    // quarter of a short recording's CPU.
    if mix.isPlain { arguments += ["-lm", model.languageModel] }
    // No "-logfn": each decoder would fopen it and fclose the process-wide log file that other
    // decoders (other threads) are writing to, which corrupts the heap. See SphinxLog.
    arguments += options.extraArguments
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    defer { for argument in cArguments { free(argument) } }
    guard let config = cmd_ln_parse_r(nil, ps_args(), Int32(cArguments.count), &cArguments, 1)
    else {
      throw .decoderFailed(
        "PocketSphinx rejected its arguments \(arguments.dropFirst().joined(separator: " "))")
    }
    defer { cmd_ln_free_r(config) }
    guard let decoder = ps_init(config) else {
      let folder = (model.acousticModel as NSString).deletingLastPathComponent
      throw .decoderFailed(
        "PocketSphinx could not load the speech model in \(folder): a file is unreadable or damaged "
          + "(run with --verbose to see which; reinstall pocketsphinx-en-us for the system model)"
      )
    }
    do throws(AdaptationError) {
      try DecoderAdaptation.apply(mix, generalModel: model.languageModel, to: decoder)
    } catch {
      ps_free(decoder)
      throw .decoderFailed(error.description)
    }
    self.decoder = decoder
    if let cmn = ps_get_feat(decoder)?.pointee.cmn_struct {
      initialMean = [Float](repeating: 0, count: Int(cmn.pointee.veclen))
      cmn_live_get(cmn, &initialMean)
    }
    startStream()
  }

  deinit {
    if inUtterance { ps_end_utt(decoder) }
    ps_free(decoder)
  }

  /// Starts a new stream: times count from zero again, the acoustic adaptation is kept. It
  /// normalises from `cepstralMean` (see `CepstralMean`), else from the model's average.
  public func startStream(cepstralMean: [Float]? = nil) {
    if inUtterance { ps_end_utt(decoder) }
    inUtterance = false
    pending.removeAll(keepingCapacity: true)
    samplesFed = 0
    lastPartial = ""
    var mean = initialMean
    if let cepstralMean, cepstralMean.count == initialMean.count { mean = cepstralMean }
    if !mean.isEmpty, let cmn = ps_get_feat(decoder)?.pointee.cmn_struct {
      cmn_live_set(cmn, mean)
    }
    ps_start_stream(decoder)
    ps_start_utt(decoder)
  }

  /// Feeds samples; returns any finished utterances, and a partial when the hypothesis changed.
  public func process(_ samples: some Collection<Int16>) -> [TranscriptionEvent] {
    pending.append(contentsOf: samples)
    var events: [TranscriptionEvent] = []
    let whole = pending.count / Self.blockSamples * Self.blockSamples
    guard whole > 0 else { return events }
    pending.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < whole {
        let block = UnsafeBufferPointer(rebasing: buffer[offset..<offset + Self.blockSamples])
        if let event = feed(block) { events.append(event) }
        offset += Self.blockSamples
      }
    }
    pending.removeFirst(whole)
    if options.partials, inUtterance, let hyp = hypothesis(), hyp != lastPartial {
      lastPartial = hyp
      events.append(.partial(hyp))
    }
    return events
  }

  /// Ends the stream: decodes what is left and returns the last utterance, if any.
  public func finish() -> [TranscriptionEvent] {
    if !pending.isEmpty {
      pending.withUnsafeBufferPointer { buffer in
        _ = ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
      }
      samplesFed += pending.count
      pending.removeAll()
    }
    var events: [TranscriptionEvent] = []
    ps_end_utt(decoder)
    if inUtterance, let utterance = result() { events.append(.final(utterance)) }
    inUtterance = false
    lastPartial = ""
    ps_start_utt(decoder)
    return events
  }

  private func feed(_ block: UnsafeBufferPointer<Int16>) -> TranscriptionEvent? {
    _ = ps_process_raw(decoder, block.baseAddress, block.count, 0, 0)
    samplesFed += block.count
    let inSpeech = ps_get_in_speech(decoder) != 0
    if inSpeech, !inUtterance {
      inUtterance = true
      lastPartial = ""
    } else if !inSpeech, inUtterance {
      ps_end_utt(decoder)
      let utterance = result()
      inUtterance = false
      lastPartial = ""
      ps_start_utt(decoder)
      if let utterance { return .final(utterance) }
    }
    return nil
  }

  private func hypothesis() -> String? {
    guard let hyp = ps_get_hyp(decoder, nil) else { return nil }
    return String(cString: hyp)
  }

  /// The finished utterance's text and words; nil when nothing but noise was heard.
  private func result() -> Utterance? {
    guard let text = hypothesis(), !text.isEmpty else { return nil }
    // Computes the posteriors that ps_seg_prob reports.
    _ = ps_get_prob(decoder)
    let logmath = ps_get_logmath(decoder)
    var words: [Transcription.Word] = []
    var segment = ps_seg_iter(decoder)
    while let current = segment {
      let raw = String(cString: ps_seg_word(current))
      if let word = Self.spokenWord(raw) {
        var startFrame: Int32 = 0
        var endFrame: Int32 = 0
        ps_seg_frames(current, &startFrame, &endFrame)
        let logProbability = ps_seg_prob(current, nil, nil, nil)
        let confidence = min(1, max(0, logmath_exp(logmath, logProbability)))
        words.append(
          Transcription.Word(
            word: word,
            start: Double(startFrame) / 100,
            end: Double(endFrame + 1) / 100,
            confidence: (confidence * 10_000).rounded() / 10_000
          )
        )
      }
      segment = ps_seg_next(current)
    }
    let start = words.first?.start ?? AudioFormat.seconds(samples: samplesFed)
    let end = words.last?.end ?? start
    return Utterance(start: start, end: end, text: text, words: words)
  }

  /// "<s>", "</s>", "<sil>", "[NOISE]" and "++..++" are not words; "word(2)" is "word".
  static func spokenWord(_ raw: String) -> String? {
    guard let first = raw.first, first != "<", first != "[", first != "+" else { return nil }
    if let paren = raw.firstIndex(of: "("), raw.hasSuffix(")") {
      return String(raw[..<paren])
    }
    return raw
  }
}
