import AudioCaptureClient
import AudioCaptureClientLive
import Foundation
import SyncUpsFeatures

/// `syncups` on a terminal: the whole app (list → detail → edit / record → past meeting) run by
/// the `AppFeature` reducer with the live dependencies. This layer only draws the top of the
/// navigation stack and turns keys into actions; selections and the cursor are its own.
@MainActor
public final class InteractiveApp {
  enum Event: Sendable {
    case key(Key)
    case signal
    case changed
    case tick
  }

  let store: Store<AppFeature.State, AppFeature.Action>
  let syncUps: EditableSyncUps
  var listSelection = 0
  var meetingSelection = 0
  var meetingOffset = 0
  var formField = FormField.title
  var startedRecordings: Set<StackElementID> = []
  var quitsAfterRecording = false
  var drawnSize = Terminal.size
  var isDone = false

  /// Opens the data first, so an unreadable file is one line before the screen changes.
  public init() throws(CLIError) {
    let syncUps = try EditableSyncUps.load()
    self.syncUps = syncUps
    self.store = Store(initialState: AppFeature.State()) {
      AppFeature()
    }
  }

  /// Runs until the user quits from the list or a signal arrives; saves on the way out and
  /// always gives the terminal back as it was.
  public func run() async throws(CLIError) {
    // Meetings a dead recording left are recovered before the screen changes.
    await syncUps.data.recoverRecordings()
    let session = Terminal.Session()
    defer { session.restore() }
    let (events, continuation) = AsyncStream.makeStream(of: Event.self)
    // The terminal going away ends the app as a signal would.
    Terminal.readKeys {
      continuation.yield(.key($0))
    } ended: {
      continuation.yield(.signal)
    }
    let registration = Termination.onSignal { _ in
      continuation.yield(.signal)
      return .keepRunning
    }
    defer { registration.remove() }
    let observer = Task { [store] in
      for await _ in store.states { continuation.yield(.changed) }
    }
    // Another process (`syncups add`, a recording) changing the database changes the shared value
    // without any action: redraw for it too.
    let dataObserver = Task { [syncUps] in
      for await _ in syncUps.syncUps.values { continuation.yield(.changed) }
    }
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        continuation.yield(.tick)
      }
    }
    defer {
      observer.cancel()
      dataObserver.cancel()
      ticker.cancel()
    }

    store.send(.syncUpsList(.onAppear))
    restoreListSelection()
    session.draw(lines)
    for await event in events {
      switch event {
      case .key(let key): handle(key)
      case .signal: handleSignal()
      case .changed: clampSelections()
      case .tick: break
      }
      startRecordings()
      if quitsAfterRecording, !isRecording { isDone = true }
      if isDone { break }
      // Ticks redraw the recording screen (its level meter) and a resized terminal.
      let size = Terminal.size
      if case .tick = event, !isRecording, size == drawnSize { continue }
      drawnSize = size
      session.draw(lines)
    }
    session.restore()
    try syncUps.save()
  }

  /// Ctrl-C or SIGTERM: a meeting being recorded is ended and saved first, then the app quits.
  private func handleSignal() {
    guard isRecording, !quitsAfterRecording, let id = store.state.path.ids.last else {
      isDone = true
      return
    }
    quitsAfterRecording = true
    store.send(.path(.element(id: id, action: .record(.endAndSaveRequested))))
  }

  var isRecording: Bool {
    if case .record? = store.state.path.last { return true }
    return false
  }

  /// Starts each recording pushed on the stack; the feature does the rest.
  private func startRecordings() {
    let path = store.state.path
    for (id, element) in zip(path.ids, path) {
      guard case .record = element, !startedRecordings.contains(id) else { continue }
      startedRecordings.insert(id)
      store.send(.path(.element(id: id, action: .record(.onTask))))
    }
  }

  /// What the screen shows: the top of the stack, or the list.
  var lines: [String] {
    let (width, height) = Terminal.size
    let state = store.state
    guard let top = state.path.last else {
      if case .add(let form)? = state.syncUpsList.destination {
        return FormScreen(
          heading: "New sync-up", state: form, field: formField, width: width, height: height
        ).lines
      }
      return ListScreen(
        state: state.syncUpsList, selection: listSelection,
        width: width, height: height
      ).lines
    }
    switch top {
    case .detail(let detail):
      if case .edit(let form)? = detail.destination {
        return FormScreen(
          heading: "Edit \(detail.syncUp.title.visible)", state: form, field: formField,
          width: width, height: height
        ).lines
      }
      return DetailScreen(
        state: detail, selection: meetingSelection, width: width, height: height
      ).lines
    case .meeting(let meeting):
      return MeetingScreen(
        state: meeting, offset: meetingOffset, width: width, height: height
      ).lines
    case .record(let record):
      return RecordScreen(state: record, width: width, height: height).lines
    }
  }
}
