import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import TranscriptionClient
import TranscriptionClientLive

/// Transcribes whole files with one warm decoder: the model is loaded once, then each file is
/// decoded as its own stream (times from the file's start, the same words whatever came before).
public final class FileTranscriber {
  private let decoder: SpeechDecoder
  /// Each file starts from the cepstral mean of its first `meanSeconds` (0: from the model's
  /// average, as a microphone stream does); see `SpeechDecoder.transcribe`.
  public let meanSeconds: Int
  /// Set: each sentence is decoded alone from its own mean instead, as a recording's second
  /// pass does (`SentenceDecoder`).
  private let sentences: SentenceDecoder?

  public init(
    options: DecoderOptions = DecoderOptions(partials: false), meanSeconds: Int = 0,
    bySentence: Bool = false
  ) throws(TranscriptionError) {
    if bySentence {
      let sentences = try SentenceDecoder(options: options)
      self.sentences = sentences
      decoder = sentences.decoder
    } else {
      sentences = nil
      decoder = try SpeechDecoder(options: options)
    }
    self.meanSeconds = meanSeconds
  }

  public func transcribe(path: String) throws(AudioFileError) -> Transcript {
    let reader = try AudioFileReader(path: path)
    if let sentences { return try sentences.transcribe(reader) }
    return try decoder.transcribe(reader, meanSeconds: meanSeconds)
  }
}
