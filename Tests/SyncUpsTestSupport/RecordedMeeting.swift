import Foundation
import SyncUpsFeatures
import TestSupport

/// Records a meeting of `syncUp` from `input` the way the app does: meeting time driven by the
/// audio (a test clock never advanced), `now` as the date, ids counting up, plus what `live`
/// sets (the live decoders and audio files). Returns the store once the recording ended and
/// dismissed itself, or after `timeout`: a safety net only (a suite runs many decoders at once).
@MainActor
public func recordToTheEnd(
  _ syncUp: Shared<SyncUp>, input: RecordMeeting.Input, now: Date,
  timeout: Duration = safetyNet, live: (inout DependencyValues) -> Void
) async throws -> Store<RecordMeeting.State, RecordMeeting.Action> {
  let store = Store(
    initialState: RecordMeeting.State(
      meetingID: Meeting.ID(UUID(0)), syncUp: syncUp, input: input)
  ) {
    RecordMeeting()
  } withDependencies: {
    $0.continuousClock = TestClock()
    $0.date.now = now
    $0.uuid = .incrementing
    // What follows the save (the team's words, the background pass) is not what these
    // recordings look at: `SyncUpsFeaturesTests` and `InteractiveLearningTests` cover it.
    $0.teamLearning.learnWords = { _ in }
    $0.sentencePasses.startInBackground = {}
    live(&$0)
  }
  store.send(.onTask)
  _ = await waitUntil(timeout: timeout) { store.isDismissed }
  return store
}
