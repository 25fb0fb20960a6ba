import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing

/// The correction's rules, with the writes and the voice teaching injected.
@MainActor
struct CorrectSegmentTests {
  let ana = Attendee(id: Attendee.ID(UUID(1)), name: "Ana")
  let ben = Attendee(id: Attendee.ID(UUID(2)), name: "Ben")
  var syncUp: SyncUp {
    SyncUp(id: SyncUp.ID(UUID(0)), attendees: [ana, ben], title: "Daily")
  }
  let segment = Meeting.Segment(speaker: "Ana", start: 4, end: 9, text: "the lagoon page")
  var meeting: Meeting {
    Meeting(
      id: Meeting.ID(UUID(9)), date: Date(timeIntervalSince1970: 0), transcript: "",
      segments: [segment], audioFile: "audio/x.flac")
  }

  @Test func aNewSpeakerAndTextAreSavedThenTheSpeakersVoiceIsTaught() async {
    let changes = LockIsolated<[SegmentChange]>([])
    let lessons = LockIsolated<[VoiceLesson]>([])
    let corrected = segment.corrected(SegmentChange(speaker: "Ben", text: "the login page"))
    let summary = VoiceSummary(meetings: 1, seconds: 4)
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(
      initialState: CorrectSegment.State(
        syncUp: syncUp, meeting: meeting, number: 2, segment: segment)
    ) {
      CorrectSegment()
    } withDependencies: {
      $0.corrections.correct = { meetingID, number, change in
        #expect(meetingID == Meeting.ID(UUID(9)) && number == 2)
        changes.withValue { $0.append(change) }
        return corrected
      }
      $0.corrections.teachVoice = { lesson in
        lessons.withValue { $0.append(lesson) }
        return summary
      }
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    }
    await store.send(.speakerChanged("  ben ")) { $0.speaker = "  ben " }
    await store.send(.textChanged("the login\n  page")) { $0.text = "the login\n  page" }
    await store.send(.saveTapped) { $0.isSaving = true }
    await store.receive(\.saved) {
      $0.isSaving = false
      $0.segment = corrected
      $0.speaker = "Ben"
      $0.text = "the login page"
    }
    await store.receive(\.voiceTaught) { $0.voice = .taught(name: "Ben", summary) }
    await store.receive(\.delegate?.finished)
    // The attendee's own name and one-line text are saved; the segment's audio teaches Ben.
    #expect(changes.value == [SegmentChange(speaker: "Ben", text: "the login page")])
    #expect(
      lessons.value == [
        VoiceLesson(
          attendeeID: ben.id, syncUpID: syncUp.id, audioFile: "audio/x.flac", start: 4, end: 9)
      ])
    // The sync-up's words learn from the corrected text, whichever front end corrected it.
    #expect(learned.value == [syncUp.id])
  }

  @Test func anUnknownSpeakerOrEmptyTextIsOneLineAndNothingIsSaved() async {
    let store = TestStore(
      initialState: CorrectSegment.State(
        syncUp: syncUp, meeting: meeting, number: 1, segment: segment)
    ) {
      CorrectSegment()
    }
    await store.send(.speakerChanged("Zed")) { $0.speaker = "Zed" }
    await store.send(.saveTapped) {
      $0.problem = "'Zed' is not an attendee of 'Daily'; choose one of 'Ana', 'Ben'"
    }
    await store.send(.speakerStepped(by: 1)) {
      $0.speaker = "Ana"
      $0.problem = nil
    }
    await store.send(.speakerStepped(by: -1)) { $0.speaker = "Ben" }
    await store.send(.textChanged(" \n ")) { $0.text = " \n " }
    await store.send(.saveTapped) { $0.problem = "the text is empty: write what was said" }
    await store.send(.textChanged("a\u{1B}[31m")) {
      $0.text = "a\u{1B}[31m"
      $0.problem = nil
    }
    await store.send(.saveTapped) {
      $0.problem = "the text holds control characters (such as direction marks): write only words"
    }
  }

  @Test func undoPutsBackTheRecognitionAndAFailedWriteIsSaid() async {
    let corrected = segment.corrected(SegmentChange(text: "the login page"))
    let fails = LockIsolated(true)
    struct NoRoom: Error, CustomStringConvertible { var description: String { "no room" } }
    let store = TestStore(
      initialState: CorrectSegment.State(
        syncUp: syncUp, meeting: meeting, number: 1, segment: corrected)
    ) {
      CorrectSegment()
    } withDependencies: {
      $0.corrections.restore = { _, _ in
        if fails.value { throw CorrectionProblem.sentencesPending }
        return corrected.recognised
      }
      $0.teamLearning.learnWords = { _ in throw NoRoom() }
    }
    await store.send(.undoTapped) { $0.isSaving = true }
    await store.receive(\.failed) {
      $0.isSaving = false
      $0.problem = CorrectionProblem.sentencesPending.description
    }
    fails.setValue(false)
    await store.send(.undoTapped) {
      $0.isSaving = true
      $0.problem = nil
    }
    await store.receive(\.saved) {
      $0.isSaving = false
      $0.segment = self.segment
      $0.text = "the lagoon page"
    }
    // The words could not be learned again: said, and the correction stays undone.
    await store.receive(\.learningFailed) {
      $0.notice = "the team's words were not learned again (no room); the next change tries again"
    }
    await store.receive(\.delegate?.finished)
  }

  @Test func theMeetingScreenPicksASegmentAndClosesItsCorrectionOnceSaved() async {
    let second = Meeting.Segment(speaker: "Ana", start: 10, end: 12, text: "thanks everyone")
    let shown = Meeting(
      id: Meeting.ID(UUID(9)), date: Date(timeIntervalSince1970: 0), transcript: "",
      segments: [segment, second])
    let corrected = second.corrected(SegmentChange(speaker: "Ben"))
    let store = TestStore(initialState: MeetingFeature.State(meeting: shown, syncUp: syncUp)) {
      MeetingFeature()
    } withDependencies: {
      $0.corrections.correct = { _, number, change in
        #expect(number == 2 && change == SegmentChange(speaker: "Ben"))
        return corrected
      }
      $0.teamLearning.learnWords = { _ in }
    }
    await store.send(.segmentSelectionMoved(by: 0)) { $0.selectedSegment = 0 }
    await store.send(.segmentSelectionMoved(by: 1)) { $0.selectedSegment = 1 }
    await store.send(.segmentSelectionMoved(by: 1))
    await store.send(.correctTapped) {
      $0.correction = CorrectSegment.State(
        syncUp: self.syncUp, meeting: shown, number: 2, segment: second)
    }
    await store.send(.correction(.presented(.speakerStepped(by: 1)))) {
      $0.correction?.speaker = "Ben"
    }
    await store.send(.correction(.presented(.saveTapped))) { $0.correction?.isSaving = true }
    await store.receive(\.correction?.presented?.saved) {
      $0.correction?.isSaving = false
      $0.correction?.segment = corrected
    }
    // No audio was kept: nothing to teach, said so.
    await store.receive(\.correction?.presented?.voiceTaught) {
      $0.correction?.voice = .noAudio(name: "Ben")
    }
    await store.receive(\.correction?.presented?.delegate?.finished) { $0.correction = nil }
    await store.send(.segmentSelectionEnded) { $0.selectedSegment = nil }
  }
}
