import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Blockers closed by hand travel with the sync: one closed on the server's blockers page is no
/// longer listed by a laptop's `syncups blockers` after `syncups sync`, and one closed with
/// `syncups blockers close` is closed on the server and on another laptop after theirs. The real
/// `syncups-server` on PostgreSQL and the real `syncups`.
@Suite("Team sync end to end: blockers closed by hand", .serialized)
struct BlockersEndToEndTests {
  static let meeting = "eeeeeeee-0000-0000-0000-000000000001"
  static let terms = "waiting on legal to approve the new terms"
  static let tax = "blocked on the finance team they haven't sent the tax rules"

  /// A sync-up with one meeting yesterday, in which Ivo and Jon each raise a blocker.
  static func export(in folder: URL) throws -> URL {
    func segment(_ speaker: String, _ start: Double, _ text: String) -> [String: Any] {
      ["speaker": speaker, "start": start, "end": start + 4, "text": text, "words": []]
    }
    let date = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
    let syncUp: [String: Any] = [
      "id": "66666666-0000-0000-0000-000000000006", "title": "Billing", "duration": 300,
      "attendees": [
        ["id": "00000000-0000-0000-0000-000000000031", "name": "Ivo"],
        ["id": "00000000-0000-0000-0000-000000000032", "name": "Jon"],
      ],
      "meetings": [
        [
          "id": meeting, "date": date, "transcript": "", "length": 60,
          "segments": [
            segment("Ivo", 2, "i am " + tax), segment("Jon", 9, "i am " + terms),
          ],
        ] as [String: Any]
      ],
    ]
    let url = folder.appendingPathComponent("billing.json")
    try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": [syncUp]])
      .write(to: url)
    return url
  }

  /// The ids `syncups blockers` lists, by the blocker's words.
  static func listed(_ laptop: TeamFixture.Laptop) async throws -> [String: String] {
    let run = try await laptop.expect("blockers", "--since", "3d", "--json")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let open = try #require(object["open"] as? [[String: Any]])
    var ids: [String: String] = [:]
    for entry in open {
      ids[try #require(entry["text"] as? String)] = try #require(entry["id"] as? String)
    }
    return ids
  }

  /// Closes a blocker on the server's blockers page, as its form does.
  static func closeOnTheWeb(_ team: TeamFixture, segment: Int, text: String) async throws -> Int {
    // The server's key of a blocker: the first 16 hex digits of its phrase's SHA-256.
    let key = try await TeamFixture.tool(
      "/bin/sh", ["-c", "printf %s \"$1\" | sha256sum", "sh", text]
    ).prefix(16)
    var request = URLRequest(url: URL(string: team.url + "/blockers/close")!)
    request.httpMethod = "POST"
    request.setValue("Bearer \(team.writerToken)", forHTTPHeaderField: "Authorization")
    request.setValue(team.url, forHTTPHeaderField: "Origin")
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data("meeting=\(meeting)&segment=\(segment)&key=\(key)&since=7d".utf8)
    let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    let (_, response) = try await session.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }

  @Test(
    "closed on the web, a laptop no longer lists it after sync; closed on a laptop, the server and another laptop close it"
  )
  func closingsTravelBothWays() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("import", try Self.export(in: a.root).path)
    try await a.expect("sync")
    #expect(try await Self.listed(a).keys.sorted() == [Self.tax, Self.terms])

    // Closed on the web: after its sync, laptop A lists it no more.
    #expect(try await Self.closeOnTheWeb(team, segment: 2, text: Self.terms) == 303)
    let pulled = try await a.expect("sync")
    #expect(pulled.stdout.contains("pulled 1 closed blocker"), "\(pulled)")
    #expect(try await Self.listed(a).keys.sorted() == [Self.tax])
    let all = try await a.expect("blockers", "--since", "3d", "--all")
    #expect(all.stdout.contains("    closed ") && all.stdout.contains(" by ana\n"), "\(all)")
    // Nothing goes back, and closing it again changes nothing anywhere.
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")
    #expect(try await Self.closeOnTheWeb(team, segment: 2, text: Self.terms) == 303)
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")

    // Closed on the laptop: the server has it after the sync, and so has laptop B.
    let id = try #require(try await Self.listed(a)[Self.tax])
    let closed = try await a.expect("blockers", "close", id)
    #expect(closed.stdout.hasPrefix("Closed blocker \(id): Ivo: \(Self.tax)\n"), "\(closed)")
    #expect(try await a.expect("blockers", "close", id).stdout.contains("closed already"))
    let pushed = try await a.expect("sync")
    #expect(pushed.stdout.contains("pushed 1 closed blocker"), "\(pushed)")
    #expect(try await team.psql("SELECT count(*) FROM blocker_closed") == "2")
    #expect(
      try await team.psql(
        "SELECT p.name FROM blocker_closed c JOIN person p ON p.id = c.closed_by "
          + "WHERE c.segment = 1") == "ana")
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")
    #expect(try await Self.listed(a).isEmpty)

    let b = try team.laptop()
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    let joined = try await b.expect("sync")
    #expect(joined.stdout.contains("pulled 2 closed blockers"), "\(joined)")
    #expect(try await Self.listed(b).isEmpty)
    #expect(b.value("SELECT count(*) FROM blockerClosed WHERE NOT pushed") == 0)

    // An unknown id: one line, a non-zero exit, nothing closed.
    let unknown = try await b.run("blockers", "close", "eeeeeeee-7-abcd")
    #expect(unknown.status != 0 && unknown.stdout.isEmpty, "\(unknown)")
    #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown)")
    #expect(unknown.stderr.contains("there is no blocker eeeeeeee-7-abcd"), "\(unknown)")

    // The sync-up deleted on A: its meeting's closings go with it on B too.
    try await a.expect("delete", "Billing", "--yes")
    try await a.expect("sync")
    try await b.expect("sync")
    #expect(b.value("SELECT count(*) FROM meeting") == 0)
    #expect(b.value("SELECT count(*) FROM blockerClosed") == 0)
  }
}

extension BlockersEndToEndTests {
  /// Two laptops close the same blocker while offline: the server keeps the first closing, and
  /// the second laptop, after its sync, says who closed it there rather than "here".
  @Test func aBlockerClosedOnTwoLaptopsOfflineIsTheServersFirstClosingOnBoth() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let b = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("import", try Self.export(in: a.root).path)
    try await a.expect("sync")
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    try await b.expect("sync")
    let id = try #require(try await Self.listed(a)[Self.tax])
    #expect(try await Self.listed(b)[Self.tax] == id)

    try await a.expect("blockers", "close", id)
    try await b.expect("blockers", "close", id)
    #expect(try await a.expect("sync").stdout.contains("pushed 1 closed blocker"))
    let second = try await b.expect("sync")
    #expect(try await team.psql("SELECT count(*) FROM blocker_closed") == "1")
    #expect(b.value("SELECT count(*) FROM blockerClosed WHERE NOT pushed") == 0, "\(second)")
    let listed = try await b.expect("blockers", "--since", "3d", "--all")
    #expect(listed.stdout.contains(" by ana\n"), "\(second)\n\(listed)")
    #expect(try await b.expect("sync").stdout == "up to date: nothing to push or pull\n")
  }
}

/// The answer to a form is a 303 to the blockers page: seen as it is, not followed.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
