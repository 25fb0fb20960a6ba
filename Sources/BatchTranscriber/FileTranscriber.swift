import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import TranscriptionClient
import TranscriptionClientLive

/// Transcribes whole files with one warm decoder: the model is loaded once, then each file is
/// decoded as its own stream (times from the file's start, the same words whatever came before).
public final class FileTranscriber {
  public let decoder: SpeechDecoder
  /// Each file starts from the cepstral mean of its first `meanSeconds` (0: from the model's
  /// average, as a microphone stream does); see `SpeechDecoder.transcribe`.
  public let meanSeconds: Int

  public init(
    options: DecoderOptions = DecoderOptions(partials: false), meanSeconds: Int = 0
  ) throws(TranscriptionError) {
    decoder = try SpeechDecoder(options: options)
    self.meanSeconds = meanSeconds
  }

  public func transcribe(path: String) throws(AudioFileError) -> Transcript {
    try decoder.transcribe(AudioFileReader(path: path), meanSeconds: meanSeconds)
  }
}
