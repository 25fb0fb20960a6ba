/// What a recording uses of what the sync-up learned from its corrected meetings:
/// `syncups record --use-learning all|words|voices|none` (for comparisons; the default is all).
public struct LearningUse: OptionSet, Equatable, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The team's words: the sync-up's own language model, from its transcripts.
  public static let words = LearningUse(rawValue: 1)
  /// The team's voices: each attendee's acoustic adaptation.
  public static let voices = LearningUse(rawValue: 2)
  public static let all: LearningUse = [.words, .voices]
  public static let none: LearningUse = []

  /// The value of `--use-learning`; nil for anything else.
  public init?(argument: String) {
    switch argument.lowercased() {
    case "all": self = .all
    case "words": self = .words
    case "voices": self = .voices
    case "none": self = .none
    default: return nil
    }
  }
}
