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
}
