import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import TranscriptionClient
import TranscriptionClientLive

/// Transcribes whole files with one warm decoder: the model is loaded once, then each file is
/// decoded as its own stream (times from the file's start, the same words whatever came before).
public final class FileTranscriber {
  public let decoder: SpeechDecoder

  public init(
    options: DecoderOptions = DecoderOptions(partials: false)
  ) throws(TranscriptionError) {
    decoder = try SpeechDecoder(options: options)
  }

  public func transcribe(path: String) throws(AudioFileError) -> Transcript {
    try decoder.transcribe(AudioFileReader(path: path))
  }
}
