import AudioCore
import AudioFilesClient

extension SpeechDecoder {
  /// Decodes the rest of `reader` as a new stream: times count from the file's start.
  public func transcribe(_ reader: AudioFileReader) throws(AudioFileError) -> Transcript {
    startStream()
    var utterances: [Utterance] = []
    func collect(_ events: [TranscriptionEvent]) {
      for case let .final(utterance) in events { utterances.append(utterance) }
    }
    while let chunk = try reader.next() {
      collect(process(chunk.samples))
    }
    collect(finish())
    return Transcript(duration: AudioFormat.seconds(samples: samplesFed), utterances: utterances)
  }
}
