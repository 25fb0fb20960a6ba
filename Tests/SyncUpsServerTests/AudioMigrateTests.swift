import Foundation
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import Testing

/// `syncups-server migrate --data DIR`: the audio files a server from before kept on its disk
/// come into the database, each checked against its name, once.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct AudioMigrateTests {
  @Test("migrate --data imports each file whose bytes have its name, once, and names the others")
  func importsTheAudioFolder() async throws {
    let server = try await TestServer.make()
    let data = FileManager.default.temporaryDirectory.appendingPathComponent(
      "syncups-server-data-\(UUID().uuidString)")
    let folder = data.appendingPathComponent("audio")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: data) }
    let kept = Data.pattern(count: 2 * AudioStore.chunkSize + 7, seed: 11)
    let small = Data("a short recording".utf8)
    let damaged = Data.pattern(count: 5000, seed: 12)
    let damagedName = Data("what it was".utf8).sha256Hex
    for (name, bytes) in [
      (kept.sha256Hex, kept), (small.sha256Hex, small), (damagedName, damaged),
      ("notes.txt", small), (".upload-1234", damaged),
    ] {
      try bytes.write(to: folder.appendingPathComponent(name))
    }
    // The old server had recorded the first one (its bytes were on its disk only) and a
    // meeting names it: not playable until the import.
    let meeting = try await server.test { http, store in
      try await store.client.query(
        "INSERT INTO audio (sha256, size) VALUES (\(kept.sha256Hex), \(Int64(kept.count)))")
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(
        in: syncUp.id, said: [("Ana", "recorded before")],
        audio: .init(sha256: kept.sha256Hex, size: Int64(kept.count), type: "audio/flac"))
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      let missing = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(missing.status == .notFound)
      return meeting
    }

    let first = try await runServer(["migrate", "--data", data.path], database: server.urlText)
    #expect(first.status != 0)
    #expect(first.stdout.contains("Imported 2 audio file(s)"), "\(first.stdout)")
    #expect(first.stdout.contains("2 not named by a hash"))
    #expect(first.stdout.contains("1 skipped"))
    let damagedPath = folder.appendingPathComponent(damagedName).path
    #expect(
      first.stderr.contains("\(damagedPath): its bytes have the SHA-256 \(damaged.sha256Hex)"))
    #expect(first.stderr.split(separator: "\n").count == 2, "\(first.stderr)")

    let again = try await runServer(["migrate", "--data", data.path], database: server.urlText)
    #expect(again.stdout.contains("Imported 0 audio file(s)"), "\(again.stdout)")
    #expect(again.stdout.contains("2 already in the database"))
    #expect(again.status != 0 && again.stderr.contains(damagedPath))
    #expect(try await server.count("audio") == 2)
    #expect(try await server.count("audio_chunk") == 4)

    try await server.test { http, _ in
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(whole.status == .ok)
      #expect(Data(whole.body.readableBytesView) == kept)
    }
  }

  @Test("serve --data and migrate --data without an audio folder say what to do")
  func theOldDataOption() async throws {
    let server = try await TestServer.make()
    let serve = try await runServer(
      ["serve", "--port", "0", "--data", "/srv/old"], database: server.urlText)
    #expect(serve.status != 0)
    #expect(serve.stderr.contains("syncups-server migrate --data /srv/old"), "\(serve.stderr)")
    let nowhere = try await runServer(
      ["migrate", "--data", "/nonexistent-\(UUID())"], database: server.urlText)
    #expect(nowhere.status != 0)
    #expect(nowhere.stderr.contains("give the folder that holds audio/"), "\(nowhere.stderr)")
  }
}
