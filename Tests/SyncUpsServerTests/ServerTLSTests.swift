import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import SyncUpsServer
import TestSupport
import Testing

/// What `body` returned or threw.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

/// A self-signed certificate for 127.0.0.1 and localhost, made by `openssl` in a folder of the
/// test's own.
struct TestCertificate {
  let folder: TemporaryDirectory
  var certificate: String { folder.file("cert.pem").path }
  var key: String { folder.file("key.pem").path }

  static func make() async throws -> TestCertificate {
    let folder = try TemporaryDirectory()
    let made = try await runProgram(
      URL(fileURLWithPath: "/usr/bin/openssl"),
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", folder.file("key.pem").path, "-out", folder.file("cert.pem").path,
        "-days", "2", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ])
    try #require(made.status == 0, "openssl failed: \(made.stderr)")
    return TestCertificate(folder: folder)
  }

  /// Another private key, which is not this certificate's.
  func otherKey() async throws -> String {
    let path = folder.file("other-key.pem").path
    let made = try await runProgram(
      URL(fileURLWithPath: "/usr/bin/openssl"),
      ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", path])
    try #require(made.status == 0, "openssl failed: \(made.stderr)")
    return path
  }
}

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ServerTLSTests {
  @Test func theServerAnswersHTTPSWithTheCertificateItIsGiven() async throws {
    let server = try await TestServer.make()
    let certificate = try await TestCertificate.make()
    defer { certificate.folder.remove() }
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(
      ServerProcess.start(
        server, ["--tls-cert", certificate.certificate, "--tls-key", certificate.key]))
    #expect(running.child.stdout.contains("listening on https://127.0.0.1:\(running.port)"))

    // A client that trusts only this certificate.
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate.certificate))
    let client = HTTPClient(
      eventLoopGroupProvider: .singleton,
      configuration: .init(
        tlsConfiguration: tls, redirectConfiguration: nil, timeout: .init(),
        connectionPool: .init(), proxy: nil, ignoreUncleanSSLShutdown: false,
        decompression: .disabled))
    func get(_ scheme: String) async throws -> (UInt, String) {
      var request = HTTPClientRequest(url: "\(scheme)://127.0.0.1:\(running.port)/api/v1/sync-ups")
      request.headers.add(name: "Authorization", value: "Bearer \(server.readerToken)")
      let response = try await client.execute(request, timeout: .seconds(60))
      let body = try await response.body.collect(upTo: 1 << 20)
      return (response.status.code, String(buffer: body))
    }
    let secure = await outcome { try await get("https") }
    // Plain HTTP to the same port is not answered.
    let plain = await outcome { try await get("http") }
    try await client.shutdown()

    let (status, body) = try secure.get()
    #expect(status == 200 && body == "[]")
    #expect(throws: (any Error).self) { try plain.get() }
  }

  @Test func certificatesItCannotServeWithAreOneLineAndExitStatus1() async throws {
    let certificate = try await TestCertificate.make()
    defer { certificate.folder.remove() }
    let notPEM = certificate.folder.file("notes.txt").path
    try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
    let missing = certificate.folder.file("missing.pem").path
    let cases: [([String], String)] = [
      (["--tls-cert", certificate.certificate], "give both --tls-cert and --tls-key"),
      (["--tls-key", certificate.key], "give both --tls-cert and --tls-key"),
      (["--tls-cert", missing, "--tls-key", certificate.key], "\(missing) does not exist"),
      (["--tls-cert", notPEM, "--tls-key", certificate.key], "holds no PEM certificate"),
      (["--tls-cert", certificate.certificate, "--tls-key", notPEM], "holds no PEM private key"),
      (
        ["--tls-cert", certificate.certificate, "--tls-key", try await certificate.otherKey()],
        "is not the private key of the certificate"
      ),
    ]
    for (options, words) in cases {
      // Refused before the database is looked at: none is given.
      let run = try await runServer(["serve", "--port", "0"] + options, database: nil)
      let lines = run.stderr.split(separator: "\n")
      #expect(run.status == 1, "\(options): \(run.stderr)")
      #expect(lines.count == 1 && run.stderr.contains(words), "\(options): \(run.stderr)")
      #expect(!run.stderr.contains("NIOSSL"), "\(options): \(run.stderr)")
    }
  }
}
