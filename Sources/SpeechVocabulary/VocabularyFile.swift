import Foundation

/// Why a vocabulary file cannot be used. Each description is one line: what is wrong, what to do.
public struct VocabularyFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension Vocabulary {
  /// Largest vocabulary file read (a vocabulary is names and words, not a corpus).
  public static let maximumFileBytes = 1 << 20

  /// Reads a vocabulary file: UTF-8 text, one word or phrase per line; blank lines and lines
  /// starting with `#` are skipped. Any line that is not a usable term makes the whole file fail,
  /// naming the line, so nothing is silently dropped.
  public static func read(contentsOf path: String) throws(VocabularyFileError) -> Vocabulary {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw VocabularyFileError("vocabulary file \(path) does not exist; check the path")
    }
    guard !isDirectory.boolValue else {
      throw VocabularyFileError(
        "vocabulary file \(path) is a folder; give a text file with one word or phrase per line")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw VocabularyFileError("cannot read vocabulary file \(path); check its permissions")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
    } catch {
      throw VocabularyFileError(
        "cannot read vocabulary file \(path); check that it is a regular file")
    }
    guard data.count <= maximumFileBytes else {
      throw VocabularyFileError(
        "vocabulary file \(path) is larger than 1 MB; it should list names and words, one per line")
    }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw VocabularyFileError(
        "vocabulary file \(path) is not UTF-8 text; save it as plain text, one word or phrase "
          + "per line")
    }
    return try parse(text, name: path)
  }

  /// Parses vocabulary text (see `read(contentsOf:)`); `name` appears in error messages.
  public static func parse(_ text: String, name: String) throws(VocabularyFileError) -> Vocabulary {
    var vocabulary = Vocabulary()
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      switch normalize(trimmed) {
      case .success: vocabulary.insert(trimmed)
      case .failure(let problem):
        let shown = trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
        let printable = String(
          shown.unicodeScalars.map {
            $0.properties.generalCategory == .control ? "?" : Character($0)
          })
        throw VocabularyFileError(
          "vocabulary file \(name), line \(index + 1) ('\(printable)'): \(problem)")
      }
    }
    guard !vocabulary.isEmpty else {
      throw VocabularyFileError(
        "vocabulary file \(name) has no words; write one word or phrase per line")
    }
    return vocabulary
  }
}
