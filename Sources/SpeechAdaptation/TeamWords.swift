import CPocketSphinx
import Foundation

/// A sync-up's own language model as a decoder loads it: an ARPA file written by `write` (a
/// `TeamLanguageModel` of its transcripts) whose first line says how much text it learned from
/// and the weight its held-out text chose (`TeamWordsWeight`), which set its weight in the
/// interpolated model.
public struct TeamWords: Sendable, Equatable {
  public var path: String
  /// Weighted words it was counted from.
  public var wordCount: Double
  /// Its words (for the dictionary: those it lacks get pronunciations as vocabulary words do).
  public var words: [String]
  /// The share its held-out text chose; nil when there was none to choose by.
  public var chosenWeight: Double?

  /// Its share of the interpolated model: the chosen one, else one that grows with the text,
  /// `maximumWeight` at most (half of it after `halfWeightWords` words).
  public var weight: Double {
    chosenWeight ?? Self.maximumWeight * wordCount / (wordCount + Self.halfWeightWords)
  }
  public static let maximumWeight = 0.5
  public static let halfWeightWords = 400.0

  static let header = "syncups team words: "

  public init(path: String, wordCount: Double, words: [String], chosenWeight: Double? = nil) {
    self.path = path
    self.wordCount = wordCount
    self.words = words
    self.chosenWeight = chosenWeight
  }

  /// Writes `model` to `path` atomically (a temporary file renamed over it): a crash mid-write
  /// leaves the previous model whole. `signature` is kept in the header (see `signature(of:)`),
  /// and `weight` when one was chosen.
  public static func write(
    _ model: TeamLanguageModel, signature: String, weight: Double? = nil, to path: String
  ) throws {
    let chosen = weight.map { " " + String(format: "%.4f", $0) } ?? ""
    let text =
      "\(header)\(String(format: "%.1f", model.wordCount)) \(signature)\(chosen)\n"
      + model.arpa()
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let temporary = path + ".\(getpid()).partial"
    guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
      throw AdaptationError("cannot write \(temporary)")
    }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw AdaptationError("cannot replace \(path)")
    }
  }

  /// The signature a model at `path` was built from; nil when there is none (or unreadable).
  public static func signature(at path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 200),
      let line = String(data: data, encoding: .utf8)?.split(separator: "\n").first,
      line.hasPrefix(header)
    else { return nil }
    return line.dropFirst(header.count).split(separator: " ").dropFirst().first.map(String.init)
  }

  /// Loads the header and words of the model at `path`; nil when there is none or it is not one.
  public static func load(path: String) -> TeamWords? {
    guard let data = FileManager.default.contents(atPath: path),
      let text = String(data: data, encoding: .utf8),
      text.hasPrefix(header),
      let firstLine = text.split(separator: "\n", maxSplits: 1).first,
      case let fields = firstLine.dropFirst(header.count).split(separator: " "),
      let count = fields.first.flatMap({ Double($0) }),
      let start = text.range(of: "\\1-grams:\n"),
      let end = text.range(of: "\n\\2-grams:", range: start.upperBound..<text.endIndex)
    else { return nil }
    let words = text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap {
      line -> String? in
      let fields = line.split(separator: " ")
      guard fields.count >= 2, !fields[1].hasPrefix("<") else { return nil }
      return String(fields[1])
    }
    let chosen = fields.dropFirst(2).first.flatMap { Double($0) }.flatMap {
      $0.isFinite ? $0 : nil
    }.map {
      min(max($0, TeamWordsWeight.range.lowerBound), TeamWordsWeight.range.upperBound)
    }
    return TeamWords(path: path, wordCount: count, words: words, chosenWeight: chosen)
  }

  func read(config: OpaquePointer?, logmath: OpaquePointer?) throws(AdaptationError)
    -> OpaquePointer
  {
    guard let model = ngram_model_read(config, path, NGRAM_ARPA, logmath) else {
      throw AdaptationError("cannot load the team's words model \(path)")
    }
    return model
  }
}
