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
    case let .detail(detail): handleDetail(key, detail, id: id)
    case let .meeting(meeting): handleMeeting(key, meeting, id: id)
    case let .record(record): handleRecord(key, record, id: id)
    }
  }

  // MARK: List

  private func handleList(_ key: Key, _ list: SyncUpsList.State) {
    let send = { (action: SyncUpsList.Action) -> Void in _ = self.store.send(.syncUpsList(action)) }
    switch list.destination {
    case let .add(form)?:
      return handleForm(
        key, form, send: { send(.destination(.presented(.add($0)))) },
        done: { send(.confirmAddSyncUpButtonTapped) }, cancel: { send(.dismissAddSyncUpButtonTapped) }
      )
    case let .alert(alert)?:
      if let button = pick(key, in: alert) {
        send(.destination(button.action.map { .presented(.alert($0)) } ?? .dismiss))
      }
      return clampListSelection()
    case nil:
      break
    }
    let syncUps = list.syncUps
    switch key {
    case .up, .character("k"): listSelection = max(listSelection - 1, 0)
    case .down, .character("j"): listSelection = min(listSelection + 1, max(syncUps.count - 1, 0))
    case .enter:
      guard syncUps.indices.contains(listSelection) else { return }
      meetingSelection = 0
      store.send(.syncUpTapped(syncUps[listSelection].id))
    case .character("a"):
      formField = .title
      send(.addSyncUpButtonTapped)
    case .character("d"):
      send(.onDelete(IndexSet(integer: listSelection)))
    case .character("q"): isDone = true
    default: break
    }
    clampListSelection()
  }

  private func clampListSelection() {
    listSelection = min(listSelection, max(store.state.syncUpsList.syncUps.count - 1, 0))
  }

  // MARK: Detail

  private func handleDetail(_ key: Key, _ detail: SyncUpDetail.State, id: StackElementID) {
    let send = { (action: SyncUpDetail.Action) -> Void in
      _ = self.store.send(.path(.element(id: id, action: .detail(action))))
    }
    switch detail.destination {
    case let .edit(form)?:
      return handleForm(
        key, form, send: { send(.destination(.presented(.edit($0)))) },
        done: { send(.doneEditingButtonTapped) }, cancel: { send(.cancelEditButtonTapped) }
      )
    case let .alert(alert)?:
      if let button = pick(key, in: alert) {
        let action: PresentationAction<SyncUpDetail.Destination.Action> =
          button.action.map { .presented(.alert($0)) } ?? .dismiss
        send(.destination(action))
      }
      return
    case nil:
      break
    }
    let meetings = detail.syncUp.meetings
    switch key {
    case .up, .character("k"): meetingSelection = max(meetingSelection - 1, 0)
    case .down, .character("j"): meetingSelection = min(meetingSelection + 1, max(meetings.count - 1, 0))
    case .enter, .character("m"):
      guard meetings.indices.contains(meetingSelection) else { return }
      meetingOffset = 0
      send(.meetingTapped(meetings[meetingSelection].id))
    case .character("s"): send(.startMeetingButtonTapped)
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
    switch key {
    case .up, .character("k"): meetingOffset = max(meetingOffset - 1, 0)
    case .down, .character("j"): meetingOffset = min(meetingOffset + 1, screen.maxOffset)
    case .character("b"), .escape: store.send(.path(.popFrom(id: id)))
    default: break
    }
  }

  // MARK: Recording

  private func handleRecord(_ key: Key, _ record: RecordMeeting.State, id: StackElementID) {
    let send = { (action: RecordMeeting.Action) -> Void in
      _ = self.store.send(.path(.element(id: id, action: .record(action))))
    }
    if let alert = record.alert {
      guard case let .character(letter) = key,
        let button = alert.buttons.first(where: { RecordScreen.key(for: $0) == letter })
      else { return }
      let action: PresentationAction<RecordMeeting.Action.Alert> = button.action.map { .presented($0) } ?? .dismiss
      return send(.alert(action))
    }
    switch key {
    case .character("n"): send(.nextButtonTapped)
    case .character("e"): send(.endMeetingButtonTapped)
    case .character("q"): send(.endAndSaveRequested)
    default: break
    }
  }

  // MARK: Alerts and the form

  /// The button a key chooses: its letter, or Escape for the cancel button.
  private func pick<Action>(_ key: Key, in alert: AlertState<Action>) -> ButtonState<Action>? {
    switch key {
    case let .character(letter): AlertView.button(for: letter, in: alert)
    case .escape: alert.cancelButton
    default: nil
    }
  }

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
      if case let .attendee(id)? = focus(of: form) { formField = .attendee(id) }
    case let (.control("d"), .attendee(attendee)):
      guard let index = form.syncUp.attendees.index(id: attendee) else { return }
      send(.onDeleteAttendees(IndexSet(integer: index)))
      if case let .attendee(id)? = focus(of: form) { formField = .attendee(id) }
    case (.left, .duration), (.character("-"), .duration):
      let minutes = max(Int((form.syncUp.duration.seconds / 60).rounded()) - 1, 1)
      send(.binding(.set(\.syncUp.duration, .seconds(minutes * 60))))
    case (.right, .duration), (.character("+"), .duration):
      let longest = Int(SyncUp.durationRange.upperBound.seconds / 60)
      let minutes = min(Int((form.syncUp.duration.seconds / 60).rounded()) + 1, longest)
      send(.binding(.set(\.syncUp.duration, .seconds(minutes * 60))))
    case (.left, .theme), (.right, .theme), (.character(" "), .theme):
      let themes = Theme.allCases
      let index = themes.firstIndex(of: form.syncUp.theme) ?? 0
      let step = key == .left ? themes.count - 1 : 1
      send(.binding(.set(\.syncUp.theme, themes[(index + step) % themes.count])))
    case let (.character(letter), .title):
      send(.binding(.set(\.syncUp.title, form.syncUp.title + String(letter))))
    case (.backspace, .title):
      send(.binding(.set(\.syncUp.title, String(form.syncUp.title.dropLast()))))
    case let (.character(letter), .attendee(id)):
      guard var attendee = form.syncUp.attendees[id: id] else { return }
      attendee.name.append(letter)
      send(.binding(.set(\.syncUp.attendees[id: id], attendee)))
    case let (.backspace, .attendee(id)):
      guard var attendee = form.syncUp.attendees[id: id] else { return }
      attendee.name = String(attendee.name.dropLast())
      send(.binding(.set(\.syncUp.attendees[id: id], attendee)))
    default: break
    }
  }

  /// The reducer moves the focus when attendees come and go; the cursor follows it.
  private func focus(of form: SyncUpForm.State) -> SyncUpForm.State.Field? {
    let state = store.state
    if case let .add(current)? = state.syncUpsList.destination, state.path.isEmpty { return current.focus }
    if case let .detail(detail)? = state.path.last, case let .edit(current)? = detail.destination {
      return current.focus
    }
    return form.focus
  }
}
