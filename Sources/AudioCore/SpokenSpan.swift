/// Part of a recording, from `start` to `end` seconds, and the words said there (empty when
/// not known yet).
public struct SpokenSpan: Equatable, Hashable, Sendable {
  public var start: Double
  public var end: Double
  public var text: String

  public init(start: Double, end: Double, text: String = "") {
    self.start = start
    self.end = end
    self.text = text
  }
}
