import AsyncHTTPClient
import Foundation
import Glibc
import NIOCore
import NIOSSL
import SyncUpsServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The breaks of the server's second round that need the built `syncups-server`: TLS below
/// 1.2, backups written over what is not a file, names read as options, and PostgreSQL gone.
@Suite(
  .enabled(
    if: TestPostgres.available
      && FileManager.default.isExecutableFile(atPath: PrivateCluster.bin + "/pg_ctl"),
    "skipped: no PostgreSQL 15 for the server's tests"))
struct RoundTwoProcessTests {
  /// Break 6: a client that offers at most TLS 1.1 gets no connection; 1.2 and 1.3 do.
  @Test func tlsBelowOnePointTwoIsRefused() async throws {
    let server = try await TestServer.make()
    let certificate = try await TestCertificate.make()
    defer { certificate.folder.remove() }
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(
      ServerProcess.start(
        server, ["--tls-cert", certificate.certificate, "--tls-key", certificate.key]))
    func status(from lowest: TLSVersion, to highest: TLSVersion) async throws -> UInt {
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate.certificate))
      tls.minimumTLSVersion = lowest
      tls.maximumTLSVersion = highest
      let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(tlsConfiguration: tls, redirectConfiguration: nil, timeout: .init()))
      defer { _ = client.shutdown() }
      var request = HTTPClientRequest(url: "https://127.0.0.1:\(running.port)/healthz")
      request.method = .GET
      let response = try await client.execute(request, timeout: .seconds(30))
      return response.status.code
    }
    for (lowest, highest) in [(TLSVersion.tlsv1, TLSVersion.tlsv1), (.tlsv1, .tlsv11)] {
      let answered = await outcome { try await status(from: lowest, to: highest) }
      if case .success(let code) = answered {
        Issue.record("TLS up to \(highest) was answered \(code)")
      }
    }
    #expect(try await status(from: .tlsv12, to: .tlsv12) == 200)
    #expect(try await status(from: .tlsv13, to: .tlsv13) == 200)
  }

  /// Break 7: a backup onto a device (or any existing file that is not a regular file) is
  /// refused in one line and the device stays; a name that begins with a dash is a file name.
  @Test func backupsWriteOnlyRegularFilesAndNamesAreNeverOptions() async throws {
    let server = try await TestServer.make()
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    for target in ["/dev/full", "/dev/null", folder.url.path] {
      let refused = try await runServer(["backup", target], database: server.urlText)
      #expect(refused.status != 0, "\(target): \(refused.stdout)")
      #expect(refused.stderr.contains("is not a regular file"), "\(target): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
    var device = stat()
    #expect(stat("/dev/full", &device) == 0 && device.st_mode & S_IFMT == S_IFCHR)
    let link = folder.url.appendingPathComponent("link.backup").path
    #expect(symlink("/dev/null", link) == 0)
    let throughLink = try await runServer(["backup", link], database: server.urlText)
    #expect(throughLink.status != 0 && throughLink.stderr.contains("is not a regular file"))

    // `-dash.backup` in the current folder: written and restored as a file, not as options.
    let program = serverBinary.path
    func inFolder(_ arguments: String, database: String) async throws -> Run {
      try await runProgram(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "cd '\(folder.url.path)' && exec '\(program)' \(arguments)"],
        environment: ["SYNCUPS_DATABASE_URL": database])
    }
    let backup = try await inFolder("backup -- -dash.backup", database: server.urlText)
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.url.path + "/-dash.backup"))
    let restored = try await server.newDatabase()
    let restore = try await inFolder("restore -- -dash.backup", database: restored.urlText)
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(try await restored.tables() == server.tables())
  }

  /// Break 10: PostgreSQL stopped under a serving server: the API answers 503 in JSON and a
  /// page 503 in words, each within 5 s; started again, service is back within 5 s.
  @Test func postgreSQLGoneIsA503WithinFiveSecondsAndServiceComesBack() async throws {
    let cluster = try await PrivateCluster.start()
    let started = Started()
    defer { started.killAll() }
    do {
      let server = try await TestServer.make(on: try cluster.url)
      let running = try await started.add(ServerProcess.start(server))
      let token = server.readerToken
      #expect(try await running.send("GET", "/api/v1/sync-ups", token: token).status == 200)
      try await cluster.crash()
      // Twice: the second while the pool is already failing to connect.
      for _ in 0..<2 {
        let sent = ContinuousClock.now
        let answer = try await running.send("GET", "/api/v1/sync-ups", token: token)
        let took = ContinuousClock.now - sent
        print("PostgreSQL gone: API \(answer.status) in \(took)")
        #expect(answer.status == 503, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("\"error\""))
        #expect(took < .seconds(5))
        let page = try await running.page("/", token: token)
        print("PostgreSQL gone: page \(page.status) in \(ContinuousClock.now - sent - took)")
        #expect(page.status == 503 && page.body.contains("database"), "\(page.body.prefix(300))")
        #expect(ContinuousClock.now - sent - took < .seconds(5))
      }
      try await Task.sleep(for: .seconds(5))
      try await Self.serviceComesBack(running, cluster, token: token)
    } catch {
      print("server's log:", started.logs)
      await cluster.remove()
      throw error
    }
    await cluster.remove()
  }

  /// PostgreSQL gone for 45 s, long enough that the pool's reconnect backoff has grown to
  /// several seconds and, with no connection left, it refuses every borrowing at once: each
  /// request meanwhile is a 503 in words, and service is back within 5 s of PostgreSQL's
  /// return (5.45 s after 48 s down before connections were opened around the pool).
  @Test func afterALongOutageServiceIsBackWithinFiveSeconds() async throws {
    let cluster = try await PrivateCluster.start()
    let started = Started()
    defer { started.killAll() }
    do {
      let server = try await TestServer.make(on: try cluster.url)
      let running = try await started.add(ServerProcess.start(server))
      let token = server.readerToken
      #expect(try await running.send("GET", "/api/v1/sync-ups", token: token).status == 200)
      try await cluster.crash()
      let down = ContinuousClock.now
      while ContinuousClock.now - down < .seconds(45) {
        let sent = ContinuousClock.now
        let answer = try await running.send("GET", "/api/v1/sync-ups", token: token)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 503 && text.contains("database"), "\(answer.status): \(text)")
        #expect(ContinuousClock.now - sent < .seconds(5))
        try await Task.sleep(for: .seconds(3))
      }
      try await Self.serviceComesBack(running, cluster, token: token)
    } catch {
      print("server's log:", started.logs)
      await cluster.remove()
      throw error
    }
    await cluster.remove()
  }

  /// Starts `cluster` again and expects the API to answer 200 within 5 s.
  static func serviceComesBack(
    _ running: ServerProcess, _ cluster: PrivateCluster, token: String
  ) async throws {
    try await cluster.start()
    let back = ContinuousClock.now
    var status = 0
    // The safety net: well above the 5 s asked for, so a slow return is measured, not hung.
    _ = await waitUntil(timeout: .seconds(120), every: .milliseconds(100)) {
      status = (try? await running.send("GET", "/api/v1/sync-ups", token: token).status) ?? 0
      return status == 200
    }
    let recovered = ContinuousClock.now - back
    print("PostgreSQL back: 200 after \(recovered)")
    #expect(status == 200)
    #expect(recovered < .seconds(5))
  }
}

extension ServerProcess {
  /// A page (HTML) with a token: its status and body.
  func page(_ path: String, token: String) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    request.timeoutInterval = 60
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }
}
