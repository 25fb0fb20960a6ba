import Foundation
import SyncUpsFeatures
import Testing

/// The steps of the lifecycle, in the order it takes them; a failure points at the step's line
/// in the lifecycle.
extension LifecycleTests {
  /// add: blank attendees are dropped; the id is printed, and what is stored is what was given.
  func addMorningSync(
    in home: Home, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> (id: UUID, stored: SyncUp) {
    let added = try await home.run(
      "add", "--title", "Morning Sync", "--attendee", "Ana", "--attendee", "  ", "--attendee",
      "Ben",
      "--duration", "1m30s", "--theme", "Teal"
    )
    #expect(added.status == 0, "\(added)", sourceLocation: sourceLocation)
    #expect(added.stderr.isEmpty, "\(added)", sourceLocation: sourceLocation)
    let id = try #require(
      UUID(uuidString: added.stdout.trimmingCharacters(in: .newlines)), "\(added)",
      sourceLocation: sourceLocation)
    #expect(added.stdout == id.uuidString.lowercased() + "\n", sourceLocation: sourceLocation)
    let stored = try #require(try home.load()[id: SyncUp.ID(id)], sourceLocation: sourceLocation)
    #expect(stored.title == "Morning Sync", sourceLocation: sourceLocation)
    #expect(stored.attendees.map(\.name) == ["Ana", "Ben"], sourceLocation: sourceLocation)
    #expect(stored.duration == .seconds(90), sourceLocation: sourceLocation)
    #expect(stored.theme == .teal, sourceLocation: sourceLocation)
    return (id, stored)
  }

  /// list, as a table and as JSON: the one sync-up, no meetings yet.
  func expectListShowsMorningSync(
    _ home: Home, full: String, short: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let list = try await home.run("list")
    #expect(list.status == 0 && list.stderr.isEmpty, "\(list)", sourceLocation: sourceLocation)
    #expect(
      list.stdout == """
        ID        TITLE         DURATION  ATTENDEES  MEETINGS  THEME
        \(short)  Morning Sync  1m30s     2          0         teal

        """, sourceLocation: sourceLocation)
    let listJSON = try await home.run("list", "--json")
    #expect(
      listJSON.stdout == """
        [{"id":"\(full)","title":"Morning Sync","theme":"teal","duration":90,"attendees":["Ana","Ben"],"meetings":0}]

        """, sourceLocation: sourceLocation)
  }

  /// show, by title in another case.
  func expectShowFindsMorningSyncByTitleInAnotherCase(
    _ home: Home, full: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let show = try await home.run("show", "morning SYNC")
    #expect(show.status == 0 && show.stderr.isEmpty, "\(show)", sourceLocation: sourceLocation)
    #expect(
      show.stdout == """
        Title:        Morning Sync
        ID:           \(full)
        Theme:        teal
        Duration:     1m30s
        Per attendee: 45s
        Attendees:    Ana, Ben
        Vocabulary:   attendees' names only (add words with --add-word)
        People:       Ana: voice not heard yet
                      Ben: voice not heard yet
        Team's words: nothing learned yet
        Meetings:     0

        """, sourceLocation: sourceLocation)
  }

  /// edit, by id prefix: prints the edited sync-up; an attendee kept is not re-created.
  func editIntoDaily(
    _ home: Home, id: UUID, stored: SyncUp, full: String, short: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let edit = try await home.run(
      "edit", String(short.prefix(4)), "--title", "Daily", "--add-attendee", "Cy",
      "--remove-attendee", "ana", "--duration", "300", "--theme", "NAVY"
    )
    #expect(edit.status == 0 && edit.stderr.isEmpty, "\(edit)", sourceLocation: sourceLocation)
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

        """, sourceLocation: sourceLocation)
    let edited = try #require(try home.load()[id: SyncUp.ID(id)], sourceLocation: sourceLocation)
    #expect(edited.attendees.map(\.name) == ["Ben", "Cy"], sourceLocation: sourceLocation)
    // Ben kept, not re-created
    #expect(edited.attendees[0].id == stored.attendees[1].id, sourceLocation: sourceLocation)
    #expect(edited.duration == .seconds(300), sourceLocation: sourceLocation)
  }

  /// meetings and show, as tables and as JSON: both meetings, numbered newest first.
  func expectDailyShowsBothMeetingsNewestFirst(
    _ home: Home, full: String, short: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let meetings = try await home.run("meetings", "Daily")
    #expect(
      meetings.status == 0 && meetings.stderr.isEmpty, "\(meetings)", sourceLocation: sourceLocation
    )
    #expect(
      meetings.stdout == """
        N  ID        DATE              LENGTH  SEGMENTS  FIRST WORDS
        1  bbbbbbbb  2026-11-21 14:05  00:10   3         good morning everyone yesterday I fixed the build …
        2  aaaaaaaa  2026-11-20 09:00  01:02   1         short meeting today

        """, sourceLocation: sourceLocation)
    let meetingsJSON = try await home.run("meetings", "Daily", "--json")
    #expect(
      meetingsJSON.stdout == """
        [{"index":1,"id":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z","length":10.5,"segments":3,"firstWords":"good morning everyone yesterday I fixed the build …"},\
        {"index":2,"id":"aaaaaaaa-0000-4000-8000-000000000001","date":"2026-11-20T09:00:00Z","length":62.5,"segments":1,"firstWords":"short meeting today"}]

        """, sourceLocation: sourceLocation)

    #expect(
      try await home.run("show", "daily").stdout == """
        Title:        Daily
        ID:           \(full)
        Theme:        navy
        Duration:     5m
        Per attendee: 2m30s
        Attendees:    Ben, Cy
        Vocabulary:   attendees' names only (add words with --add-word)
        People:       Ben: voice not heard yet
                      Cy: voice not heard yet
        Team's words: learned from 13 words (0 corrected), 13 distinct words
        Meetings:     2
          1. 2026-11-21 14:05  bbbbbbbb
          2. 2026-11-20 09:00  aaaaaaaa

        """, sourceLocation: sourceLocation)
    let showWithMeetings = try await home.run("show", short, "--json")
    #expect(
      showWithMeetings.stdout == """
        {"id":"\(full)","title":"Daily","theme":"navy","duration":300,"durationPerAttendee":150,"attendees":["Ben","Cy"],"vocabulary":[],\
        "meetings":[{"id":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z"},\
        {"id":"aaaaaaaa-0000-4000-8000-000000000001","date":"2026-11-20T09:00:00Z"}]}

        """, sourceLocation: sourceLocation)
  }

  /// transcript: the newest meeting by default, labelled by speaker with times; a meeting is
  /// chosen by number or id prefix, and markdown heads it with the sync-up and the date.
  func expectTheTranscriptAsTextAndMarkdown(
    _ home: Home, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let txt = try await home.run("transcript", "daily")
    #expect(txt.status == 0 && txt.stderr.isEmpty, "\(txt)", sourceLocation: sourceLocation)
    #expect(
      txt.stdout == """
        [00:00 - 00:03] Ben: good morning everyone
        [00:03 - 00:07] Cy: yesterday I fixed the build
        [00:08 - 00:10] Ben: great thanks

        """, sourceLocation: sourceLocation)
    #expect(
      try await home.run("transcript", "daily", "--meeting", "1").stdout == txt.stdout,
      sourceLocation: sourceLocation)
    #expect(
      try await home.run("transcript", "daily", "--meeting", "BBBB").stdout == txt.stdout,
      sourceLocation: sourceLocation)

    let md = try await home.run("transcript", "daily", "--meeting", "2", "--format", "md")
    #expect(
      md.stdout == """
        # Daily: 2026-11-20 09:00

        **Ben** (00:01 - 01:02): short meeting today

        """, sourceLocation: sourceLocation)
    #expect(
      try await home.run("transcript", "daily", "--meeting", "aaaaaaaa-0000", "--format", "md")
        .stdout
        == md.stdout, sourceLocation: sourceLocation)
  }

  /// transcript as JSON (exactly these keys), SubRip and WebVTT.
  func expectTheTranscriptAsJSONAndSubtitles(
    _ home: Home, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let json = try await home.run("transcript", "daily", "--format", "json")
    #expect(json.status == 0 && json.stderr.isEmpty, "\(json)", sourceLocation: sourceLocation)
    #expect(
      json.stdout == """
        {"syncUp":"Daily","meeting":"bbbbbbbb-0000-4000-8000-000000000002","date":"2026-11-21T14:05:00Z",\
        "text":"good morning everyone yesterday I fixed the build great thanks","segments":[\
        {"speaker":"Ben","start":0.71,"end":3.2,"text":"good morning everyone"},\
        {"speaker":"Cy","start":3.5,"end":7.25,"text":"yesterday I fixed the build"},\
        {"speaker":"Ben","start":8,"end":10.5,"text":"great thanks"}]}

        """, sourceLocation: sourceLocation)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any],
      sourceLocation: sourceLocation)
    #expect(
      Set(object.keys) == ["syncUp", "meeting", "date", "text", "segments"],
      sourceLocation: sourceLocation)
    let segments = try #require(
      object["segments"] as? [[String: Any]], sourceLocation: sourceLocation)
    #expect(
      segments.allSatisfy { Set($0.keys) == ["speaker", "start", "end", "text"] },
      sourceLocation: sourceLocation)

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


        """, sourceLocation: sourceLocation)
    let vtt = try await home.run("transcript", "daily", "--format", "vtt", "--meeting", "2")
    #expect(
      vtt.stdout == """
        WEBVTT

        00:00:01.000 --> 00:01:02.500
        Ben: short meeting today


        """, sourceLocation: sourceLocation)
  }

  /// delete --yes: nothing is left, and list says how to add one.
  func deleteDaily(
    _ home: Home, short: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let delete = try await home.run("delete", "daily", "--yes")
    #expect(
      delete.status == 0 && delete.stderr.isEmpty, "\(delete)", sourceLocation: sourceLocation)
    #expect(delete.stdout == "Deleted 'Daily' (\(short)).\n", sourceLocation: sourceLocation)
    #expect(try home.load().isEmpty, sourceLocation: sourceLocation)
    let empty = try await home.run("list")
    #expect(
      empty.stdout
        == "No sync-ups yet: add one with 'syncups add --title TITLE --attendee NAME'.\n",
      sourceLocation: sourceLocation)
    #expect(try await home.run("list", "--json").stdout == "[]\n", sourceLocation: sourceLocation)
  }
}
