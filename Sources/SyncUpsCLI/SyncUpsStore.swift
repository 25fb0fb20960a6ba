import Foundation
import SyncUpsFeatures

/// The sync-ups in the data directory, as every command sees them: opened through
/// `@Shared(.syncUps)` (live file storage), with sync-ups found by id prefix or title.
public struct SyncUpsStore: Sendable {
  public let syncUps: Shared<IdentifiedArrayOf<SyncUp>>

  /// Opens the data. An unreadable `sync-ups.json` is an error that names where the original was
  /// kept; it is never replaced. Meetings whose recording died are recovered first (by the
  /// recording store, as `RecordMeeting` saves them), and said so.
  public static func open(
    report: (String) -> Void = { FileHandle.standardError.write(Data("syncups: \($0)\n".utf8)) }
  ) async throws(CLIError) -> SyncUpsStore {
    let store = try load()
    @Dependency(\.recordingStore) var recordingStore
    for line in await recordingStore.recoverUnfinishedMeetings(into: store.syncUps) {
      report(line)
    }
    return store
  }

  /// Opens the data without looking for unfinished meetings (`open` does both).
  public static func load() throws(CLIError) -> SyncUpsStore {
    @Shared(.syncUps) var syncUps
    if let error = $syncUps.loadError {
      switch error as? SharedFileError {
      case .corrupt(let url, _, _)?:
        // The original was moved aside, byte for byte; nothing is written in its place here.
        throw CLIError(
          "cannot read your sync-ups: \(error); repair that copy and move it back to \(url.path), "
            + "or leave it aside to start again with no sync-ups"
        )
      default:
        throw CLIError(
          "cannot read your sync-ups: \(error); check the file and its permissions, "
            + "then run syncups again"
        )
      }
    }
    return SyncUpsStore(syncUps: $syncUps)
  }

  /// Finds one sync-up by `reference`: the start of its id or of its title (any case). A
  /// complete id always wins, then a whole title, then the starts of ids and titles. More than
  /// one match is an error that lists them; none, an error that suggests close titles.
  public func resolve(_ reference: String) throws(CLIError) -> Shared<SyncUp> {
    let all = syncUps.wrappedValue
    let query = reference.trimmingCharacters(in: .whitespaces)
    let lowered = query.lowercased()
    guard !lowered.isEmpty else {
      throw CLIError("no sync-up matches ''; give the start of its id or its title")
    }
    let byID = all.filter { $0.fullID == lowered }
    let byTitle = all.filter { $0.title.lowercased() == lowered }
    let byStart = all.filter {
      $0.fullID.hasPrefix(lowered) || $0.title.lowercased().hasPrefix(lowered)
    }
    let matches = [byID, byTitle, byStart].first { !$0.isEmpty } ?? []
    guard matches.count <= 1 else {
      throw CLIError(
        "'\(query)' matches \(matches.count) sync-ups: "
          + matches.map(\.label).joined(separator: ", ")
          + "; use more of the title or the id"
      )
    }
    guard let match = matches.first, let shared = Shared(syncUps[id: match.id]) else {
      throw CLIError("no sync-up matches '\(query)'" + suggestions(for: lowered, in: all))
    }
    return shared
  }

  /// Writes what is pending to disk now.
  public func save() throws(CLIError) {
    do {
      try syncUps.save()
    } catch {
      throw CLIError("cannot save your sync-ups: \(error)")
    }
  }

  private func suggestions(for query: String, in all: IdentifiedArrayOf<SyncUp>) -> String {
    let close =
      all
      .map { (syncUp: $0, distance: editDistance(query, $0.title.lowercased())) }
      .filter {
        $0.distance <= max(2, query.count / 3) || $0.syncUp.title.lowercased().contains(query)
      }
      .sorted { $0.distance < $1.distance }
      .prefix(3)
    if close.isEmpty {
      return all.isEmpty
        ? "; there are no sync-ups yet: add one with 'syncups add'"
        : "; 'syncups list' shows them all"
    }
    return "; did you mean " + close.map { $0.syncUp.label }.joined(separator: " or ") + "?"
  }
}

extension SyncUp {
  /// How commands name a sync-up: its title (`visible`) and the start of its id.
  public var label: String {
    "'\(title.visible)' (\(id.rawValue.uuidString.lowercased().prefix(8)))"
  }
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
