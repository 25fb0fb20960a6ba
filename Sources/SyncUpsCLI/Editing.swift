import Foundation
import SyncUpsFeatures

/// Adding, editing and deleting from the command line. What is saved follows the same rules as
/// the app's forms (`SyncUp.validated()`: trimmed, blank rows dropped, one line, no control
/// characters, distinct names, a duration in range), refused with the same words. Only checks
/// of the options themselves live here.
@MainActor
public enum Editing {
  public struct Changes: Sendable {
    public var title: String?
    public var addAttendees: [String] = []
    public var removeAttendees: [String] = []
    public var duration: Duration?
    public var theme: Theme?

    public init(
      title: String? = nil, addAttendees: [String] = [], removeAttendees: [String] = [],
      duration: Duration? = nil, theme: Theme? = nil
    ) {
      self.title = title
      self.addAttendees = addAttendees
      self.removeAttendees = removeAttendees
      self.duration = duration
      self.theme = theme
    }

    var isEmpty: Bool {
      title == nil && addAttendees.isEmpty && removeAttendees.isEmpty && duration == nil
        && theme == nil
    }
  }

  /// Adds a sync-up, by the rules, and saves. Returns it.
  public static func add(
    title: String, attendees: [String], duration: Duration?, theme: Theme?, in data: SyncUpsStore
  ) throws(CLIError) -> SyncUp {
    @Dependency(\.uuid) var uuid
    let draft = SyncUp(
      id: SyncUp.ID(uuid()),
      attendees: IdentifiedArray(
        uniqueElements: attendees.map { Attendee(id: Attendee.ID(uuid()), name: $0) }
      ),
      duration: duration ?? .seconds(5 * 60),
      theme: theme ?? .bubblegum,
      title: title
    )
    let syncUp: SyncUp
    do {
      syncUp = try draft.validated()
    } catch .noAttendees {
      throw CLIError("\(SyncUpProblem.noAttendees): give --attendee NAME")
    } catch {
      throw CLIError("\(error)")
    }
    try data.checkWritable()
    data.syncUps.withLock { _ = $0.append(syncUp) }
    try data.save()
    return syncUp
  }

  /// Edits a sync-up, by the rules, and saves. Returns the edited sync-up.
  public static func edit(
    _ shared: Shared<SyncUp>, _ changes: Changes, in data: SyncUpsStore
  ) throws(CLIError) -> SyncUp {
    guard !changes.isEmpty else {
      throw CLIError(
        "nothing to change: give --title, --add-attendee, --remove-attendee, --duration or --theme"
      )
    }
    let added = changes.addAttendees.map(trimmed)
    if added.contains(where: \.isEmpty) {
      throw CLIError("--add-attendee needs a name")
    }
    var syncUp = shared.wrappedValue
    if let title = changes.title { syncUp.title = title }
    if let duration = changes.duration { syncUp.duration = duration }
    if let theme = changes.theme { syncUp.theme = theme }
    // Removals name current attendees (case-insensitively), each once.
    for name in changes.removeAttendees {
      let wanted = trimmed(name).lowercased()
      guard let attendee = syncUp.attendees.first(where: { $0.name.lowercased() == wanted }) else {
        throw CLIError(
          "\(shared.wrappedValue.label) has no attendee '\(name)'; its attendees are "
            + shared.wrappedValue.attendees.map { "'\($0.name)'" }.joined(separator: ", ")
        )
      }
      syncUp.attendees.remove(id: attendee.id)
    }
    @Dependency(\.uuid) var uuid
    for name in added { syncUp.attendees.append(Attendee(id: Attendee.ID(uuid()), name: name)) }
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
    shared.withLock { $0 = edited }
    try data.save()
    return edited
  }

  /// Deletes a sync-up, its meetings (rows, in one transaction) and their audio files; refuses,
  /// removing nothing, while a recording of it runs.
  public static func delete(
    _ syncUp: Shared<SyncUp>, in data: SyncUpsStore
  ) async throws(CLIError) {
    try data.checkWritable()
    let id = syncUp.wrappedValue.id
    @Dependency(\.syncUpDeletion) var deletion
    let audioFiles: [String]
    do {
      audioFiles = try await deletion.prepare([id])
    } catch let error as SyncUpBeingRecorded {
      throw CLIError("\(error)")
    } catch {
      throw CLIError(
        "cannot delete \(syncUp.wrappedValue.label): "
          + "\(SyncUpsDatabaseError(error, url: data.database.directory?.databaseFile))")
    }
    data.syncUps.withLock { _ = $0.remove(id: id) }
    try data.save()
    await deletion.deleteAudio(audioFiles)
  }

  private static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
