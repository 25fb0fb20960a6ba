import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import WorkerThreads

extension SpeechDecoder {
  /// Decodes the rest of `reader` as a new stream: times count from the file's start. Stops
  /// early, with what it has, once `stop` is set.
  public func transcribe(
    _ reader: AudioFileReader, until stop: StopFlag? = nil
  ) throws(AudioFileError) -> Transcript {
    startStream()
    var utterances: [Utterance] = []
    func collect(_ events: [TranscriptionEvent]) {
      for case .final(let utterance) in events { utterances.append(utterance) }
    }
    while stop?.isSet != true, let chunk = try reader.next() {
      collect(process(chunk.samples))
    }
    collect(finish())
    return Transcript(duration: AudioFormat.seconds(samples: samplesFed), utterances: utterances)
  }
}
