import Crypto
import Foundation
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

/// `syncups-server backup` while the server serves, `restore` into a new database: every table
/// the same row for row, and a token made before the backup works on the restored database.
@Suite(
  .enabled(
    if: TestPostgres.available
      && FileManager.default.isExecutableFile(atPath: PrivateCluster.bin + "/pg_dump"),
    "skipped: no PostgreSQL 15 (with pg_dump) for the server's tests"))
struct BackupTests {
  @Test("a backup taken while serving restores into a new database equal table by table")
  func backupAndRestoreRoundTrip() async throws {
    let server = try await TestServer.make()
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("team.backup").path
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(ServerProcess.start(server))
    let meeting = try await pushAMeetingWithAudio(running, token: server.writerToken)
    // A person added while the server serves.
    #expect(
      try await runServer(["user", "add", "Cleo", "--role", "reader"], database: server.urlText)
        .status == 0)

    let backup = try await runServer(["backup", file], database: server.urlText)
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(backup.stdout.contains("Wrote \(file)"))
    #expect(!FileManager.default.fileExists(atPath: file + ".partial"))

    let restored = try await server.newDatabase()
    let restore = try await runServer(["restore", file], database: restored.urlText)
    #expect(restore.status == 0, "\(restore.stderr)")
    let tables = try await server.tables()
    #expect(tables.contains("token") && tables.contains("meeting") && tables.contains("audio"))
    #expect(try await restored.tables() == tables)
    for table in tables {
      let rows = try await server.rows(of: table)
      #expect(try await restored.rows(of: table) == rows, "table \(table) differs")
    }

    // The token made before the backup opens the restored team's meeting.
    let second = try await started.add(ServerProcess.start(restored))
    let me = try await second.send("GET", "/api/v1/me", token: server.writerToken)
    #expect(me.status == 200)
    let read = try await second.send(
      "GET", "/api/v1/meetings/\(meeting)", token: server.readerToken)
    #expect(read.status == 200, "\(String(decoding: read.body, as: UTF8.self))")

    // Restoring again over a team's tables is refused in one line.
    let again = try await runServer(["restore", file], database: restored.urlText)
    #expect(again.status != 0 && again.stderr.contains("already has SyncUps tables"))
    #expect(again.stderr.split(separator: "\n").count == 1, "\(again.stderr)")
  }

  @Test("backup and restore say in one line what is wrong")
  func mistakesAreOneLine() async throws {
    let server = try await TestServer.make()
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let notADump = folder.url.appendingPathComponent("notes.txt").path
    try Data("meeting notes\n".utf8).write(to: URL(fileURLWithPath: notADump))
    let unreachable = "postgres://syncups@localhost/gone?host=\(folder.url.path)/no-socket"
    let cases: [([String], String?, String)] = [
      (["backup", "/nonexistent-folder/team.backup"], server.urlText, "cannot write"),
      (["restore", notADump], server.urlText, "is not a backup made by syncups-server backup"),
      (["restore", folder.url.path + "/none.backup"], server.urlText, "cannot read"),
      (["backup", folder.url.path + "/x.backup"], unreachable, "cannot reach the database gone"),
      (
        ["backup", folder.url.path + "/y.backup", "--pg-bin", folder.url.path], server.urlText,
        "pg_dump for PostgreSQL 15 is missing"
      ),
    ]
    for (arguments, database, message) in cases {
      let run = try await runServer(arguments, database: database)
      #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/x.backup"))
  }

  /// A sync-up and a meeting with 64 KB of audio, through the API; the meeting's id.
  private func pushAMeetingWithAudio(_ running: ServerProcess, token: String) async throws -> UUID {
    let audio = Data((0..<65536).map { UInt8(($0 * 7) % 251) })
    let sha = SHA256.hash(data: audio).map { String(format: "%02x", $0) }.joined()
    let upload = try await running.send("PUT", "/api/v1/audio/\(sha)", token: token, body: audio)
    #expect(upload.status == 201)
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(
      in: syncUp.id, said: [("Ana", "the backup ran at night"), ("Ben", "and it restored")],
      audio: .init(sha256: sha, size: Int64(audio.count), type: "audio/flac"))
    let push = try WireJSON.encoder().encode(
      Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]))
    let pushed = try await running.send("POST", "/api/v1/sync/push", token: token, body: push)
    #expect(pushed.status == 200)
    return meeting.id
  }
}

extension TestServer {
  /// An empty database beside this one (no schema), with the same audio folder.
  func newDatabase() async throws -> TestServer {
    let name = TestDatabase.name()
    try await store { store in
      try await store.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
    }
    return TestServer(
      url: url.with(database: String(name)), writerToken: writerToken,
      readerToken: readerToken, limits: limits)
  }

  /// Every table of the public schema, by name.
  func tables() async throws -> [String] {
    try await store { store in
      try await store.client.query(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
      ).collect().map { try $0.decode(String.self) }
    }
  }

  /// Every row of `table` as PostgreSQL writes it out, in order.
  func rows(of table: String) async throws -> [String] {
    try await store { store in
      try await store.client.query(
        PostgresQuery(unsafeSQL: "SELECT t::text FROM public.\"\(table)\" AS t ORDER BY 1")
      ).collect().map { try $0.decode(String.self) }
    }
  }
}
