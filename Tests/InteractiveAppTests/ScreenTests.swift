import Foundation
import MeetingRecorder
import SyncUpsCLI
import SyncUpsFeatures
import Testing

/// The screens are pure functions of feature states: checked here without a terminal.
@Suite("Interactive app screens")
struct ScreenTests {
  static let syncUp = SyncUp(
    id: SyncUp.ID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
    attendees: [
      Attendee(
        id: Attendee.ID(UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!), name: "Ana"),
      Attendee(
        id: Attendee.ID(UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!), name: "Ben"),
    ],
    duration: .seconds(300),
    meetings: [
      Meeting(
        id: Meeting.ID(UUID(uuidString: "00000000-0000-0000-0000-0000000000F0")!),
        date: Date(timeIntervalSince1970: 1_700_000_000),
        transcript: "good morning let's start yesterday I fixed the build",
        segments: [
          .init(speaker: "Ana", start: 0, end: 2, text: "good morning"),
          .init(speaker: "Ana", start: 2, end: 3, text: "let's start"),
          .init(speaker: "Ben", start: 65, end: 70, text: "yesterday I fixed the build"),
        ]
      )
    ],
    theme: .orange,
    title: "Morning Sync"
  )

  /// Screens without colour and style codes, for reading.
  func plain(_ lines: [String]) -> [String] {
    lines.map {
      $0.replacingOccurrences(
        of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    }
  }

  func list(_ syncUps: [SyncUp], destination: SyncUpsList.Destination.State? = nil)
    -> SyncUpsList.State
  {
    withDependencies {
      $0.defaultFileStorage = .inMemory()
    } operation: {
      let state = SyncUpsList.State(destination: destination)
      state.$syncUps.withLock { $0 = IdentifiedArray(uniqueElements: syncUps) }
      return state
    }
  }

  /// A meeting of `syncUp` being timed without a microphone.
  func recordState(_ syncUp: Shared<SyncUp>) -> RecordMeeting.State {
    RecordMeeting.State(meetingID: Meeting.ID(UUID()), syncUp: syncUp, input: .none)
  }

  @Test func listShowsEachSyncUpAndMarksTheSelection() {
    var second = Self.syncUp
    second = SyncUp(id: SyncUp.ID(UUID()), attendees: second.attendees, title: "Design Review")
    let lines = plain(ListScreen(state: list([Self.syncUp, second]), selection: 1).lines)
    let morning = try! #require(lines.first { $0.contains("Morning Sync") })
    let design = try! #require(lines.first { $0.contains("Design Review") })
    #expect(morning.contains("2 attendees · 5 min · 1 meeting"))
    #expect(!morning.hasPrefix(" ›"))
    #expect(design.hasPrefix(" ›"))
    #expect(lines.last?.contains("a add · d delete · q quit") == true)
  }

  /// The list holds meetings without transcripts; the detail shows their openings, read from
  /// the database.
  @Test func detailShowsTheOpeningOfMeetingsHeldAsSummaries() throws {
    let database = try SyncUpsDatabase.inMemory()
    try database.add(Self.syncUp)
    var summary = Self.syncUp
    summary.meetings = IdentifiedArray(
      uniqueElements: Self.syncUp.meetings.map {
        Meeting(id: $0.id, date: $0.date, transcript: "")
      })
    let lines = withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      plain(DetailScreen(state: SyncUpDetail.State(syncUp: Shared(value: summary))).lines)
    }
    #expect(
      lines.contains { $0.contains("good morning let's start yesterday I fixed the") },
      "\(lines)")
    #expect(!lines.contains { $0.contains("(no transcript)") })
  }

  @Test func emptyListSaysHowToAdd() {
    let lines = plain(ListScreen(state: list([])).lines)
    #expect(lines.contains(" No sync-ups yet: press a to add one."))
  }

  @Test func listAsksBeforeDeleting() {
    let asking = list([Self.syncUp], destination: .alert(.deleteSyncUps([Self.syncUp])))
    let lines = plain(ListScreen(state: asking).lines)
    #expect(lines.contains(" Delete 'Morning Sync' and all its meetings?"))
    #expect(lines.contains(" [y] Yes   [n] No"))
  }

  @Test func detailShowsSettingsAttendeesAndMeetings() {
    let state = SyncUpDetail.State(syncUp: Shared(value: Self.syncUp))
    let lines = plain(DetailScreen(state: state).lines)
    #expect(lines[0].contains("Morning Sync"))
    #expect(lines.contains(" Length 5 min · Theme Orange"))
    #expect(lines.contains("   Ana") && lines.contains("   Ben"))
    #expect(lines.contains { $0.hasPrefix(" › ") && $0.contains("good morning let's start") })
    #expect(lines.last?.contains("s start meeting") == true)
  }

  @Test func detailAlertButtonsHaveDistinctKeys() {
    let state = SyncUpDetail.State(
      destination: .alert(.audioCaptureUnavailable("No PulseAudio server.")),
      syncUp: Shared(value: Self.syncUp)
    )
    let lines = plain(DetailScreen(state: state).lines)
    #expect(lines.contains(" Audio capture is unavailable"))
    #expect(lines.contains(" [c] Continue without recording   [a] Cancel"))
    let deletion = plain(
      DetailScreen(
        state: SyncUpDetail.State(
          destination: .alert(.deleteSyncUp), syncUp: Shared(value: Self.syncUp))
      ).lines
    )
    #expect(deletion.contains(" [y] Yes   [n] Nevermind"))
  }

  @Test func formShowsEveryFieldAndTheCursor() {
    let form = SyncUpForm.State(syncUp: Self.syncUp)
    let lines = plain(
      FormScreen(
        heading: "Edit Morning Sync", state: form, field: .attendee(Self.syncUp.attendees[1].id)
      ).lines
    )
    #expect(lines[0].contains("Edit Morning Sync"))
    #expect(lines.contains("   Title   Morning Sync"))
    #expect(lines.contains("   Length  ◂ 5 min ▸"))
    #expect(lines.contains("   Theme   ◂ Orange ▸"))
    #expect(lines.contains("   1.      Ana"))
    #expect(lines.contains(" › 2.      Ben▏"))
    #expect(lines.contains("   none yet: ^W adds a word or phrase the team uses"))
  }

  @Test func formListsTheVocabularyAfterTheAttendees() {
    var syncUp = Self.syncUp
    syncUp.vocabulary = ["Grafana", "pull request"]
    let lines = plain(
      FormScreen(heading: "Edit", state: SyncUpForm.State(syncUp: syncUp), field: .word(1)).lines)
    let attendee = lines.firstIndex(of: "   2.      Ben")
    let heading = lines.firstIndex(of: " Vocabulary (attendees' names are always in it)")
    #expect(attendee != nil && heading != nil && attendee! < heading!)
    #expect(lines.contains("   1.      Grafana"))
    #expect(lines.contains(" › 2.      pull request▏"))
    #expect(FormField.all(syncUp).suffix(2) == [.word(0), .word(1)])
  }

  @Test func meetingShowsTurnsBySpeaker() {
    let state = MeetingFeature.State(meeting: Self.syncUp.meetings[0], syncUp: Self.syncUp)
    let lines = plain(MeetingScreen(state: state).lines)
    #expect(lines.contains(" Attendees: Ana, Ben"))
    #expect(lines.contains(" [00:00] Ana: good morning let's start"))
    #expect(lines.contains(" [01:05] Ben: yesterday I fixed the build"))
  }

  @Test func meetingScrollsWithinItsTranscript() {
    let segments: [Meeting.Segment] = (0..<10).map { (index: Int) -> Meeting.Segment in
      Meeting.Segment(
        speaker: index.isMultiple(of: 2) ? "Ana" : "Ben", start: Double(index * 10),
        end: Double(index * 10 + 5),
        text: "point \(index)"
      )
    }
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "", segments: segments)
    let state = MeetingFeature.State(meeting: meeting, syncUp: Self.syncUp)
    let top = plain(MeetingScreen(state: state, height: 10).lines)
    #expect(top.contains(" [00:00] Ana: point 0"))
    #expect(!top.contains(" [01:30] Ben: point 9"))
    let scrolled = plain(MeetingScreen(state: state, offset: 1, height: 10).lines)
    #expect(!scrolled.contains(" [00:00] Ana: point 0"))
    #expect(scrolled.contains(" [00:10] Ben: point 1"))
    // Scrolling past the end keeps the last lines on screen.
    #expect(MeetingScreen(state: state, height: 10).maxOffset == 4)
    let end = plain(MeetingScreen(state: state, offset: 99, height: 10).lines)
    #expect(end.count == 10)
    #expect(end.last == " [01:30] Ben: point 9")
  }

  @Test func screensFitANarrowTerminal() {
    let detail = SyncUpDetail.State(syncUp: Shared(value: Self.syncUp))
    let screens = [
      ListScreen(state: list([Self.syncUp]), width: 40).lines,
      DetailScreen(state: detail, width: 40).lines,
      FormScreen(heading: "Edit", state: SyncUpForm.State(syncUp: Self.syncUp), width: 40).lines,
      MeetingScreen(
        state: MeetingFeature.State(meeting: Self.syncUp.meetings[0], syncUp: Self.syncUp),
        width: 40
      ).lines,
    ]
    for lines in screens {
      #expect(plain(lines).allSatisfy { $0.count <= 40 }, "\(plain(lines))")
    }
  }

  @Test func countsAreSingularForOneAndShortLengthsShowSeconds() {
    var solo = SyncUp(id: SyncUp.ID(UUID()), attendees: [Self.syncUp.attendees[0]], title: "Solo")
    solo.duration = .seconds(45)
    let lines = plain(ListScreen(state: list([solo])).lines)
    #expect(lines.contains { $0.contains("Solo") && $0.contains("1 attendee · 45 s · 0 meetings") })
    let detail = plain(DetailScreen(state: SyncUpDetail.State(syncUp: Shared(value: solo))).lines)
    #expect(detail.contains(" Length 45 s · Theme Bubblegum"))
    let form = plain(FormScreen(heading: "Edit", state: SyncUpForm.State(syncUp: solo)).lines)
    #expect(form.contains("   Length  ◂ 45 s ▸"))
  }

  /// Every screen at 20×5: never more rows than that (the first stays the header) and no row
  /// wider, so the terminal never scrolls.
  @Test func screensNeverDrawMoreThanTheTerminalHolds() {
    var long = Self.syncUp
    long.title = String(repeating: "Quarterly planning ", count: 5)
    let shared = Shared(value: long)
    let others = (1...2).map { SyncUp(id: SyncUp.ID(UUID()), title: "Other \($0)") }
    var recording = recordState(shared)
    recording.segments = (0..<20).map {
      .init(speaker: "Ana", start: Double($0), end: 1, text: "words \($0)")
    }
    let screens: [(String, [String])] = [
      ("list", ListScreen(state: list(others + [long]), selection: 2, width: 20, height: 5).lines),
      (
        "detail",
        DetailScreen(state: SyncUpDetail.State(syncUp: shared), width: 20, height: 5).lines
      ),
      (
        "form",
        FormScreen(heading: "Edit", state: SyncUpForm.State(syncUp: long), width: 20, height: 5)
          .lines
      ),
      (
        "meeting",
        MeetingScreen(
          state: MeetingFeature.State(meeting: long.meetings[0], syncUp: long), width: 20, height: 5
        ).lines
      ),
      ("record", RecordScreen(state: recording, width: 20, height: 5).lines),
    ]
    for (name, lines) in screens {
      let shown = plain(lines)
      #expect(shown.count <= 5 && shown.allSatisfy { $0.count <= 20 }, "\(name): \(shown)")
      #expect(lines.first?.hasPrefix("\u{1B}") == true, "\(name): the header is the first row")
    }
    // The list keeps the selected row on screen between its header and its hint.
    let listed = plain(screens[0].1)
    #expect(listed.first == " Daily Sync-ups")
    #expect(listed.contains { $0.hasPrefix(" ›") }, "\(listed)")
    #expect(listed.last?.contains("↑↓") == true, "\(listed)")
  }

  /// One source: the meter as it always was. Several (a remote stand-up): one bar per source,
  /// named, each saying when it has been silent for a while.
  @Test func theLevelMeterShowsEachSourceNamed() {
    var recording = RecordMeeting.State(
      meetingID: Meeting.ID(UUID()), syncUp: Shared(value: Self.syncUp),
      input: .mix(["alsa_input.usb-mic", "speakers.monitor"]))
    recording.status = .recording
    recording.levels = [AudioLevel(source: "alsa_input.usb-mic", loudness: 0.5, silentFor: 0)]
    let one = plain(RecordScreen(state: recording, width: 40).lines)
    #expect(
      one.contains(" Mic " + String(repeating: "█", count: 15) + String(repeating: "░", count: 15)),
      "\(one)")
    // One source silent for 10 s: the warning, as always.
    recording.levels = [AudioLevel(source: "alsa_input.usb-mic", loudness: 0, silentFor: 11)]
    #expect(
      plain(RecordScreen(state: recording, width: 100).lines).contains(
        " ⚠ The microphone has been silent for 11 s: is it muted or the wrong source?"))
    recording.levels = [
      AudioLevel(source: "alsa_input.usb-mic", loudness: 1, silentFor: 0),
      AudioLevel(source: "speakers.monitor", loudness: 0, silentFor: 12.5),
    ]
    let two = plain(RecordScreen(state: recording, width: 80).lines)
    #expect(two.contains(" alsa_input.usb-mic " + String(repeating: "█", count: 30)), "\(two)")
    #expect(
      two.contains(
        " speakers.monitor   " + String(repeating: "░", count: 30) + " silent for 12 s"),
      "\(two)")
    #expect(!two.contains { $0.hasPrefix(" Mic ") })
  }

  @Test func aLongTitleIsCutBeforeTheRecordingState() {
    var long = Self.syncUp
    long.title = "The very long weekly planning and retrospective of the platform team"
    let header = plain(
      RecordScreen(state: recordState(Shared(value: long)), width: 40).lines)[0]
    #expect(header == " The very long weekly pl… not recording ")
    let detail = plain(
      DetailScreen(state: SyncUpDetail.State(syncUp: Shared(value: long)), width: 40).lines)
    #expect(detail[0] == " The very long weekly planning and ret… ")
  }

  /// Escape sequences and control characters in stored text show as symbols on every screen.
  @Test func controlCharactersAreShownNeverObeyed() {
    var evil = Self.syncUp
    evil.title = "\u{1B}[2JRed\u{07}"
    evil.attendees[0].name = "Ana\u{1B}[31m"
    evil.meetings[0].segments[0].speaker = "Ana\u{1B}[31m"
    evil.meetings[0].segments[0].text = "good\u{9B}5m morning"
    let shared = Shared(value: evil)
    var recording = recordState(shared)
    recording.segments = [evil.meetings[0].segments[0]]
    recording.partial = "more\u{1B}[5m"
    let screens = [
      ListScreen(state: list([evil], destination: .alert(.deleteSyncUps([evil])))).lines,
      DetailScreen(state: SyncUpDetail.State(syncUp: shared)).lines,
      FormScreen(heading: "Edit", state: SyncUpForm.State(syncUp: evil)).lines,
      MeetingScreen(state: MeetingFeature.State(meeting: evil.meetings[0], syncUp: evil)).lines,
      RecordScreen(state: recording).lines,
    ]
    for lines in screens {
      let text = lines.joined(separator: "\n")
      #expect(
        !text.contains("\u{1B}[2J") && !text.contains("\u{1B}[31m") && !text.contains("\u{07}"))
      #expect(!text.unicodeScalars.contains("\u{9B}") && !text.contains("\u{1B}[5m"))
      #expect(text.contains("␛[2JRed␇") || text.contains("Ana␛[31m"), "\(plain(lines))")
    }
    #expect(plain(screens[4]).contains(" [00:00] Ana␛[31m: good�5m morning"))
  }

  @Test func keysDecodeFromTerminalBytes() {
    #expect(Key.decode([0x1B, 0x5B, 0x41]) == .up)
    #expect(Key.decode([0x1B, 0x5B, 0x42]) == .down)
    #expect(Key.decode([0x1B]) == .escape)
    #expect(Key.decode([0x0A]) == .enter)
    #expect(Key.decode([0x7F]) == .backspace)
    #expect(Key.decode([0x0E]) == .control("n"))
    #expect(Key.decode(Array("ë".utf8)) == .character("ë"))
    #expect(Key.decode(Array("q".utf8)) == .character("q"))
    #expect(Key.decode([0x1B, 0x5B, 0x35, 0x7E]) == .pageUp)
    #expect(Key.decode([0x1B, 0x5B, 0x32, 0x34, 0x7E]) == nil)  // F12
  }
}
