import AudioCore
import AudioFilesClient
import TranscriptionClient

/// Transcribes whole files with one warm decoder: the model is loaded once, then each file is
/// decoded as its own stream (times from the file's start, the same words whatever came before).
public final class FileTranscriber {
  public let decoder: SpeechDecoder

  public init(options: DecoderOptions = DecoderOptions(partials: false)) throws(TranscriptionError) {
    decoder = try SpeechDecoder(options: options)
  }

  public func transcribe(path: String) throws(AudioFileError) -> Transcript {
    let reader = try AudioFileReader(path: path)
    decoder.startStream()
    var utterances: [Utterance] = []
    var samples = 0
    func collect(_ events: [TranscriptionEvent]) {
      for case let .final(utterance) in events { utterances.append(utterance) }
    }
    while let chunk = try reader.next() {
      samples += chunk.samples.count
      collect(decoder.process(chunk.samples))
    }
    collect(decoder.finish())
    return Transcript(duration: AudioFormat.seconds(samples: samples), utterances: utterances)
  }
}
