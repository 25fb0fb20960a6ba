import GRDB

/// The fields that carry a hybrid logical clock of their own (`syncClock.field`): a sync-up's,
/// field by field; a meeting's (its latest change) and each corrected segment's; an attendee's
/// learned voice. The one list of them: the schema's triggers, the documents read from the
/// database and the pull all name a field through this type.
public enum ClockedField: Hashable, Sendable, CustomStringConvertible {
  case syncUp(SyncUpField)
  case meeting
  /// A corrected segment of a meeting (0 = the first).
  case segment(ordinal: Int)
  /// What is learned of an attendee (`PersonDocument`).
  case learned

  /// The sync-up's fields, each with its own clock.
  public enum SyncUpField: String, CaseIterable, Sendable {
    case title, theme, duration, attendees, vocabulary, deleted
    /// Stamped only once a sync-up's words are forgotten.
    case wordsForgotten

    /// Those a sync-up has from the day it is made.
    static let stampedWhenMade: [SyncUpField] = [
      .title, .theme, .duration, .attendees, .vocabulary, .deleted,
    ]
  }

  static let segmentPrefix = "segment:"

  /// The name `syncClock.field` stores.
  public var description: String {
    switch self {
    case .syncUp(let field): field.rawValue
    case .meeting: "meeting"
    case .segment(let ordinal): "\(Self.segmentPrefix)\(ordinal)"
    case .learned: "learned"
    }
  }

  /// The field a stored name names; nil for a name no version of syncups wrote.
  init?(stored name: String) {
    if let field = SyncUpField(rawValue: name) {
      self = .syncUp(field)
    } else if name == "meeting" {
      self = .meeting
    } else if name == "learned" {
      self = .learned
    } else if name.hasPrefix(Self.segmentPrefix),
      let ordinal = Int(name.dropFirst(Self.segmentPrefix.count)), ordinal >= 0
    {
      self = .segment(ordinal: ordinal)
    } else {
      return nil
    }
  }

  /// The name as an SQL string literal, for the schema's statements.
  var sql: String { "'\(description)'" }
}
