import Foundation
import SyncClient
import SyncUpsTestSupport
import SyncUpsWire
import TestSupport
import Testing

@testable import TeamSync

/// The pull against a server that misbehaves, with the injected client (`FakeTeamServer`).
@Suite("Team sync: the pull against a server that never moves on")
struct EndlessPullTests {
  @Test func aPageThatSaysMoreWithoutGoingPastTheCursorEndsThePull() async throws {
    let server = FakeTeamServer()
    await server.setEndless(true)
    let laptop = try Laptop()
    await #expect(throws: SyncFailure.noProgress(since: 0)) { try await laptop.sync(server) }
    #expect(await server.calls == ["changes 0"])
  }

  /// A page too large for the client to read is asked for again with fewer documents.
  @Test func aPageTooLargeToReadIsAskedForAgainWithFewerDocuments() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    for title in ["One", "Two", "Three"] { try a.database.add(standup(title)) }
    _ = try await a.sync(server)
    await server.setLargestPage(1)
    let b = try Laptop()
    let report = try await b.sync(server)
    #expect(report.pulledSyncUps == 3)
    #expect(try b.syncUps().map(\.title).sorted() == ["One", "Three", "Two"])
    #expect(await server.pageLimits.suffix(5) == [100, 10, 1, 1, 1])
  }
}

/// Which addresses would carry the token across a network unencrypted.
@Suite("Team sync: plain http:// only to this computer")
struct PlainHTTPTests {
  @Test(arguments: [
    ("http://127.0.0.1:8080", false), ("http://127.3.4.5", false), ("http://localhost:1", false),
    ("http://LOCALHOST", false), ("http://[::1]:8080", false), ("https://team.example", false),
    ("https://192.0.2.7", false), ("http://team.example", true), ("http://192.0.2.7:8080", true),
    ("http://127.1", true), ("http://127.0.0.1.example", true), ("http://[::ffff:127.0.0.1]", true),
    ("http://localhost.example", true),
  ])
  func onlyLoopbackMayBePlainHTTP(_ address: String, _ inClear: Bool) {
    #expect(Team.sendsTokenInClear(to: URL(string: address)!) == inClear, "\(address)")
  }
}

/// `syncups` itself against a real socket (`HTTPTeamServer`): redirects, plain http:// to
/// another computer, pages that never end, answers and audio larger than any should be, and
/// the server's words with escape sequences in them.
@Suite("Team sync: a hostile server or network")
struct HostileTransportTests {
  typealias Home = TeamCommandTests.Home

  /// A server that answers `/me` as ana, an empty change feed, and `route` first.
  static func team(
    _ route: @escaping @Sendable (HTTPTeamServer.Request) -> HTTPTeamServer.Answer? = { _ in nil }
  ) -> @Sendable (HTTPTeamServer.Request) -> HTTPTeamServer.Answer {
    { request in
      if let answer = route(request) { return answer }
      switch request.path {
      case "/api/v1/me": return .json(TeamMember(name: "ana", role: "writer"))
      case "/api/v1/sync/changes":
        return .json(ChangesPage(version: 0, more: false, syncUps: [], meetings: []))
      default: return .error(404, "no route \(request.path)")
      }
    }
  }

  /// A push redirected to another host and port: the laptop goes nowhere else, sends its
  /// token nowhere else, takes nothing as a receipt, and the change still waits.
  @Test(arguments: [302, 307])
  func aRedirectIsNeverFollowedAndAcknowledgesNothing(_ status: Int) async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let elsewhere = try HTTPTeamServer { _ in
      .json(PushReceipt(pushID: UUID(), version: 1, syncUps: 1, meetings: 0))
    }
    defer { elsewhere.close() }
    let target = "\(elsewhere.url)/api/v1/sync/push"
    let server = try HTTPTeamServer(
      respond: Self.team { request in
        request.path == "/api/v1/sync/push"
          ? HTTPTeamServer.Answer(status: status, headers: ["Location": target]) : nil
      })
    defer { server.close() }
    #expect(try await home.run("team", "join", server.url, "--token", "secret-1").status == 0)
    #expect(try await home.run("add", "--title", "Daily", "--attendee", "Ana").status == 0)
    let sync = try await home.run("sync")
    #expect(sync.status != 0, "\(sync)")
    #expect(sync.stderrLines.count == 1, "\(sync)")
    #expect(sync.stderr.contains("answered \(status), a redirect to \(target)"), "\(sync)")
    #expect(sync.stderr.contains("never followed"), "\(sync)")
    #expect(sync.stderr.contains("nothing was lost: 1 change waits"), "\(sync)")
    #expect(elsewhere.requests.isEmpty, "the laptop followed the redirect")
    let team = try await home.run("team", "status")
    #expect(team.stdout.contains("changes waiting: 1"), "\(team)")
    #expect(team.stdout.contains("last sync failed: the team server answered \(status)"))
  }

  /// `team join http://` to another computer sends nothing and keeps nothing: the token
  /// would cross the network in clear.
  @Test func joiningPlainHTTPToAnotherComputerIsRefused() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let host = networkAddress() ?? "192.0.2.1"
    let server = try? HTTPTeamServer(host: host, respond: Self.team())
    defer { server?.close() }
    let url = server?.url ?? "http://\(host):9"
    let join = try await home.run("team", "join", url, "--token", "secret-1")
    #expect(join.status != 0, "\(join)")
    #expect(join.stderrLines.count == 1, "\(join)")
    #expect(join.stderr.contains("the token would cross the network in clear"), "\(join)")
    #expect(join.stderr.contains("https://"), "\(join)")
    #expect(server?.requests.isEmpty ?? true, "the token was sent")
    #expect(!FileManager.default.fileExists(atPath: home.teamFile.path))
  }

  /// `--allow-http` is kept in the team file, and later syncs honour it; a team file without
  /// it (an earlier version's) sends nothing over plain http:// to another computer.
  @Test(.enabled(if: networkAddress() != nil, "this computer has no network address"))
  func allowHTTPIsKeptForLaterSyncs() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let server = try HTTPTeamServer(host: networkAddress()!, respond: Self.team())
    defer { server.close() }
    let join = try await home.run("team", "join", server.url, "--token", "t", "--allow-http")
    #expect(join.status == 0, "\(join)")
    #expect(try TeamFile(url: home.teamFile).read()?.allowHTTP == true)
    let sync = try await home.run("sync")
    #expect(sync.stdout == "up to date: nothing to push or pull\n", "\(sync)")
    let asked = server.requests.count
    try home.joined(server.url)
    let refused = try await home.run("sync")
    #expect(refused.status != 0, "\(refused)")
    #expect(refused.stderr.contains("would cross the network in clear"), "\(refused)")
    #expect(server.requests.count == asked, "the token was sent")
  }

  /// Pages that say there is more without going past the cursor: one line and a non-zero
  /// exit, kept for `team status`. (After 50 such pages it says there is no more, so a laptop
  /// that loops ends too, and the test fails instead of hanging.)
  @Test func aServerThatNeverMovesPastTheCursorEndsTheSync() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let asked = Counter()
    let server = try HTTPTeamServer(
      respond: Self.team { request in
        guard request.path == "/api/v1/sync/changes" else { return nil }
        let more = asked.next() < 50
        return .json(ChangesPage(version: 0, more: more, syncUps: [], meetings: []))
      })
    defer { server.close() }
    let pages = { server.requests.filter { $0.path == "/api/v1/sync/changes" }.count }
    #expect(try await home.run("team", "join", server.url, "--token", "t").status == 0)
    let sync = try await home.run("sync")
    #expect(sync.status != 0, "\(sync)")
    #expect(sync.stderrLines.count == 1, "\(sync)")
    #expect(sync.stderr.contains("there is more after version 0 without going past it"))
    #expect(pages() == 1, "\(pages()) requests for the same page")
    let status = try await home.run("team", "status")
    #expect(status.stdout.contains("last sync failed: the team server keeps saying"), "\(status)")
  }

  /// Names, roles and messages from the server with terminal escape sequences: shown, never
  /// obeyed, in `team join`, `team status`, `sync` and their errors.
  @Test func theServersWordsAreShownWithTheirControlCharactersVisible() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let escape = "\u{1B}]0;owned\u{07}\u{1B}[2J"
    let failing = OneShot<Void>()
    let server = try HTTPTeamServer(
      respond: Self.team { request in
        switch request.path {
        case "/api/v1/me": return .json(TeamMember(name: "ana" + escape, role: "writer" + escape))
        case "/api/v1/sync/push": return .error(403, "readers cannot push" + escape)
        case "/api/v1/sync/changes" where failing.happened != nil:
          return .error(500, "broken" + escape)
        default: return nil
        }
      })
    defer { server.close() }
    let join = try await home.run("team", "join", server.url, "--token", "t")
    #expect(join.status == 0, "\(join)")
    #expect(try await home.run("add", "--title", "Daily", "--attendee", "Ana").status == 0)
    let pushed = try await home.run("sync")
    #expect(pushed.stdout.contains("readers cannot push␛]0;owned␇␛[2J"), "\(pushed)")
    failing.happen(())
    let failed = try await home.run("sync")
    #expect(failed.stderr.contains("broken␛]0;owned␇␛[2J"), "\(failed)")
    let status = try await home.run("team", "status")
    #expect(status.stdout.contains("person: ana␛]0;owned␇␛[2J (writer␛]0;owned␇␛[2J)"))
    #expect(status.stdout.contains("last sync failed:"), "\(status)")
    for run in [join, pushed, failed, status] {
      #expect(!(run.stdout + run.stderr).contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(run)")
    }
  }

  /// A JSON answer past the client's bound (64 MiB), with or without its length said first:
  /// refused in words, never held whole: the laptop's peak RSS is the program and at most the
  /// bound, far below the answer (read whole, and copied at its end, it would be 400 MB more).
  @Test(.enabled(if: canMeasure), arguments: [true, false])
  func anAnswerLargerThanItsBoundIsRefusedInWords(_ sendsLength: Bool) async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let size: Int64 = 200 << 20
    let server = try HTTPTeamServer(
      respond: Self.team { request in
        guard request.path == "/api/v1/sync/changes" else { return nil }
        return HTTPTeamServer.Answer(
          status: 200, headers: ["Content-Type": "application/json"], body: .zeros(size),
          sendsLength: sendsLength)
      })
    defer { server.close() }
    #expect(try await home.run("team", "join", server.url, "--token", "t").status == 0)
    let (sync, peak) = try await Self.measured(["sync"], home)
    #expect(sync.status != 0, "\(sync)")
    #expect(sync.stderrLines.count == 1, "\(sync)")
    #expect(sync.stderr.contains("sent an answer larger than 64 MiB"), "\(sync)")
    // Each smaller page asked for is refused the same way.
    #expect(server.requests.filter { $0.path == "/api/v1/sync/changes" }.count == 3)
    #expect(peak < 160_000, "syncups sync peaked at \(peak) KB")
  }

  static let canMeasure = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

  /// Runs `syncups ARGUMENTS` under `/usr/bin/time`: what it printed (without time's lines),
  /// and its peak RSS in KB.
  static func measured(_ arguments: [String], _ home: Home) async throws -> (SyncupsRun, Int) {
    var run = try await runSyncups(
      arguments, environment: home.environment, launcher: ["/usr/bin/time", "-f", "peak %M KB"])
    let lines = run.stderrLines
    let peak = lines.last { $0.hasPrefix("peak ") }?.split(separator: " ").dropFirst().first
    run.stderr = lines.filter { !$0.hasPrefix("peak ") && !$0.hasPrefix("Command exited with") }
      .map { $0 + "\n" }.joined()
    return (run, peak.flatMap { Int($0) } ?? .max)
  }

  /// A 300 MB audio file goes to disk as it comes: `syncups sync` stays far below its size in
  /// memory (read whole, and copied at its end, it peaked at 666 MB).
  @Test(.enabled(if: canMeasure))
  func aLargeAudioDownloadNeverSitsInMemory() async throws {
    var home = try Home()
    home.timeout = 20
    defer { home.folder.remove() }
    let size: Int64 = 300_000_000
    let zeros = try await ChildProcess(
      tool: "sh", ["-c", "head -c \(size) /dev/zero | sha256sum"]
    ).finished()
    let sha256 = String(zeros.stdout.prefix(64))
    let (syncUp, meeting) = Self.documents(
      audio: .init(sha256: sha256, size: size, type: "audio/flac"))
    let server = try HTTPTeamServer(
      respond: Self.team { request in
        switch request.path {
        case "/api/v1/sync/changes" where request.target.contains("since=0&"):
          return .json(
            ChangesPage(version: 2, more: false, syncUps: [syncUp], meetings: [meeting]))
        case "/api/v1/sync/changes":
          return .json(ChangesPage(version: 2, more: false, syncUps: [], meetings: []))
        case "/audio/\(meeting.id.uuidString.lowercased())":
          return HTTPTeamServer.Answer(
            status: 200, headers: ["Content-Type": "audio/flac"], body: .zeros(size))
        default: return nil
        }
      })
    defer { server.close() }
    #expect(try await home.run("team", "join", server.url, "--token", "t").status == 0)
    let (sync, peak) = try await Self.measured(["sync"], home)
    #expect(sync.stdout == "pulled 1 sync-up and 1 meeting (1 audio file)\n", "\(sync)")
    let audio = home.data.appendingPathComponent(
      "audio/\(meeting.id.uuidString.lowercased()).flac")
    let kept = try FileManager.default.attributesOfItem(atPath: audio.path)[.size] as? NSNumber
    #expect(kept?.int64Value == size)
    #expect(peak < 100_000, "syncups sync peaked at \(peak) KB for \(size / 1_000_000) MB")
  }

  /// A sync-up and one of its meetings, as a laptop pushed them a minute ago.
  static func documents(audio: MeetingDocument.Audio?) -> (SyncUpDocument, MeetingDocument) {
    let now = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
    let clock = HybridClock(milliseconds: now, device: UUID().uuidString.lowercased())
    let syncUp = SyncUpDocument(
      id: UUID(), title: Stamped("Daily", at: clock), theme: Stamped("seafoam", at: clock),
      duration: Stamped(300, at: clock),
      attendees: Stamped([.init(id: UUID(), name: "Ana")], at: clock),
      vocabulary: Stamped([], at: clock), deleted: Stamped(false, at: clock))
    let words = [MeetingDocument.Word(text: "hello", start: 0, end: 0.5, confidence: 0.9)]
    let meeting = MeetingDocument(
      id: UUID(), syncUpID: syncUp.id, date: Date(timeIntervalSince1970: 1_795_000_000),
      length: 60,
      segments: [.init(speaker: "Ana", start: 0, end: 0.5, text: "hello", words: words)],
      audio: audio, clock: clock)
    return (syncUp, meeting)
  }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// The count before this call.
  func next() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }
}
