import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import WorkerThreads

extension SpeechDecoder {
  /// How much of a file's start `syncups transcribe` takes its cepstral mean from.
  public static let fileMeanSeconds = 30

  /// Decodes the rest of `reader` as a new stream: times count from the file's start. Stops
  /// early, with what it has, once `stop` is set.
  ///
  /// With `meanSeconds` > 0 the stream starts from the cepstral mean of the file's first
  /// `meanSeconds` (`CepstralMean`), as `pocketsphinx_batch` normalises a whole file, instead of
  /// the model's average: the first sentences of a file are then decoded as well as the rest.
  /// Only a whole file allows it (a microphone has no look-ahead), so it is off by default and
  /// the file path gives what a replay of the file through the microphone gives.
  public func transcribe(
    _ reader: AudioFileReader, until stop: StopFlag? = nil, meanSeconds: Int = 0
  ) throws(AudioFileError) -> Transcript {
    var head: [Int16] = []
    let headSamples = meanSeconds * AudioFormat.sampleRate
    while stop?.isSet != true, head.count < headSamples, let chunk = try reader.next() {
      head.append(contentsOf: chunk.samples)
    }
    startStream(cepstralMean: head.isEmpty ? nil : fileMean?.of(head))
    var utterances = process(head).finals
    while stop?.isSet != true, let chunk = try reader.next() {
      utterances += process(chunk.samples).finals
    }
    utterances += finish().finals
    return Transcript(duration: AudioFormat.seconds(samples: samplesFed), utterances: utterances)
  }
}

extension SentenceDecoder {
  /// Decodes the rest of `reader` sentence by sentence: times count from the file's start.
  public func transcribe(_ reader: AudioFileReader) throws(AudioFileError) -> Transcript {
    startStream()
    var utterances: [Utterance] = []
    var samples = 0
    while let chunk = try reader.next() {
      samples += chunk.samples.count
      utterances += process(chunk.samples)
    }
    utterances += finish()
    return Transcript(duration: AudioFormat.seconds(samples: samples), utterances: utterances)
  }
}

extension [TranscriptionEvent] {
  /// The finished utterances among these events, in order.
  var finals: [Utterance] {
    compactMap { event in
      if case .final(let utterance) = event { utterance } else { nil }
    }
  }
}
