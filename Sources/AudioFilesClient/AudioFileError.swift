import ErrorWords

/// Why an audio file could not be read or written. Each description is one line: the file, what
/// is wrong, what to do.
public enum AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
  case notFound(path: String)
  case empty(path: String)
  case notAudio(path: String, reason: String)
  /// A FIFO, a device, a socket: `kind` says which.
  case notRegularFile(path: String, kind: String)
  case truncated(path: String)
  case unreadable(path: String, reason: String)
  case unsupportedFormat(path: String)
  case writeFailed(path: String, reason: String)
  /// A folder, move, delete or sync that failed; `reason` says what and why.
  case fileOperationFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let path):
      "\(path): file not found (check the path)"
    case .empty(let path):
      "\(path): the file is empty (no audio to read)"
    case .notAudio(let path, let reason):
      "\(path): not an audio file libsndfile can read (\(reason)); give a WAV, FLAC or OGG file"
    case .notRegularFile(let path, let kind):
      "\(path): not a regular file (it is \(kind)); give a WAV, FLAC or OGG file"
    case .truncated(let path):
      "\(path): the audio file is truncated (it ends before its header says); re-export or re-copy it"
    case .unreadable(let path, let reason):
      "\(path): cannot be read (\(reason))"
    case .unsupportedFormat(let path):
      "\(path): cannot write this kind of file; name it .flac, .wav or .ogg"
    case .writeFailed(let path, let reason):
      "\(path): cannot write audio (\(reason))"
    case .fileOperationFailed(let path, let reason):
      "\(path): \(reason)"
    }
  }
}

extension AudioFileError: WordedError {
  /// What a recording says when its input cannot be read: a missing file in few words.
  public var words: String {
    if case .notFound(let path) = self { return "cannot read \(path): no such file" }
    return description
  }
}
