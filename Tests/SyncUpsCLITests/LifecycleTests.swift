import Foundation
import SyncUpsFeatures
import Testing

/// add → list → show → edit → meetings → transcript → delete, on the real binary and a real
/// (temporary) data directory.
@Suite("syncups: managing sync-ups and reading transcripts")
struct LifecycleTests {
  static let newerID = UUID(uuidString: "bbbbbbbb-0000-4000-8000-000000000002")!
  static let olderID = UUID(uuidString: "aaaaaaaa-0000-4000-8000-000000000001")!
  static let newerDate = ISO8601DateFormatter().date(from: "2026-11-21T14:05:00Z")!
  static let olderDate = ISO8601DateFormatter().date(from: "2026-11-20T09:00:00Z")!

  static var newer: Meeting {
    Meeting(
      id: Meeting.ID(newerID), date: newerDate,
      transcript: "good morning everyone yesterday I fixed the build great thanks",
      segments: [
        .init(speaker: "Ben", start: 0.71, end: 3.2, text: "good morning everyone"),
        .init(speaker: "Cy", start: 3.5, end: 7.25, text: "yesterday I fixed the build"),
        .init(speaker: "Ben", start: 8, end: 10.5, text: "great thanks"),
      ]
    )
  }

  static var older: Meeting {
    Meeting(
      id: Meeting.ID(olderID), date: olderDate, transcript: "short meeting today",
      segments: [.init(speaker: "Ben", start: 1, end: 62.5, text: "short meeting today")]
    )
  }

  @Test func addListShowEditMeetingsTranscriptDelete() async throws {
    let home = try Home()
    let (id, stored) = try await addMorningSync(in: home)
    let full = id.uuidString.lowercased()
    let short = String(full.prefix(8))
    try await expectListShowsMorningSync(home, full: full, short: short)
    try await expectShowFindsMorningSyncByTitleInAnotherCase(home, full: full)
    try await editIntoDaily(home, id: id, stored: stored, full: full, short: short)

    // meetings: none yet
    let none = try await home.run("meetings", "daily")
    #expect(none.status == 0 && none.stdout == "'Daily' has no meetings yet.\n", "\(none)")

    // Two meetings saved as the app saves them (newest first).
    try home.update { $0[id: SyncUp.ID(id)]?.meetings = [Self.newer, Self.older] }

    try await expectDailyShowsBothMeetingsNewestFirst(home, full: full, short: short)
    try await expectTheTranscriptAsTextAndMarkdown(home)
    try await expectTheTranscriptAsJSONAndSubtitles(home)
    try await deleteDaily(home, short: short)
  }

  @Test func addAcceptsEveryDurationFormAndDefaults() async throws {
    let home = try Home()
    for (text, seconds) in [("5m", 300), ("90s", 90), ("1m30s", 90), ("300", 300), ("1h", 3600)] {
      let run = try await home.run(
        "add", "--title", "T \(text)", "--attendee", "Ana", "--duration", text)
      #expect(run.status == 0, "\(run)")
      let id = try #require(UUID(uuidString: run.stdout.trimmingCharacters(in: .newlines)))
      #expect(try home.load()[id: SyncUp.ID(id)]?.duration == .seconds(seconds), "\(text)")
    }
    let plain = try await home.run("add", "--title", "Plain", "--attendee", "Ana")
    let id = try #require(UUID(uuidString: plain.stdout.trimmingCharacters(in: .newlines)))
    let syncUp = try #require(try home.load()[id: SyncUp.ID(id)])
    #expect(syncUp.duration == .seconds(300))
    #expect(syncUp.theme == .bubblegum)
  }

  @Test func meetingsAreNumberedNewestFirstWhateverTheirStoredOrder() async throws {
    let home = try Home()
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(uuidString: "dddddddd-0000-4000-8000-000000000004")!),
      attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ben")],
      meetings: [Self.older, Self.newer],
      title: "Imported"
    )
    try home.update { $0 = [syncUp] }
    let meetings = try await home.run("meetings", "imported")
    #expect(
      meetings.stdout.split(separator: "\n").dropFirst().map { $0.prefix(11) } == [
        "1  bbbbbbbb", "2  aaaaaaaa",
      ])
    #expect(
      try await home.run("transcript", "imported", "--format", "json").stdout.contains(
        #""meeting":"bbbbbbbb-"#))
    #expect(
      try await home.run("transcript", "imported", "--meeting", "2", "--format", "json").stdout
        .contains(
          #""meeting":"aaaaaaaa-"#))
  }

  /// A year of meetings: `meetings` shows the newest 20 and says how to see more.
  @Test func meetingsShowsTheNewestTwentyUnlessAskedForMore() async throws {
    let home = try Home()
    let meetings = (0..<25).map { day in
      Meeting(
        id: Meeting.ID(UUID()), date: Self.olderDate.addingTimeInterval(Double(day) * 86_400),
        transcript: "meeting of day \(day)")
    }
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID()), attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ana")],
      meetings: IdentifiedArray(uniqueElements: meetings), title: "Daily")
    try home.update { $0 = [syncUp] }

    let newest = try await home.run("meetings", "daily")
    #expect(newest.status == 0, "\(newest)")
    let rows = newest.stdout.split(separator: "\n").dropFirst()
    #expect(rows.count == 20)
    #expect(rows.first?.hasSuffix("meeting of day 24") == true)
    #expect(rows.last?.hasSuffix("meeting of day 5") == true)
    #expect(
      newest.stderrLines == [
        "syncups: showing the newest 20 of 25 meetings; --all lists every one, --limit N the newest N"
      ])
    let all = try await home.run("meetings", "daily", "--all")
    #expect(all.stdout.split(separator: "\n").count == 26 && all.stderr.isEmpty, "\(all)")
    let three = try await home.run("meetings", "daily", "--limit", "3", "--json")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(three.stdout.utf8)) as? [[String: Any]])
    #expect(json.map { $0["index"] as? Int } == [1, 2, 3])
    #expect(three.stderrLines.count == 1)
    // The numbers are the same whatever is shown: the 25th is the oldest.
    #expect(
      try await home.run("transcript", "daily", "--meeting", "25").stdout == "meeting of day 0\n")
    for (bad, said) in [
      (["--limit", "0"], "--limit must be at least 1"),
      (["--limit", "-3"], "--limit must be at least 1"),
      (["--all", "--limit", "5"], "--all and --limit do not go together"),
    ] {
      let refused = try await home.run(["meetings", "daily"] + bad)
      #expect(refused.status != 0 && refused.stdout.isEmpty, "\(refused)")
      #expect(refused.stderrLines.count == 1 && refused.stderr.contains(said), "\(refused)")
    }
  }

  @Test func aMeetingWithoutSegmentsPrintsItsText() async throws {
    let home = try Home()
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(uuidString: "cccccccc-0000-4000-8000-000000000003")!),
      attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ana")],
      meetings: [
        Meeting(id: Meeting.ID(Self.olderID), date: Self.olderDate, transcript: "just text")
      ],
      title: "Plain"
    )
    try home.update { $0 = [syncUp] }
    #expect(try await home.run("transcript", "plain").stdout == "just text\n")
    #expect(try await home.run("transcript", "plain", "--format", "srt").stdout == "")
    #expect(try await home.run("transcript", "plain", "--format", "vtt").stdout == "WEBVTT\n\n")
  }
}
