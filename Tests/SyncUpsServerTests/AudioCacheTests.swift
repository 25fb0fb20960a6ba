import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

/// Downloads read a recording's copy as a file when this server has one (from an upload, or
/// from a whole download that read the database), and the copies stay under their bound.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct AudioCacheTests {
  @Test("recordings are read from their copies, kept under the bound, the least heard gone first")
  func copiesUnderTheirBound() async throws {
    let spool = try TemporaryDirectory()
    defer { spool.remove() }
    let size = 3 * AudioStore.chunkSize + 11
    let server = try await TestServer.make(
      limits: Limits(uploadSpool: spool.url, audioCache: 2 * size + size / 2))
    let folder = spool.file("syncups-audio-cache-\(geteuid())")
    @Sendable func copies() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
    let audio = (1...3).map { Data.pattern(count: size, seed: UInt32($0)) }
    try await server.test { http, _ in
      var meetings: [MeetingDocument] = []
      for recording in audio {
        meetings.append(try await http.uploadAndPush(recording, server: server))
        // Seconds apart, so that which was heard least lately is plain.
        try await Task.sleep(for: .seconds(1.1))
      }
      // Two copies fit: the first upload's is gone.
      #expect(try copies() == [audio[1].sha256Hex, audio[2].sha256Hex].sorted())
      for (index, (meeting, recording)) in zip(meetings, audio).enumerated() {
        let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
        #expect(whole.status == .ok)
        #expect(Data(whole.body.readableBytesView) == recording)
        let part = try await http.send(
          .get, "/audio/\(meeting.id)", token: server.readerToken,
          headers: [.range: "bytes=100-\(size - 2)"])
        #expect(part.status == .partialContent)
        #expect(Data(part.body.readableBytesView) == recording[100...(size - 2)])
        if index == 0 {
          // The first was read whole from the database and kept; the second, heard least
          // lately, made room for it.
          #expect(try copies() == [audio[0].sha256Hex, audio[2].sha256Hex].sorted())
        }
        try await Task.sleep(for: .seconds(1.1))
      }
      #expect(try copies().count == 2)
      // A copy that is not whole is never read: the database answers.
      let first = folder.appendingPathComponent(audio[0].sha256Hex)
      try Data(audio[0].prefix(10)).write(to: first)
      let again = try await http.send(.get, "/audio/\(meetings[0].id)", token: server.readerToken)
      #expect(Data(again.body.readableBytesView) == audio[0])
    }
  }
}
