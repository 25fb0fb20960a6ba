/// Why transcription could not run. Each description is one line: what is wrong, what to do.
public enum TranscriptionError: Error, Equatable, Sendable, CustomStringConvertible {
  case modelNotFound(String)
  case decoderFailed(String)

  public var detail: String {
    switch self {
    case .modelNotFound(let message), .decoderFailed(let message): message
    }
  }

  public var description: String { detail }
}
