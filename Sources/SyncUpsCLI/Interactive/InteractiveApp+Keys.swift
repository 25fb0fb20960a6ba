import AudioCore
import Foundation
import SyncUpsFeatures

/// Keys → actions, screen by screen. Every change to the data goes through the store.
extension InteractiveApp {
  func handle(_ key: Key) {
    let state = store.state
    guard let id = state.path.ids.last, let top = state.path.last else {
      return handleList(key, state.syncUpsList)
    }
    switch top {
    case .detail(let detail): handleDetail(key, detail, id: id)
    case .meeting(let meeting): handleMeeting(key, meeting, id: id)
    case .record(let record): handleRecord(key, record, id: id)
    }
  }

  // MARK: List

  private func handleList(_ key: Key, _ list: SyncUpsList.State) {
    let send = { (action: SyncUpsList.Action) -> Void in _ = self.store.send(.syncUpsList(action)) }
    switch list.destination {
    case .add(let form)?:
      return handleForm(
        key, form, send: { send(.destination(.presented(.add($0)))) },
        done: { send(.confirmAddSyncUpButtonTapped) },
        cancel: { send(.dismissAddSyncUpButtonTapped) }
      )
    case .alert(let alert)?:
      switch AlertView.action(for: key, in: alert) {
      case .presented(let action)?: send(.destination(.presented(.alert(action))))
      case .dismiss?: send(.destination(.dismiss))
      case nil: break
      }
      return clampListSelection()
    case .search(let search)?:
      return handleSearch(key, search)
    case .blockers?:
      return handleBlockers(key)
    case nil:
      break
    }
    let syncUps = list.syncUps
    switch key {
    case .up, .character("k"): listSelection = max(listSelection - 1, 0)
    case .down, .character("j"): listSelection = min(listSelection + 1, max(syncUps.count - 1, 0))
    case .home, .pageUp: listSelection = 0
    case .end, .pageDown: listSelection = max(syncUps.count - 1, 0)
    case .enter:
      guard syncUps.indices.contains(listSelection) else { return }
      meetingSelection = 0
      store.send(.syncUpTapped(syncUps[listSelection].id))
    case .character("a"):
      formField = .title
      send(.addSyncUpButtonTapped)
    case .character("d"):
      send(.onDelete(IndexSet(integer: listSelection)))
    case .character("/"): send(.searchButtonTapped)
    case .character("b"): send(.blockersButtonTapped)
    case .character("q"): isDone = true
    default: break
    }
    clampListSelection()
  }

  private func clampListSelection() {
    listSelection = min(listSelection, max(store.state.syncUpsList.syncUps.count - 1, 0))
    rememberListSelection()
  }

  // MARK: Search

  private func handleSearch(_ key: Key, _ search: TranscriptSearchFeature.State) {
    let send = { (action: TranscriptSearchFeature.Action) -> Void in
      _ = self.store.send(.syncUpsList(.destination(.presented(.search(action)))))
    }
    let page = max((Terminal.size.rows - 6) / 2, 1)
    switch key {
    case .character(let character): send(.queryChanged(search.query + String(character)))
    case .backspace: send(.queryChanged(String(search.query.dropLast())))
    case .up: send(.selectionMoved(by: -1))
    case .down: send(.selectionMoved(by: 1))
    case .pageUp: send(.selectionMoved(by: -page))
    case .pageDown: send(.selectionMoved(by: page))
    case .enter:
      send(.hitOpened)
      // The meeting opens scrolled to the segment found.
      if case .meeting(let meeting)? = store.state.path.last {
        let (width, height) = Terminal.size
        meetingOffset = MeetingScreen(state: meeting, width: width, height: height).highlightOffset
      }
    case .escape: store.send(.syncUpsList(.destination(.dismiss)))
    default: break
    }
  }

  // MARK: Blockers

  private func handleBlockers(_ key: Key) {
    let send = { (action: TeamBlockers.Action) -> Void in
      _ = self.store.send(.syncUpsList(.destination(.presented(.blockers(action)))))
    }
    switch key {
    case .up, .character("k"): send(.selectionMoved(by: -1))
    case .down, .character("j"): send(.selectionMoved(by: 1))
    case .character("c"): send(.closeTapped)
    case .escape, .character("q"): store.send(.syncUpsList(.destination(.dismiss)))
    default: break
    }
  }

  // MARK: The remembered selection

  /// The sync-up selected in the list, kept for the next start (`.appStorage`).
  private static let selectedSyncUpKey = "interactive.selectedSyncUp"

  /// Keeps the selected sync-up's id, when it changed.
  func rememberListSelection() {
    let syncUps = store.state.syncUpsList.syncUps
    guard syncUps.indices.contains(listSelection) else { return }
    let id = syncUps[listSelection].id.rawValue.lowercasedString
    @Shared(.appStorage(Self.selectedSyncUpKey)) var remembered = ""
    guard remembered != id else { return }
    $remembered.withLock { $0 = id }
    // Written now, so quitting right after (q, Ctrl-C) keeps it; remembering is a convenience:
    // a database that cannot be written (read-only folder) just does not remember.
    try? $remembered.save()
  }

  /// Selects the sync-up selected when the app last ran, if it still exists.
  func restoreListSelection() {
    @Shared(.appStorage(Self.selectedSyncUpKey)) var remembered = ""
    let syncUps = store.state.syncUpsList.syncUps
    guard
      let index = syncUps.firstIndex(where: {
        $0.id.rawValue.lowercasedString == remembered
      })
    else { return }
    listSelection = index
  }

  /// Keeps the cursors on rows that exist after the data changed (perhaps in another process).
  func clampSelections() {
    clampListSelection()
    if case .detail(let detail)? = store.state.path.last {
      meetingSelection = min(meetingSelection, max(detail.syncUp.meetings.count - 1, 0))
    }
  }

  // MARK: Detail

  private func handleDetail(_ key: Key, _ detail: SyncUpDetail.State, id: StackElementID) {
    let send = { (action: SyncUpDetail.Action) -> Void in
      _ = self.store.send(.path(.element(id: id, action: .detail(action))))
    }
    switch detail.destination {
    case .edit(let form)?:
      return handleForm(
        key, form, send: { send(.destination(.presented(.edit($0)))) },
        done: { send(.doneEditingButtonTapped) }, cancel: { send(.cancelEditButtonTapped) }
      )
    case .alert(let alert)?:
      switch AlertView.action(for: key, in: alert) {
      case .presented(let action)?: send(.destination(.presented(.alert(action))))
      case .dismiss?: send(.destination(.dismiss))
      case nil: break
      }
      return
    case nil:
      break
    }
    let meetings = detail.syncUp.meetings
    switch key {
    case .up, .character("k"): meetingSelection = max(meetingSelection - 1, 0)
    case .down, .character("j"):
      meetingSelection = min(meetingSelection + 1, max(meetings.count - 1, 0))
    case .home, .pageUp: meetingSelection = 0
    case .end, .pageDown: meetingSelection = max(meetings.count - 1, 0)
    case .enter, .character("m"):
      guard meetings.indices.contains(meetingSelection) else { return }
      meetingOffset = 0
      send(.meetingTapped(meetings[meetingSelection].id))
    case .character("s"): send(.startMeetingButtonTapped)
    case .character("c"): send(.startCallButtonTapped)
    case .character("e"):
      formField = .title
      send(.editButtonTapped)
    case .character("x"): send(.deleteButtonTapped)
    case .character("b"), .escape: store.send(.path(.popFrom(id: id)))
    default: break
    }
  }

  // MARK: Past meeting

  private func handleMeeting(_ key: Key, _ meeting: MeetingFeature.State, id: StackElementID) {
    let (width, height) = Terminal.size
    let screen = MeetingScreen(state: meeting, width: width, height: height)
    let send = { (action: MeetingFeature.Action) -> Void in
      _ = self.store.send(.path(.element(id: id, action: .meeting(action))))
    }
    if let correction = meeting.correction {
      return handleCorrection(key, correction) { send(.correction($0)) }
    }
    if meeting.selectedSegment != nil {
      switch key {
      case .up, .character("k"): send(.segmentSelectionMoved(by: -1))
      case .down, .character("j"): send(.segmentSelectionMoved(by: 1))
      case .enter, .character("c"): send(.correctTapped)
      case .escape, .character("b"): send(.segmentSelectionEnded)
      default: break
      }
      // The picked segment stays in view.
      if case .meeting(let moved)? = store.state.path.last, moved.selectedSegment != nil {
        meetingOffset = MeetingScreen(state: moved, width: width, height: height).highlightOffset
      }
      return
    }
    switch key {
    case .character("c"):
      send(.segmentSelectionMoved(by: 0))
      if case .meeting(let picked)? = store.state.path.last {
        meetingOffset = MeetingScreen(state: picked, width: width, height: height).highlightOffset
      }
    case .up, .character("k"): meetingOffset = max(meetingOffset - 1, 0)
    case .down, .character("j"): meetingOffset = min(meetingOffset + 1, screen.maxOffset)
    case .pageUp: meetingOffset = max(meetingOffset - screen.transcriptRows, 0)
    case .pageDown: meetingOffset = min(meetingOffset + screen.transcriptRows, screen.maxOffset)
    case .home: meetingOffset = 0
    case .end: meetingOffset = screen.maxOffset
    case .character("b"), .escape: store.send(.path(.popFrom(id: id)))
    default: break
    }
  }

  /// Writing a correction: typing edits the text, ←/→ picks the speaker among the attendees.
  private func handleCorrection(
    _ key: Key, _ correction: CorrectSegment.State,
    send: (PresentationAction<CorrectSegment.Action>) -> Void
  ) {
    switch key {
    case .escape: send(.dismiss)
    case .enter: send(.presented(.saveTapped))
    case .left: send(.presented(.speakerStepped(by: -1)))
    case .right: send(.presented(.speakerStepped(by: 1)))
    case .control("u"): send(.presented(.undoTapped))
    case .backspace: send(.presented(.textChanged(String(correction.text.dropLast()))))
    case .character(let character):
      send(.presented(.textChanged(correction.text + String(character))))
    default: break
    }
  }

  // MARK: Recording

  private func handleRecord(_ key: Key, _ record: RecordMeeting.State, id: StackElementID) {
    let send = { (action: RecordMeeting.Action) -> Void in
      _ = self.store.send(.path(.element(id: id, action: .record(action))))
    }
    if let action = RecordScreen.action(for: key, in: record) { send(action) }
  }

  // MARK: The form

  private func handleForm(
    _ key: Key, _ form: SyncUpForm.State, send: (SyncUpForm.Action) -> Void,
    done: () -> Void, cancel: () -> Void
  ) {
    let fields = FormField.all(form.syncUp)
    let position = fields.firstIndex(of: formField) ?? 0
    switch (key, formField) {
    case (.enter, _): return done()
    case (.escape, _): return cancel()
    case (.up, _): formField = fields[max(position - 1, 0)]
    case (.down, _), (.tab, _): formField = fields[min(position + 1, fields.count - 1)]
    case (.control("n"), _):
      send(.addAttendeeButtonTapped)
      if case .attendee(let id)? = focus(of: form) { formField = .attendee(id) }
    case (.control("d"), .attendee(let attendee)):
      guard let index = form.syncUp.attendees.index(id: attendee) else { return }
      send(.onDeleteAttendees(IndexSet(integer: index)))
      if case .attendee(let id)? = focus(of: form) { formField = .attendee(id) }
    case (.control("w"), _):
      send(.addWordButtonTapped)
      if case .word(let index)? = focus(of: form) { formField = .word(index) }
    case (.control("d"), .word(let index)):
      send(.onDeleteWords(IndexSet(integer: index)))
      switch focus(of: form) {
      case .word(let index)?: formField = .word(index)
      case .attendee(let id)?: formField = .attendee(id)
      default: formField = .title
      }
    case (.left, .duration), (.character("-"), .duration):
      // The whole minute below (1 min 30 s → 1 min), never under a minute, never longer.
      let minutes = Int(saturating: (form.syncUp.duration.seconds / 60).rounded(.up)) - 1
      guard minutes >= 1 else { return }
      send(.binding(.set(\.syncUp.duration, .seconds(minutes * 60))))
    case (.right, .duration), (.character("+"), .duration):
      // The whole minute above (45 s → 1 min, 1 min 30 s → 2 min), up to the longest allowed.
      let longest = Int(SyncUp.durationRange.upperBound.seconds / 60)
      let minutes = min(
        Int(saturating: (form.syncUp.duration.seconds / 60).rounded(.down)) + 1, longest)
      send(.binding(.set(\.syncUp.duration, .seconds(minutes * 60))))
    case (.left, .theme), (.right, .theme), (.character(" "), .theme):
      let themes = Theme.allCases
      let index = themes.firstIndex(of: form.syncUp.theme) ?? 0
      let step = key == .left ? themes.count - 1 : 1
      send(.binding(.set(\.syncUp.theme, themes[(index + step) % themes.count])))
    case (.character(let letter), .title):
      send(.binding(.set(\.syncUp.title, form.syncUp.title + String(letter))))
    case (.backspace, .title):
      send(.binding(.set(\.syncUp.title, String(form.syncUp.title.dropLast()))))
    case (.character(let letter), .attendee(let id)):
      guard var attendee = form.syncUp.attendees[id: id] else { return }
      attendee.name.append(letter)
      send(.binding(.set(\.syncUp.attendees[id: id], attendee)))
    case (.backspace, .attendee(let id)):
      guard var attendee = form.syncUp.attendees[id: id] else { return }
      attendee.name = String(attendee.name.dropLast())
      send(.binding(.set(\.syncUp.attendees[id: id], attendee)))
    case (.character(let letter), .word(let index)):
      guard form.syncUp.vocabulary.indices.contains(index) else { return }
      send(.binding(.set(\.syncUp.vocabulary[index], form.syncUp.vocabulary[index] + [letter])))
    case (.backspace, .word(let index)):
      guard form.syncUp.vocabulary.indices.contains(index) else { return }
      let word = String(form.syncUp.vocabulary[index].dropLast())
      send(.binding(.set(\.syncUp.vocabulary[index], word)))
    default: break
    }
  }

  /// The reducer moves the focus when attendees come and go; the cursor follows it.
  private func focus(of form: SyncUpForm.State) -> SyncUpForm.State.Field? {
    let state = store.state
    if case .add(let current)? = state.syncUpsList.destination, state.path.isEmpty {
      return current.focus
    }
    if case .detail(let detail)? = state.path.last, case .edit(let current)? = detail.destination {
      return current.focus
    }
    return form.focus
  }
}
