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

    // add: blank attendees are dropped; the id is printed.
    let added = try await home.run(
      "add", "--title", "Morning Sync", "--attendee", "Ana", "--attendee", "  ", "--attendee",
      "Ben",
      "--duration", "1m30s", "--theme", "Teal"
    )
    #expect(added.status == 0, "\(added)")
    #expect(added.stderr.isEmpty, "\(added)")
    let id = try #require(
      UUID(uuidString: added.stdout.trimmingCharacters(in: .newlines)), "\(added)")
    #expect(added.stdout == id.uuidString.lowercased() + "\n")
    let full = id.uuidString.lowercased()
    let short = String(full.prefix(8))

    let stored = try #require(try home.load()[id: SyncUp.ID(id)])
    #expect(stored.title == "Morning Sync")
    #expect(stored.attendees.map(\.name) == ["Ana", "Ben"])
    #expect(stored.duration == .seconds(90))
    #expect(stored.theme == .teal)

    // list
    let list = try await home.run("list")
    #expect(list.status == 0 && list.stderr.isEmpty, "\(list)")
    #expect(
      list.stdout == """
        ID        TITLE         DURATION  ATTENDEES  MEETINGS  THEME
        \(short)  Morning Sync  1m30s     2          0         teal

        """)
    let listJSON = try await home.run("list", "--json")
    #expect(
      listJSON.stdout == """
        [{"id":"\(full)","title":"Morning Sync","theme":"teal","duration":90,"attendees":["Ana","Ben"],"meetings":0}]

        """)

    // show, by title in another case
    let show = try await home.run("show", "morning SYNC")
    #expect(show.status == 0 && show.stderr.isEmpty, "\(show)")
    #expect(
      show.stdout == """
        Title:        Morning Sync
        ID:           \(full)
        Theme:        teal
        Duration:     1m30s
        Per attendee: 45s
        Attendees:    Ana, Ben
        Vocabulary:   attendees' names only (add words with --add-word)
        Meetings:     0

        """)

    // edit, by id prefix: prints the edited sync-up
    let edit = try await home.run(
      "edit", String(short.prefix(4)), "--title", "Daily", "--add-attendee", "Cy",
      "--remove-attendee", "ana", "--duration", "300", "--theme", "NAVY"
    )
    #expect(edit.status == 0 && edit.stderr.isEmpty, "\(edit)")
    #expect(
      edit.stdout == """
        Title:        Daily
        ID:           \(full)
        Theme:        navy
        Duration:     5m
        Per attendee: 2m30s
        Attendees:    Ben, Cy
        Vocabulary:   attendees' names only (add words with --add-word)
        Meetings:     0

        """)
    let edited = try #require(try home.load()[id: SyncUp.ID(id)])
    #expect(edited.attendees.map(\.name) == ["Ben", "Cy"])
    #expect(edited.attendees[0].id == stored.attendees[1].id)  // Ben kept, not re-created
    #expect(edited.duration == .seconds(300))

    // meetings: none yet
    let none = try await home.run("meetings", "daily")
    #expect(none.status == 0 && none.stdout == "'Daily' has no meetings yet.\n", "\(none)")

    // Two meetings saved as the app saves them (newest first).
    try home.update { $0[id: SyncUp.ID(id)]?.meetings = [Self.newer, Self.older] }

    let meetings = try await home.run("meetings", "Daily")
    #expect(meetings.status == 0 && meetings.stderr.isEmpty, "\(meetings)")
    #expect(
      meetings.stdout == """
        N  ID        DATE              LENGTH  SEGMENTS  FIRST WORDS
        1  bbbbbbbb  2026-11-21 14:05  00:10   3         good morning everyone yesterday I fixed the build …
        2  aaaaaaaa  2026-11-20 09:00  01:02   1         short meeting today

        """)
    let meetingsJSON = try await home.run("meetings", "Daily", "--json")
    #expect(
      meetingsJSON.stdout == """
        [{"index":1,"id":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z","length":10.5,"segments":3,"firstWords":"good morning everyone yesterday I fixed the build …"},\
        {"index":2,"id":"aaaaaaaa-0000-4000-8000-000000000001","date":"2026-11-20T09:00:00Z","length":62.5,"segments":1,"firstWords":"short meeting today"}]

        """)

    #expect(
      try await home.run("show", "daily").stdout == """
        Title:        Daily
        ID:           \(full)
        Theme:        navy
        Duration:     5m
        Per attendee: 2m30s
        Attendees:    Ben, Cy
        Vocabulary:   attendees' names only (add words with --add-word)
        Meetings:     2
          1. 2026-11-21 14:05  bbbbbbbb
          2. 2026-11-20 09:00  aaaaaaaa

        """)
    let showWithMeetings = try await home.run("show", short, "--json")
    #expect(
      showWithMeetings.stdout == """
        {"id":"\(full)","title":"Daily","theme":"navy","duration":300,"durationPerAttendee":150,"attendees":["Ben","Cy"],"vocabulary":[],\
        "meetings":[{"id":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z"},\
        {"id":"aaaaaaaa-0000-4000-8000-000000000001","date":"2026-11-20T09:00:00Z"}]}

        """)

    // transcript: the newest meeting by default, labelled by speaker with times
    let txt = try await home.run("transcript", "daily")
    #expect(txt.status == 0 && txt.stderr.isEmpty, "\(txt)")
    #expect(
      txt.stdout == """
        [00:00 - 00:03] Ben: good morning everyone
        [00:03 - 00:07] Cy: yesterday I fixed the build
        [00:08 - 00:10] Ben: great thanks

        """)
    #expect(try await home.run("transcript", "daily", "--meeting", "1").stdout == txt.stdout)
    #expect(try await home.run("transcript", "daily", "--meeting", "BBBB").stdout == txt.stdout)

    let md = try await home.run("transcript", "daily", "--meeting", "2", "--format", "md")
    #expect(
      md.stdout == """
        # Daily: 2026-11-20 09:00

        **Ben** (00:01 - 01:02): short meeting today

        """)
    #expect(
      try await home.run("transcript", "daily", "--meeting", "aaaaaaaa-0000", "--format", "md")
        .stdout
        == md.stdout)

    let json = try await home.run("transcript", "daily", "--format", "json")
    #expect(json.status == 0 && json.stderr.isEmpty, "\(json)")
    #expect(
      json.stdout == """
        {"syncUp":"Daily","meeting":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z",\
        "text":"good morning everyone yesterday I fixed the build great thanks","segments":[\
        {"speaker":"Ben","start":0.71,"end":3.2,"text":"good morning everyone"},\
        {"speaker":"Cy","start":3.5,"end":7.25,"text":"yesterday I fixed the build"},\
        {"speaker":"Ben","start":8,"end":10.5,"text":"great thanks"}]}

        """)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["syncUp", "meeting", "date", "text", "segments"])
    let segments = try #require(object["segments"] as? [[String: Any]])
    #expect(segments.allSatisfy { Set($0.keys) == ["speaker", "start", "end", "text"] })

    let srt = try await home.run("transcript", "daily", "--format", "srt")
    #expect(
      srt.stdout == """
        1
        00:00:00,710 --> 00:00:03,200
        Ben: good morning everyone

        2
        00:00:03,500 --> 00:00:07,250
        Cy: yesterday I fixed the build

        3
        00:00:08,000 --> 00:00:10,500
        Ben: great thanks


        """)
    let vtt = try await home.run("transcript", "daily", "--format", "vtt", "--meeting", "2")
    #expect(
      vtt.stdout == """
        WEBVTT

        00:00:01.000 --> 00:01:02.500
        Ben: short meeting today


        """)

    // delete --yes
    let delete = try await home.run("delete", "daily", "--yes")
    #expect(delete.status == 0 && delete.stderr.isEmpty, "\(delete)")
    #expect(delete.stdout == "Deleted 'Daily' (\(short)).\n")
    #expect(try home.load().isEmpty)
    let empty = try await home.run("list")
    #expect(
      empty.stdout == "No sync-ups yet: add one with 'syncups add --title TITLE --attendee NAME'.\n"
    )
    #expect(try await home.run("list", "--json").stdout == "[]\n")
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
