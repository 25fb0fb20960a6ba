import Foundation

/// An error that says itself in words, for `ErrorWords.describe` (a library's error, made so by
/// the module that uses it).
public protocol WordedError: Error {
  var words: String { get }
}

/// Errors in words, one way everywhere on the laptop: never a Swift type name, a Foundation
/// domain or an error code; a full disk, a missing file, a refused permission read the same
/// whichever part of syncups met them.
public enum ErrorWords {
  public static let diskFull = "the disk is full"

  /// What a system error number means, in lower case as it reads inside a sentence (a full
  /// disk or quota as `diskFull`).
  public static func reason(errno code: Int32) -> String {
    if code == ENOSPC || code == EDQUOT { return diskFull }
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }

  /// `error` in words; `namingPath`: a file error starts with its file's path, for a caller
  /// that does not say which file it was.
  public static func describe(_ error: any Error, namingPath: Bool = false) -> String {
    if let worded = error as? any WordedError { return worded.words }
    if let error = error as? DecodingError {
      switch error {
      case .dataCorrupted(let context), .keyNotFound(_, let context),
        .typeMismatch(_, let context), .valueNotFound(_, let context):
        return context.debugDescription
      @unknown default:
        return "the data cannot be read"
      }
    }
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else {
      return String(describing: error)
    }
    let reason = ns.posixCode.map { Self.reason(errno: $0) } ?? cocoaReason(ns.code)
    guard namingPath, let path = ns.userInfo[NSFilePathErrorKey] as? String else { return reason }
    return "\(path): \(reason)"
  }

  private static func cocoaReason(_ code: Int) -> String {
    switch CocoaError.Code(rawValue: code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: "there is no such file or folder"
    case .fileWriteFileExists: "a file is in the way"
    case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
    case .fileWriteOutOfSpace: diskFull
    case .fileWriteVolumeReadOnly: "the disk is read-only"
    case .fileReadTooLarge: "the file is too large"
    case .fileReadCorruptFile, .fileReadUnknown: "the file cannot be read"
    case .fileWriteUnknown: "the file cannot be written"
    default: "the file system refused (error \(code))"
    }
  }
}

extension NSError {
  /// The system error behind a Foundation error, when there is one.
  fileprivate var posixCode: Int32? {
    if domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: code) }
    return (userInfo[NSUnderlyingErrorKey] as? NSError)?.posixCode
  }
}
