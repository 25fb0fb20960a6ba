import Foundation
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

/// Two `syncups-server serve` processes on one database are interchangeable: what one is told,
/// the other answers; audio uploaded through one streams from the other; and when one dies,
/// the other goes on answering.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct TwoServersTests {
  @Test("a push through one server wakes a long-polling pull waiting on the other")
  func aPushWakesAPullOnTheOther() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let one = try await started.add(ServerProcess.start(server))
    let other = try await started.add(ServerProcess.start(server))
    let finished = Flag()
    let pull = Task {
      defer { finished.set() }
      return try await other.send(
        "GET", "/api/v1/sync/changes?since=0&wait=30", token: server.readerToken)
    }
    // Nothing to give: the pull waits (the pause only makes it likely that it waits already).
    try await Task.sleep(for: .milliseconds(500))
    #expect(!finished.isSet, "the pull did not wait")
    let begun = ContinuousClock.now
    let syncUp = Fixture.syncUp()
    let pushed = try await one.send(
      "POST", "/api/v1/sync/push", token: server.writerToken,
      body: WireJSON.encoder().encode(Push(device: UUID(), pushID: UUID(), syncUps: [syncUp])))
    #expect(pushed.status == 200)
    let page = try WireJSON.decoder().decode(ChangesPage.self, from: try await pull.value.body)
    #expect(page.syncUps.map(\.id) == [syncUp.id])
    // Woken by the other server's NOTIFY, not by its 30 s timeout.
    #expect(ContinuousClock.now - begun < .seconds(20))
  }

  @Test("audio uploaded through one server streams, whole and by ranges, from the other")
  func audioFromTheOther() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let audio = Data.pattern(count: 2 * AudioStore.chunkSize + 12_345, seed: 7)
    let sha = audio.sha256Hex
    // An upload cut short by its server's death leaves nothing, and holds nothing up.
    let dying = try await started.add(ServerProcess.start(server))
    let head =
      "PUT /api/v1/audio/\(sha) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      + "Authorization: Bearer \(server.writerToken)\r\nContent-Length: \(audio.count)\r\n\r\n"
    let half = try await RawConnection.open(
      port: dying.port, sending: Data(head.utf8) + audio.prefix(AudioStore.chunkSize + 100))
    // The upload is spooled to a file as it arrives (no transaction is open while it streams).
    #expect(
      await waitUntil {
        let names = try? FileManager.default.contentsOfDirectory(
          atPath: FileManager.default.temporaryDirectory.path)
        return names?.contains { $0.hasPrefix("syncups-upload-") } == true
      })
    await dying.kill()
    half.close()

    let one = try await started.add(ServerProcess.start(server))
    let other = try await started.add(ServerProcess.start(server))
    let upload = try await one.send(
      "PUT", "/api/v1/audio/\(sha)", token: server.writerToken, body: audio)
    #expect(upload.status == 201, "\(String(decoding: upload.body, as: UTF8.self))")
    let meeting = try await push(meetingWith: audio, through: one, server)
    let whole = try await other.send("GET", "/audio/\(meeting.id)", token: server.readerToken)
    #expect(whole.status == 200)
    #expect(whole.body == audio)
    let boundary = AudioStore.chunkSize
    for (first, last) in [(boundary - 3, boundary + 2), (audio.count - 1, audio.count - 1)] {
      let part = try await other.send(
        "GET", "/audio/\(meeting.id)", token: server.readerToken,
        headers: ["Range": "bytes=\(first)-\(last)"])
      #expect(part.status == 206)
      #expect(part.body == audio[first...last])
    }
  }

  @Test("one server killed while clients read and push: the other answers every request")
  func oneKilledUnderLoad() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let killed = try await started.add(ServerProcess.start(server))
    let survivor = try await started.add(ServerProcess.start(server))
    let audio = Data.pattern(count: AudioStore.chunkSize + 99, seed: 3)
    let upload = try await killed.send(
      "PUT", "/api/v1/audio/\(audio.sha256Hex)", token: server.writerToken, body: audio)
    #expect(upload.status == 201)
    let meeting = try await push(meetingWith: audio, through: killed, server)

    // Four clients take the two servers in turn, as a proxy would: two read (the list, a range
    // of the audio), two push a sync-up each time.
    let log = Outcomes()
    // Stopped by a flag, never by cancelling: a URLSession request cancelled while it
    // completes can hang FoundationNetworking on Linux.
    let stop = Flag()
    let load = Task {
      await withTaskGroup(of: Void.self) { group in
        for client in 0..<4 {
          group.addTask {
            var turn = client
            while !stop.isSet {
              turn += 1
              let target = turn % 2 == 0 ? killed : survivor
              let sent = ContinuousClock.now
              do {
                let (status, pushed) = try await request(
                  client < 2 ? .read(meeting.id) : .push, to: target, server)
                log.add(target === survivor, client, sent, status, pushed)
              } catch {
                log.add(target === survivor, client, sent, 0, nil)
              }
            }
          }
        }
      }
    }
    #expect(await waitUntil { log.answered >= 12 })
    await killed.kill()
    let death = ContinuousClock.now
    // Every client has its answers from the survivor to requests sent after the death.
    #expect(await waitUntil { log.everyClient(answeredAfter: death, times: 5) })
    stop.set()
    await load.value

    let toSurvivor = log.all.filter(\.survivor)
    #expect(toSurvivor.count >= 20)
    #expect(
      toSurvivor.allSatisfy { $0.status == 200 || $0.status == 206 }, "\(toSurvivor.map(\.status))")
    // What either server confirmed is there, read through the survivor.
    let page = try WireJSON.decoder().decode(
      ChangesPage.self,
      from: try await survivor.send(
        "GET", "/api/v1/sync/changes?since=0&limit=1000", token: server.readerToken
      ).body)
    let confirmed = Set(log.all.compactMap(\.pushed))
    #expect(confirmed.isSubset(of: Set(page.syncUps.map(\.id))))
    #expect(survivor.child.isRunning)
  }

  enum Kind {
    case read(UUID)
    case push
  }

  /// One client's request: the list then a range of the audio (reader), or a push of a new
  /// sync-up (writer). Its status (the worse of two), and the sync-up a 200 push confirmed.
  private func request(_ kind: Kind, to target: ServerProcess, _ server: TestServer)
    async throws -> (Int, UUID?)
  {
    switch kind {
    case .read(let meeting):
      let list = try await target.send("GET", "/api/v1/sync-ups", token: server.readerToken)
      guard list.status == 200 else { return (list.status, nil) }
      let part = try await target.send(
        "GET", "/audio/\(meeting)", token: server.readerToken,
        headers: ["Range": "bytes=\(AudioStore.chunkSize - 50)-"])
      return (part.status, nil)
    case .push:
      let syncUp = Fixture.syncUp()
      let answer = try await target.send(
        "POST", "/api/v1/sync/push", token: server.writerToken,
        body: WireJSON.encoder().encode(Push(device: UUID(), pushID: UUID(), syncUps: [syncUp])))
      return (answer.status, answer.status == 200 ? syncUp.id : nil)
    }
  }

  private func push(meetingWith audio: Data, through target: ServerProcess, _ server: TestServer)
    async throws -> MeetingDocument
  {
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(
      in: syncUp.id, said: [("Ana", "one of two servers")],
      audio: .init(sha256: audio.sha256Hex, size: Int64(audio.count), type: "audio/flac"))
    let pushed = try await target.send(
      "POST", "/api/v1/sync/push", token: server.writerToken,
      body: WireJSON.encoder().encode(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])))
    #expect(pushed.status == 200, "\(String(decoding: pushed.body, as: UTF8.self))")
    return meeting
  }
}

extension TestServer {
  /// How many of this database's sessions match `condition` (SQL over `pg_stat_activity`).
  func sessions(_ condition: String) async -> Int? {
    try? await store { store in
      var count = 0
      for try await value in try await store.client.query(
        PostgresQuery(
          unsafeSQL:
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(url.database)' AND \(condition)"
        )
      ).decode(Int.self) {
        count = value
      }
      return count
    }
  }
}

/// Set once.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}

/// Each request of the load: to which server, from which client, when, and its answer.
final class Outcomes: @unchecked Sendable {
  struct Outcome {
    var survivor: Bool
    var client: Int
    var sent: ContinuousClock.Instant
    var status: Int
    var pushed: UUID?
  }
  private let lock = NSLock()
  private var outcomes: [Outcome] = []

  var all: [Outcome] { lock.withLock { outcomes } }

  func add(
    _ survivor: Bool, _ client: Int, _ sent: ContinuousClock.Instant, _ status: Int, _ pushed: UUID?
  ) {
    lock.withLock {
      outcomes.append(
        Outcome(survivor: survivor, client: client, sent: sent, status: status, pushed: pushed))
    }
  }

  /// Requests answered (by either server).
  var answered: Int { all.filter { $0.status != 0 }.count }

  /// Every client has `times` answers from the survivor to requests sent after `instant`.
  func everyClient(answeredAfter instant: ContinuousClock.Instant, times: Int) -> Bool {
    let after = all.filter { $0.survivor && $0.sent >= instant }
    return (0..<4).allSatisfy { client in after.filter { $0.client == client }.count >= times }
  }
}
