import Foundation
import SyncUpsFeatures

/// Adding, editing and deleting from the command line. What is saved follows the same rules as
/// the app's forms (`SyncUp.validated()`: trimmed, blank rows dropped, one line, no control
/// characters, distinct names, a duration in range), refused with the same words, and is
/// written by the same functions (`SyncUpsDatabase.add`, `edit`, `deleteSyncUps`). Only checks
/// of the options themselves live here.
@MainActor
public enum Editing {
  public struct Changes: Sendable {
    public var title: String?
    public var addAttendees: [String] = []
    public var removeAttendees: [String] = []
    public var duration: Duration?
    public var theme: Theme?
    public var addWords: [String] = []
    public var removeWords: [String] = []

    public init(
      title: String? = nil, addAttendees: [String] = [], removeAttendees: [String] = [],
      duration: Duration? = nil, theme: Theme? = nil, addWords: [String] = [],
      removeWords: [String] = []
    ) {
      self.title = title
      self.addAttendees = addAttendees
      self.removeAttendees = removeAttendees
      self.duration = duration
      self.theme = theme
      self.addWords = addWords
      self.removeWords = removeWords
    }

    var isEmpty: Bool {
      title == nil && addAttendees.isEmpty && removeAttendees.isEmpty && duration == nil
        && theme == nil && addWords.isEmpty && removeWords.isEmpty
    }
  }

  /// Adds a sync-up, by the rules. Returns it. Nothing but the database is needed: no shared
  /// list is loaded, so nothing observes the database while the command closes it.
  public static func add(
    title: String, attendees: [String], duration: Duration?, theme: Theme?,
    words: [String] = [], in data: CommandDatabase
  ) throws(CLIError) -> SyncUp {
    @Dependency(\.uuid) var uuid
    if words.map(trimmed).contains(where: \.isEmpty) { throw CLIError("--word needs a word") }
    var draft = SyncUp(
      id: SyncUp.ID(uuid()),
      attendees: IdentifiedArray(
        uniqueElements: attendees.map { Attendee(id: Attendee.ID(uuid()), name: $0) }
      ),
      duration: duration ?? .seconds(5 * 60),
      theme: theme ?? .bubblegum,
      title: title
    )
    draft.vocabulary = try vocabulary([], adding: words, to: draft)
    let syncUp: SyncUp
    do {
      syncUp = try draft.validated()
    } catch .noAttendees {
      throw CLIError("\(SyncUpProblem.noAttendees): give --attendee NAME")
    } catch {
      throw CLIError("\(error)")
    }
    try data.checkWritable()
    try saving(in: data) { try data.database.add(syncUp) }
    return syncUp
  }

  /// Edits a sync-up, by the rules: only what `changes` names changes, over the sync-up as
  /// stored now (what another `syncups` changed meanwhile is kept). Returns the edited sync-up.
  public static func edit(
    _ shared: Shared<SyncUp>, _ changes: Changes, in data: EditableSyncUps
  ) throws(CLIError) -> SyncUp {
    guard !changes.isEmpty else {
      throw CLIError(
        "nothing to change: give --title, --add-attendee, --remove-attendee, --duration, "
          + "--theme, --add-word or --remove-word"
      )
    }
    if changes.addWords.map(trimmed).contains(where: \.isEmpty) {
      throw CLIError("--add-word needs a word")
    }
    let added = changes.addAttendees.map(trimmed)
    if added.contains(where: \.isEmpty) {
      throw CLIError("--add-attendee needs a name")
    }
    // One read: the edit is the difference between this value and the edited one (the shared
    // value may take in another process's change meanwhile).
    let before = shared.wrappedValue
    var syncUp = before
    if let title = changes.title { syncUp.title = title }
    if let duration = changes.duration { syncUp.duration = duration }
    if let theme = changes.theme { syncUp.theme = theme }
    // Removals name current attendees (case-insensitively), each once.
    for name in changes.removeAttendees {
      let wanted = trimmed(name).lowercased()
      guard let attendee = syncUp.attendees.first(where: { $0.name.lowercased() == wanted }) else {
        throw CLIError(
          "\(before.label) has no attendee '\(name)'; its attendees are "
            + before.attendees.map { "'\($0.name)'" }.joined(separator: ", ")
        )
      }
      syncUp.attendees.remove(id: attendee.id)
    }
    @Dependency(\.uuid) var uuid
    for name in added { syncUp.attendees.append(Attendee(id: Attendee.ID(uuid()), name: name)) }
    // Removals name current words (any case), each once.
    for word in changes.removeWords {
      let wanted = trimmed(word).lowercased()
      guard let index = syncUp.vocabulary.firstIndex(where: { $0.lowercased() == wanted }) else {
        let current = before.vocabulary
        throw CLIError(
          "\(before.label) has no vocabulary word '\(word.visible)'; "
            + (current.isEmpty
              ? "its vocabulary is empty"
              : "its words are " + current.map { "'\($0.visible)'" }.joined(separator: ", "))
        )
      }
      syncUp.vocabulary.remove(at: index)
    }
    syncUp.vocabulary = try vocabulary(syncUp.vocabulary, adding: changes.addWords, to: syncUp)
    let edited: SyncUp
    do {
      edited = try syncUp.validated()
    } catch .noAttendees where !changes.removeAttendees.isEmpty {
      throw CLIError(
        "cannot remove every attendee: \(SyncUpProblem.noAttendees) (add one with --add-attendee)"
      )
    } catch {
      throw CLIError("\(error)")
    }
    try data.checkWritable()
    return try saving(in: data) { try data.database.edit(from: before, to: edited) } ?? edited
  }

  /// Deletes a sync-up, its meetings (rows, in one transaction) and their audio files; refuses,
  /// removing nothing, while a recording of it runs.
  public static func delete(
    _ syncUp: Shared<SyncUp>, in data: EditableSyncUps
  ) async throws(CLIError) {
    try data.checkWritable()
    let id = syncUp.wrappedValue.id
    @Dependency(\.syncUpDeletion) var deletion
    @Dependency(\.teamLearning) var learning
    let audioFiles: [String]
    do {
      audioFiles = try data.database.deleteSyncUps([id])
    } catch let error as SyncUpBeingRecorded {
      throw CLIError("\(error)")
    } catch {
      throw CLIError(
        "cannot delete \(syncUp.wrappedValue.label): "
          + "\(SyncUpsDatabaseError(error, url: data.database.directory?.databaseFile))")
    }
    // Its audio and its words go with it, as in the app.
    _ = await deletion.finish([id], audioFiles: audioFiles, learning: learning)
  }

  /// Runs a write; says why when it fails (nothing is claimed saved then).
  private static func saving<T>(
    in data: EditableSyncUps, _ write: () throws -> T
  ) throws(CLIError) -> T {
    try saving(in: data.data, write)
  }

  private static func saving<T>(
    in data: CommandDatabase, _ write: () throws -> T
  ) throws(CLIError) -> T {
    do {
      return try write()
    } catch {
      throw CLIError(
        "cannot save your sync-ups: "
          + "\(SyncUpsDatabaseError(error, url: data.database.directory?.databaseFile))")
    }
  }

  /// `words` with `added`: a word already there (any case) or an attendee's name (always in
  /// the vocabulary) is an error, so nothing is added twice without saying so.
  private static func vocabulary(
    _ words: [String], adding added: [String], to syncUp: SyncUp
  ) throws(CLIError) -> [String] {
    var words = words
    for word in added.map(trimmed) {
      if syncUp.attendees.contains(where: { $0.name.lowercased() == word.lowercased() }) {
        throw CLIError(
          "'\(word.visible)' is an attendee: attendees' names are always in the vocabulary")
      }
      if words.contains(where: { $0.lowercased() == word.lowercased() }) {
        throw CLIError("the vocabulary already has '\(word.visible)'")
      }
      words.append(word)
    }
    return words
  }

  private static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
