import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import Testing

/// Bad input to the API: a 4xx in words, nothing written.
extension ServerAPITests {
  @Test func badInputIsA4xxInWordsAndWritesNothing() async throws {
    let server = try await TestServer.make(limits: Limits(json: 4096, audio: 2048))
    try await server.test { http, store in
      let token = server.writerToken
      let malformed = try await http.send(
        .post, "/api/v1/sync/push", token: token, body: Data("{\"device\":".utf8))
      #expect(malformed.status == .badRequest)
      #expect(malformed.errorMessage?.contains("not valid JSON") == true)
      let wrongShape = try await http.send(
        .post, "/api/v1/sync/push", token: token, body: Data("{\"device\":1}".utf8))
      #expect(wrongShape.status == .badRequest)
      #expect(wrongShape.errorMessage?.contains("device has the wrong kind of value") == true)

      let syncUp = Fixture.syncUp()
      let big = Fixture.meeting(
        in: syncUp.id,
        said: Array(repeating: ("Ana", String(repeating: "word ", count: 100)), count: 20))
      let oversized = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [big]), token: token)
      #expect(oversized.status == .contentTooLarge)
      #expect(oversized.errorMessage?.contains("larger than this server takes") == true)

      let audio = Data("not the audio you named".utf8)
      let wrongHash = String(repeating: "b", count: 64)
      let mismatch = try await http.send(
        .put, "/api/v1/audio/\(wrongHash)", token: token, body: audio)
      #expect(mismatch.status == .unprocessableContent)
      #expect(mismatch.errorMessage?.contains("upload it again under its own hash") == true)
      let tooBig = try await http.send(
        .put, "/api/v1/audio/\(wrongHash)", token: token, body: Data(count: 4000))
      #expect(tooBig.status == .contentTooLarge)
      #expect(try await server.count("audio") == 0)
      #expect(try await server.count("audio_chunk") == 0)

      let withoutAudio = Fixture.meeting(
        in: syncUp.id, said: [("Ana", "hi")],
        audio: .init(sha256: wrongHash, size: 1, type: "audio/flac"))
      let conflict = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [withoutAudio]),
        token: token)
      #expect(conflict.status == .conflict)
      #expect(conflict.errorMessage?.contains("upload it first") == true)

      for path in [
        "/api/v1/meetings/..%2F..%2Fetc%2Fpasswd", "/api/v1/meetings/../../etc/passwd",
        "/api/v1/sync-ups/..%2Fx/meetings", "/audio/..%2F..%2Fetc%2Fpasswd",
        "/api/v1/audio/..%2F..%2Fetc%2Fpasswd",
      ] {
        let method: HTTPRequest.Method = path.hasPrefix("/api/v1/audio") ? .put : .get
        let response = try await http.send(method, path, token: token, body: Data("x".utf8))
        #expect((400..<500).contains(response.status.code), "\(path): \(response.status)")
        #expect(response.errorMessage != nil, "\(path)")
      }

      try await expectQuerySyntaxIsRefusedAndQuotesAreText(http: http, token: token)
      let badSince = try await http.send(.get, "/api/v1/sync/changes?since=-1", token: token)
      #expect(badSince.status == .badRequest)
      let unknown = try await http.send(.get, "/api/v1/nothing-here", token: token)
      #expect(unknown.status == .notFound)
      #expect(unknown.errorMessage != nil)

      #expect(try await store.currentVersion() == 0)
      // And the server keeps serving.
      #expect(try await http.send(.get, "/api/v1/sync-ups", token: token).status == .ok)
    }
  }

  /// Query syntax in a search (operators, an escaped space, an unclosed quote) is refused in
  /// words; apostrophes and the words of SQL are plain text, found nowhere.
  func expectQuerySyntaxIsRefusedAndQuotesAreText(
    http: any TestClientProtocol, token: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for query in [
      "'); DROP TABLE meeting; --", "a & b | !c", "x:a <-> y", "(a) !b:c", "1=1 --",
      "staging\\ server",
    ] {
      let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let response = try await http.send(.get, "/api/v1/search?q=\(encoded)", token: token)
      #expect(
        response.status == .badRequest, "\(query): \(response.text)", sourceLocation: sourceLocation
      )
      #expect(
        response.errorMessage?.contains("is query syntax") == true, "\(query)",
        sourceLocation: sourceLocation)
    }
    // Apostrophes and the words of SQL are text: searched for, found nowhere.
    for query in ["don't", "DROP TABLE meeting", "it's 'quoted'"] {
      let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let response = try await http.send(.get, "/api/v1/search?q=\(encoded)", token: token)
      #expect(response.status == .ok, "\(query): \(response.text)", sourceLocation: sourceLocation)
      #expect(try response.decode([SearchHit].self).isEmpty, sourceLocation: sourceLocation)
    }
    let unclosed = try await http.send(.get, "/api/v1/search?q=%22staging", token: token)
    #expect(unclosed.status == .badRequest, sourceLocation: sourceLocation)
    #expect(
      unclosed.errorMessage?.contains("a quote is not closed") == true,
      sourceLocation: sourceLocation)
  }
}
