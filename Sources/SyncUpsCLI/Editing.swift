import Foundation
import SyncUpsFeatures

/// Adding, editing and deleting go through the app's own features (the list's add form, the
/// detail's edit form and delete alert), so the command line follows the same rules as the
/// app: blank attendees are dropped, a form never has zero attendees, deletion removes the
/// sync-up through `@Shared(.syncUps)`. Only checks of what was typed live here.
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
      title == nil && addAttendees.isEmpty && removeAttendees.isEmpty && duration == nil && theme == nil
    }
  }

  /// Adds a sync-up as the app's "New sync-up" form does, and saves. Returns it.
  public static func add(
    title: String, attendees: [String], duration: Duration?, theme: Theme?, in data: SyncUpsStore
  ) throws(CLIError) -> SyncUp {
    let title = try checkedTitle(title)
    let names = attendees.map(trimmed)
    try checkOneLine(names)
    guard names.contains(where: { !$0.isEmpty }) else {
      throw CLIError("a sync-up needs at least one attendee: give --attendee NAME")
    }

    let list = Store(initialState: SyncUpsList.State()) { SyncUpsList() }
    list.send(.addSyncUpButtonTapped)
    // The form starts with one empty attendee; add a row for each further name.
    for _ in names.dropFirst() {
      list.send(.destination(.presented(.add(.addAttendeeButtonTapped))))
    }
    guard case var .add(form)? = list.state.destination else {
      throw CLIError("internal error: the add form did not open")
    }
    form.syncUp.title = title
    for (index, name) in names.enumerated() { form.syncUp.attendees[index].name = name }
    if let duration { form.syncUp.duration = duration }
    if let theme { form.syncUp.theme = theme }
    list.send(.destination(.presented(.add(.binding(.set(\.syncUp, form.syncUp))))))
    list.send(.confirmAddSyncUpButtonTapped)

    guard let added = list.state.syncUps[id: form.syncUp.id] else {
      throw CLIError("internal error: the new sync-up was not added")
    }
    try data.save()
    return added
  }

  /// Edits a sync-up as the app's edit form does, and saves. Returns the edited sync-up.
  public static func edit(
    _ syncUp: Shared<SyncUp>, _ changes: Changes, in data: SyncUpsStore
  ) throws(CLIError) -> SyncUp {
    guard !changes.isEmpty else {
      throw CLIError(
        "nothing to change: give --title, --add-attendee, --remove-attendee, --duration or --theme"
      )
    }
    let newTitle = try changes.title.map { (title) throws(CLIError) in try checkedTitle(title) }
    let added = changes.addAttendees.map(trimmed)
    if added.contains(where: \.isEmpty) {
      throw CLIError("--add-attendee needs a name")
    }
    try checkOneLine(added)

    let detail = Store(initialState: SyncUpDetail.State(syncUp: syncUp)) { SyncUpDetail() }
    detail.send(.editButtonTapped)
    guard case var .edit(form)? = detail.state.destination else {
      throw CLIError("internal error: the edit form did not open")
    }

    // Removals name current attendees (case-insensitively), each once.
    var removeIndices = IndexSet()
    for name in changes.removeAttendees {
      let wanted = trimmed(name).lowercased()
      guard
        let index = form.syncUp.attendees.indices.first(where: {
          !removeIndices.contains($0) && form.syncUp.attendees[$0].name.lowercased() == wanted
        })
      else {
        throw CLIError(
          "\(syncUp.wrappedValue.label) has no attendee '\(name)'; its attendees are "
            + form.syncUp.attendees.map { "'\($0.name)'" }.joined(separator: ", ")
        )
      }
      removeIndices.insert(index)
    }
    let remaining = form.syncUp.attendees.indices
      .filter { !removeIndices.contains($0) && !form.syncUp.attendees[$0].name.allSatisfy(\.isWhitespace) }
    if remaining.isEmpty, added.isEmpty {
      throw CLIError(
        "cannot remove every attendee: a sync-up needs at least one (add one with --add-attendee)"
      )
    }

    // Fields first, then new rows (named through the form's binding), then removals.
    if let newTitle { form.syncUp.title = newTitle }
    if let duration = changes.duration { form.syncUp.duration = duration }
    if let theme = changes.theme { form.syncUp.theme = theme }
    detail.send(.destination(.presented(.edit(.binding(.set(\.syncUp, form.syncUp))))))
    for name in added {
      detail.send(.destination(.presented(.edit(.addAttendeeButtonTapped))))
      guard case var .edit(current)? = detail.state.destination,
        let last = current.syncUp.attendees.indices.last
      else { throw CLIError("internal error: the edit form closed") }
      current.syncUp.attendees[last].name = name
      detail.send(.destination(.presented(.edit(.binding(.set(\.syncUp, current.syncUp))))))
    }
    if !removeIndices.isEmpty {
      detail.send(.destination(.presented(.edit(.onDeleteAttendees(removeIndices)))))
    }
    detail.send(.doneEditingButtonTapped)
    try data.save()
    return syncUp.wrappedValue
  }

  /// Deletes a sync-up and its meetings as the detail's confirmed delete alert does, and saves.
  public static func delete(_ syncUp: Shared<SyncUp>, in data: SyncUpsStore) async throws(CLIError) {
    let detail = Store(initialState: SyncUpDetail.State(syncUp: syncUp)) { SyncUpDetail() }
    detail.send(.deleteButtonTapped)
    await detail.send(.destination(.presented(.alert(.confirmDeletion)))).finish()
    try data.save()
  }

  private static func checkedTitle(_ title: String) throws(CLIError) -> String {
    let title = trimmed(title)
    guard !title.isEmpty else { throw CLIError("the title cannot be blank") }
    guard !title.contains(where: \.isNewline) else { throw CLIError("the title must be one line") }
    return title
  }

  private static func checkOneLine(_ names: [String]) throws(CLIError) {
    if let name = names.first(where: { $0.contains(where: \.isNewline) }) {
      throw CLIError("the attendee name \(name.debugDescription) must be one line")
    }
  }

  private static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
