import Foundation
import SyncUpsFeatures

/// The sync-ups in the data directory, as every command sees them: opened through
/// `@Shared(.syncUps)` (live file storage), with sync-ups found by id prefix or title.
public struct SyncUpsStore: Sendable {
  public let syncUps: Shared<IdentifiedArrayOf<SyncUp>>

  /// Opens the data. An unreadable `sync-ups.json` is an error that names where the original was
  /// kept; it is never replaced.
  /// Meetings whose recording died (see `MeetingJournal`) are recovered first, and said so.
  public static func open(
    report: (String) -> Void = { FileHandle.standardError.write(Data("syncups: \($0)\n".utf8)) }
  ) throws(CLIError) -> SyncUpsStore {
    @Shared(.syncUps) var syncUps
    if let error = $syncUps.loadError {
      switch error as? SharedFileError {
      case let .corrupt(url, _, _)?:
        // The original was moved aside, byte for byte; nothing is written in its place here.
        throw CLIError(
          "cannot read your sync-ups: \(error); repair that copy and move it back to \(url.path), "
            + "or leave it aside to start again with no sync-ups"
        )
      default:
        throw CLIError("cannot read your sync-ups: \(error); check the file and its permissions, then run syncups again")
      }
    }
    let store = SyncUpsStore(syncUps: $syncUps)
    try store.recoverUnfinishedMeetings(report: report)
    return store
  }

  /// Where recordings keep their journals.
  public static var journalDirectory: URL {
    @Dependency(\.dataDirectory) var dataDirectory
    return dataDirectory.url.appendingPathComponent("journal", isDirectory: true)
  }

  /// Turns the journals of recordings that died into meetings of their sync-ups.
  func recoverUnfinishedMeetings(report: (String) -> Void) throws(CLIError) {
    @Dependency(\.uuid) var uuid
    for journal in MeetingJournal.unfinished(in: Self.journalDirectory) {
      let recovered: MeetingJournal.Recovered
      do {
        recovered = try MeetingJournal.read(journal)
      } catch {
        report("cannot recover the unfinished meeting in \(journal.path): \(error)")
        continue
      }
      guard let syncUp = Shared(syncUps[id: recovered.syncUpID]) else {
        report("an unfinished meeting in \(journal.path) belongs to a deleted sync-up; it was left there")
        continue
      }
      let meetingID = Meeting.ID(uuid())
      let meeting = Meeting(
        id: meetingID,
        date: recovered.started,
        transcript: recovered.segments.map(\.text).joined(separator: " "),
        segments: recovered.segments,
        audioFile: recoverAudio(of: recovered.syncUpID, as: meetingID)
      )
      syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
      try save()
      try? FileManager.default.removeItem(at: journal)
      report(
        "recovered an unfinished meeting of \(syncUp.wrappedValue.label) started "
          + "\(recovered.started.formatted(date: .abbreviated, time: .shortened)) "
          + "(\(Format.count(recovered.segments.count, "utterance")))"
      )
    }
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

  /// The audio a dead recording left (FLAC stays readable up to its last frame), filed under
  /// the recovered meeting like a saved one's.
  private func recoverAudio(of syncUpID: SyncUp.ID, as meetingID: Meeting.ID) -> String? {
    @Dependency(\.dataDirectory) var dataDirectory
    let partial = dataDirectory.recordingAudio(of: syncUpID)
    let audioFile = DataDirectory.audioFile(of: meetingID)
    guard FileManager.default.fileExists(atPath: partial.path),
      (try? FileManager.default.moveItem(
        at: partial, to: dataDirectory.url.appendingPathComponent(audioFile))) != nil
    else { return nil }
    return audioFile
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
    let close = all
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
