import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

/// How commands find a sync-up by `REF`, and how they print counts, short durations and text
/// holding control characters.
@Suite("syncups: references, counts and safe text")
struct ReferenceAndTextTests {
  static func syncUp(
    _ id: String, _ title: String, attendees: [String] = ["Ana"], seconds: Int = 300,
    meetings: [Meeting] = []
  ) -> SyncUp {
    SyncUp(
      id: SyncUp.ID(UUID(uuidString: id)!),
      attendees: IdentifiedArray(
        uniqueElements: attendees.map { Attendee(id: Attendee.ID(UUID()), name: $0) }),
      duration: .seconds(seconds),
      meetings: IdentifiedArray(uniqueElements: meetings),
      title: title
    )
  }

  static let morning = syncUp("12345678-0000-4000-8000-000000000000", "Morning Sync")
  static let design = syncUp("abcdef00-0000-4000-8000-000000000000", "Design Review")

  @Test(arguments: [["show"], ["meetings"], ["show", "--json"], ["edit", "--theme", "navy"]])
  func theStartOfATitleInAnyCaseFindsIt(_ command: [String]) async throws {
    let home = try Home()
    try home.update { $0 = [Self.morning, Self.design] }
    let references = [
      "morning": "Morning Sync", "MORN": "Morning Sync", "design r": "Design Review",
      "  Design  ": "Design Review",
    ]
    for (reference, title) in references {
      let run = try await home.run([command[0], reference] + command.dropFirst())
      #expect(run.status == 0 && run.stderr.isEmpty, "\(reference): \(run)")
      #expect(run.stdout.contains(title), "\(reference): \(run)")
    }
  }

  @Test func aCompleteIDAlwaysWins() async throws {
    let home = try Home()
    let id = Self.morning.id.rawValue.uuidString.lowercased()
    // Another sync-up is titled with that id, and a third one's title starts with it.
    let impostor = Self.syncUp("99999999-0000-4000-8000-000000000000", id)
    let longer = Self.syncUp("88888888-0000-4000-8000-000000000000", id + " and more")
    try home.update { $0 = [impostor, longer, Self.morning] }
    let show = try await home.run("show", id.uppercased())
    #expect(show.stdout.hasPrefix("Title:        Morning Sync\n"), "\(show)")
    let deleted = try await home.run("delete", id, "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(try home.load().map(\.id) == [impostor.id, longer.id])
  }

  @Test func aWholeTitleWinsOverLongerTitlesStartingWithIt() async throws {
    let home = try Home()
    let design = Self.syncUp("00000001-0000-4000-8000-000000000000", "Design")
    try home.update { $0 = [Self.design, design] }
    let run = try await home.run("show", "design")
    #expect(run.stdout.hasPrefix("Title:        Design\nID:           00000001-"), "\(run)")
  }

  @Test func moreThanOneMatchIsAnErrorThatListsThem() async throws {
    let home = try Home()
    let planning = Self.syncUp("12399999-0000-4000-8000-000000000000", "Morning Planning")
    try home.update { $0 = [Self.morning, planning, Self.design] }
    expectOneLineFailure(
      try await home.run("show", "morning"),
      containing: [
        "'morning' matches 2 sync-ups: 'Morning Sync' (12345678), 'Morning Planning' (12399999)"
      ])
    // An id prefix and a title start together are ambiguous too.
    let hexTitle = Self.syncUp("00000002-0000-4000-8000-000000000000", "123 Retro")
    try home.update { $0.append(hexTitle) }
    expectOneLineFailure(
      try await home.run("delete", "123", "--yes"),
      containing: [
        "'123' matches 3 sync-ups"
      ])
    #expect(try home.load().count == 4)
  }

  @Test func countsAreSingularForOne() async throws {
    let home = try Home()
    let solo = Self.syncUp("12345678-0000-4000-8000-000000000000", "Solo", seconds: 20)
    try home.update { $0 = [solo] }
    let hello = samples.appendingPathComponent("hello.wav").path
    let run = try await home.run("record", "solo", "--input", hello, "--fast", "--no-audio")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("Recording 'Solo' (12345678): 1 attendee, 00:20;"), "\(run)")
    let saved = try #require(try home.load().first?.meetings.first)
    #expect(saved.segments.count == 1, "\(run)")
    #expect(run.stdout.contains("(1 utterance) in"), "\(run)")
  }

  @Test func aShareOfUnderASecondIsShownNotZero() async throws {
    let home = try Home()
    let short = Self.syncUp(
      "12345678-0000-4000-8000-000000000000", "Quick", attendees: ["Ana", "Ben", "Cy"], seconds: 1
    )
    let seven = Self.syncUp(
      "22345678-0000-4000-8000-000000000000", "Seven", attendees: (1...7).map { "P\($0)" },
      seconds: 300
    )
    try home.update { $0 = [short, seven] }
    #expect(try await home.run("show", "quick").stdout.contains("\nPer attendee: 0.3s\n"))
    #expect(try await home.run("show", "seven").stdout.contains("\nPer attendee: 42.9s\n"))
  }

  /// A title, names and words holding escape sequences and other control characters (written
  /// by an older version or by hand): no output obeys them, every output shows them.
  @Test func controlCharactersAreShownNeverObeyed() async throws {
    let home = try Home()
    let title = "\u{1B}[2J\u{1B}[31mRed\u{07} Sync"
    let name = "Bob\u{1B}]0;owned\u{07}\u{9B}1m"
    let meeting = Meeting(
      id: Meeting.ID(UUID(uuidString: "bbbbbbbb-0000-4000-8000-000000000002")!),
      date: Date(timeIntervalSince1970: 1_800_000_000),
      transcript: "hello\u{1B}[5m there",
      segments: [.init(speaker: name, start: 1, end: 2, text: "hello\u{1B}[5m there")]
    )
    let evil = Self.syncUp(
      "12345678-0000-4000-8000-000000000000", title, attendees: ["Ana", name], meetings: [meeting])
    try home.update { $0 = [evil] }

    let commands: [[String]] = [
      ["list"], ["show", "12345678"], ["meetings", "12345678"],
      ["transcript", "12345678"], ["transcript", "12345678", "--format", "md"],
      ["transcript", "12345678", "--format", "srt"], ["transcript", "12345678", "--format", "vtt"],
      ["list", "--json"], ["show", "12345678", "--json"], ["meetings", "12345678", "--json"],
      ["transcript", "12345678", "--format", "json"],
      ["show", "nope\u{1B}[31m"], ["show", "red"], ["delete", "12345678"],
    ]
    for command in commands {
      let run = try await home.run(command)
      let printed = run.stdout + run.stderr
      let raw = printed.unicodeScalars.filter { $0 != "\n" && Visible.isControl($0) }
      #expect(raw.isEmpty, "\(command): \(run)")
      if !command.contains("--json"), !command.contains("json") {
        #expect(printed.contains("␛"), "\(command): \(run)")
      }
    }
    #expect(
      try await home.run("show", "12345678").stdout.contains("Title:        ␛[2J␛[31mRed␇ Sync\n"))
    #expect(
      try await home.run("transcript", "12345678").stdout.contains(
        "] Bob␛]0;owned␇�1m: hello␛[5m there"))
    // JSON keeps the data exactly (escaped).
    let json = try await home.run("show", "12345678", "--json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["title"] as? String == title)
    #expect(object["attendees"] as? [String] == ["Ana", name])
  }
}
