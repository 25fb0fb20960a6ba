import Foundation
import SyncUpsFeatures
import TestSupport
import Testing

@testable import SyncUpsCLI

/// Keys → actions, checked on the app's store without a terminal (in-memory storage).
@MainActor
@Suite("Interactive app keys")
struct KeyMappingTests {
  let app: InteractiveApp
  /// The sync-ups whose words were learned again (a deleted one's model goes).
  let learned = LockIsolated<[SyncUp.ID]>([])

  init() throws {
    app = try withDependencies { [learned] in
      $0.defaultFileStorage = .inMemory()
      $0.uuid = .incrementing
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    } operation: {
      try InteractiveApp()
    }
  }

  func press(_ keys: Key...) {
    for key in keys { app.handle(key) }
  }

  func type(_ text: String) {
    for character in text { app.handle(.character(character)) }
  }

  var syncUps: IdentifiedArrayOf<SyncUp> { app.store.state.syncUpsList.syncUps }

  func addSyncUp(_ title: String, attendees: [String]) {
    press(.character("a"))
    type(title)
    press(.down, .down, .down)
    for (index, name) in attendees.enumerated() {
      if index > 0 { press(.control("n")) }
      type(name)
    }
    press(.enter)
  }

  @Test func formEditsEveryField() {
    press(.character("a"))
    type("Designx")
    press(.backspace, .down, .right, .right, .left, .down, .right)
    press(.down)
    type("Ana")
    press(.control("n"))
    type("Ben")
    press(.control("n"))
    type("Cy")
    press(.up, .control("d"))
    guard case .add(let form)? = app.store.state.syncUpsList.destination else {
      Issue.record("the form is not shown")
      return
    }
    #expect(form.syncUp.title == "Design")
    #expect(form.syncUp.duration == .seconds(6 * 60))
    #expect(form.syncUp.theme == .buttercup)
    #expect(form.syncUp.attendees.map(\.name) == ["Ana", "Cy"])
    press(.escape)
    #expect(app.store.state.syncUpsList.destination == nil)
    #expect(syncUps.isEmpty)
  }

  /// ←/→ step to the whole minute below or above; a length under a minute shows in seconds
  /// and never grows from ←.
  @Test func lengthStepsToWholeMinutes() {
    func length() -> Duration? {
      guard case .add(let form)? = app.store.state.syncUpsList.destination else { return nil }
      return form.syncUp.duration
    }
    press(.character("a"), .down)
    app.store.send(
      .syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp.duration, .seconds(45))))))))
    press(.left)
    #expect(length() == .seconds(45))
    press(.right)
    #expect(length() == .seconds(60))
    app.store.send(
      .syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp.duration, .seconds(90))))))))
    press(.left)
    #expect(length() == .seconds(60))
    press(.left)
    #expect(length() == .seconds(60))
    app.store.send(
      .syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp.duration, .seconds(90))))))))
    press(.right)
    #expect(length() == .seconds(120))
  }

  @Test func listDeletesOnlyAfterYes() async {
    addSyncUp("Design", attendees: ["Ana"])
    addSyncUp("Planning", attendees: ["Ben"])
    press(.down, .character("d"), .character("n"))
    #expect(syncUps.map(\.title) == ["Design", "Planning"])
    let planning = syncUps[1].id
    press(.character("d"), .character("y"))
    // The deletion lands once no recording is found: the app redraws (and clamps) on it.
    #expect(await waitUntil { syncUps.map(\.title) == ["Design"] })
    #expect(await waitUntil { learned.value == [planning] })
    app.clampSelections()
    #expect(app.listSelection == 0)
  }

  @Test func detailEditsAndDeletesWithConfirmation() async {
    addSyncUp("Design", attendees: ["Ana"])
    press(.enter)
    guard case .detail? = app.store.state.path.last else {
      Issue.record("the detail is not shown")
      return
    }
    press(.character("e"))
    type(" Review")
    press(.enter)
    #expect(syncUps.first?.title == "Design Review")
    press(.character("x"), .character("n"))
    #expect(syncUps.count == 1)
    let design = syncUps[0].id
    press(.character("x"), .character("y"))
    #expect(await waitUntil { app.store.state.path.isEmpty })
    #expect(syncUps.isEmpty)
    #expect(await waitUntil { learned.value == [design] })
  }

  @Test func backLeavesTheDetailAndQuitEndsTheApp() {
    addSyncUp("Design", attendees: ["Ana"])
    press(.enter, .escape)
    #expect(app.store.state.path.isEmpty)
    press(.character("q"))
    #expect(app.isDone)
  }
}
