import Foundation
import GRDB
import SyncUpsFeatures

/// How a command names a sync-up (`REF`): the start of its id or of its title (any case). A
/// complete id always wins, then a whole title, then the starts of ids and titles. More than
/// one match is an error that lists them; none, an error that suggests close titles. One rule
/// for the commands that read (from a query of ids and titles) and those that edit the list.
public struct SyncUpName: Equatable, Sendable {
  public var id: SyncUp.ID
  public var title: String

  public init(id: SyncUp.ID, title: String) {
    self.id = id
    self.title = title
  }

  /// `'Title' (1a2b3c4d)`: how messages name a sync-up.
  public var label: String { "'\(title.visible)' (\(id.short))" }

  /// The one sync-up `reference` names among `all` (in the list's order).
  public static func resolve(_ reference: String, in all: [SyncUpName]) throws(CLIError) -> Self {
    let query = reference.trimmingCharacters(in: .whitespaces)
    let lowered = query.lowercased()
    guard !lowered.isEmpty else {
      throw CLIError("no sync-up matches ''; give the start of its id or its title")
    }
    let byID = all.filter { $0.id.full == lowered }
    let byTitle = all.filter { $0.title.lowercased() == lowered }
    let byStart = all.filter {
      $0.id.full.hasPrefix(lowered) || $0.title.lowercased().hasPrefix(lowered)
    }
    let matches = [byID, byTitle, byStart].first { !$0.isEmpty } ?? []
    guard matches.count <= 1 else {
      throw CLIError(
        "'\(query)' matches \(matches.count) sync-ups: "
          + matches.map(\.label).joined(separator: ", ")
          + "; use more of the title or the id"
      )
    }
    guard let match = matches.first else {
      throw CLIError("no sync-up matches '\(query)'" + suggestions(for: lowered, in: all))
    }
    return match
  }

  private static func suggestions(for query: String, in all: [SyncUpName]) -> String {
    let close =
      all
      .map { (name: $0, distance: editDistance(query, $0.title.lowercased())) }
      .filter {
        $0.distance <= max(2, query.count / 3) || $0.name.title.lowercased().contains(query)
      }
      .sorted { $0.distance < $1.distance }
      .prefix(3)
    if close.isEmpty {
      return all.isEmpty
        ? "; there are no sync-ups yet: add one with 'syncups add'"
        : "; 'syncups list' shows them all"
    }
    return "; did you mean " + close.map { $0.name.label }.joined(separator: " or ") + "?"
  }
}

/// Every sync-up's id and title, in the list's order: what resolving a `REF` reads (no
/// attendees, no meetings).
struct SyncUpNamesRequest: FetchKeyRequest {
  func fetch(_ db: Database) throws -> [SyncUpName] {
    try SyncUpTitlesRequest().fetch(db).map(\.name)
  }
}

extension SyncUp {
  public var name: SyncUpName { SyncUpName(id: id, title: title) }

  /// How commands name a sync-up: its title (`visible`) and the start of its id.
  public var label: String { name.label }
}

extension Tagged where RawValue == UUID {
  /// The id as commands print it: lower case.
  public var full: String { rawValue.lowercasedString }
  /// The first eight characters: what tables and messages show.
  public var short: String { String(full.prefix(8)) }
}

/// Levenshtein distance, for suggesting the title the user probably meant.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      )
    }
    previous = current
  }
  return previous[b.count]
}
