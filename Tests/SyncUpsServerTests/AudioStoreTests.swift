import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import Testing

/// The audio in PostgreSQL, in chunks: what an upload keeps (only bytes that have their hash,
/// nothing of a refused one) and what a read gives (any range, across chunks, to the last byte).
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct AudioStoreTests {
  static let chunk = AudioStore.chunkSize

  @Test("an upload is kept in chunks and read back whole and by any range, across chunks")
  func rangesAcrossChunks() async throws {
    let server = try await TestServer.make()
    let audio = Data.pattern(count: 2 * Self.chunk + 1000)
    let size = audio.count
    try await server.test { http, _ in
      let meeting = try await http.uploadAndPush(audio, server: server)
      #expect(try await server.count("audio_chunk") == 3)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(whole.status == .ok)
      #expect(whole.headers[.contentLength] == String(size))
      #expect(Data(whole.body.readableBytesView) == audio)
      let c = Self.chunk
      for (first, last) in [
        (0, 0), (c - 10, c + 9), (c, 2 * c - 1), (c - 1, c), (100, 2 * c + 500),
        (size - 1, size - 1), (2 * c, size - 1),
      ] {
        let part = try await http.send(
          .get, "/audio/\(meeting.id)", token: server.readerToken,
          headers: [.range: "bytes=\(first)-\(last)"])
        #expect(part.status == .partialContent, "\(first)-\(last)")
        #expect(Data(part.body.readableBytesView) == audio[first...last], "\(first)-\(last)")
        #expect(part.headers[.contentRange] == "bytes \(first)-\(last)/\(size)")
      }
      let lastByte = try await http.send(
        .get, "/audio/\(meeting.id)", token: server.readerToken, headers: [.range: "bytes=-1"])
      #expect(Data(lastByte.body.readableBytesView) == audio.suffix(1))
      let past = try await http.send(
        .get, "/audio/\(meeting.id)", token: server.readerToken,
        headers: [.range: "bytes=\(size)-"])
      #expect(past.status == .rangeNotSatisfiable)
    }
  }

  @Test("a download longer than a piece reads piece by piece: whole and by ranges across pieces")
  func rangesAcrossPieces() async throws {
    // No copies as files: every download reads the database.
    let server = try await TestServer.make(limits: Limits(audioCache: 0))
    let piece = AudioStore.pieceSize
    let audio = Data.pattern(count: 2 * piece + 3 * Self.chunk + 1000)
    let size = audio.count
    try await server.test { http, _ in
      let meeting = try await http.uploadAndPush(audio, server: server)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(whole.status == .ok)
      #expect(Data(whole.body.readableBytesView) == audio)
      for (first, last) in [
        (piece - 1, piece), (piece - 10, 2 * piece + 9), (1, size - 2), (piece, 2 * piece - 1),
        (2 * piece + 1, size - 1), (Self.chunk + 7, piece + Self.chunk - 7),
      ] {
        let part = try await http.send(
          .get, "/audio/\(meeting.id)", token: server.readerToken,
          headers: [.range: "bytes=\(first)-\(last)"])
        #expect(part.status == .partialContent, "\(first)-\(last)")
        #expect(Data(part.body.readableBytesView) == audio[first...last], "\(first)-\(last)")
      }
    }
  }

  @Test("bytes that do not have their hash leave nothing, and the right bytes are kept after")
  func mismatchLeavesNothing() async throws {
    let server = try await TestServer.make()
    let audio = Data.pattern(count: Self.chunk + 5)
    var changed = audio
    changed[Self.chunk + 2] ^= 1
    let wrong = changed
    try await server.test { http, _ in
      // Its first chunk was written before the hash was known: rolled back with the rest.
      let refused = try await http.send(
        .put, "/api/v1/audio/\(audio.sha256Hex)", token: server.writerToken, body: wrong)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.errorMessage?.contains("upload it again under its own hash") == true)
      #expect(try await server.count("audio") == 0)
      #expect(try await server.count("audio_chunk") == 0)
      let meeting = try await http.uploadAndPush(audio, server: server)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(Data(whole.body.readableBytesView) == audio)
    }
  }

  @Test("uploads of one hash at once keep one copy, whole; wrong bytes beside them change nothing")
  func uploadsAtOnce() async throws {
    let server = try await TestServer.make()
    let audio = Data.pattern(count: 3 * Self.chunk)
    var changed = audio
    changed[0] ^= 1
    let wrong = changed
    try await server.test { http, _ in
      let path = "/api/v1/audio/\(audio.sha256Hex)"
      let token = server.writerToken
      async let first = http.send(.put, path, token: token, body: audio)
      async let second = http.send(.put, path, token: token, body: audio)
      async let third = http.send(.put, path, token: token, body: wrong)
      let statuses = try await [first.status, second.status, third.status]
      // One kept them; the other found them kept. The wrong bytes were refused, or, sent once
      // the audio was kept, never read (the audio is here already).
      #expect(statuses.prefix(2).sorted { $0.code < $1.code } == [.ok, .created], "\(statuses)")
      #expect([.unprocessableContent, .ok].contains(statuses[2]), "\(statuses)")
      #expect(try await server.count("audio_chunk") == 3)
      let meeting = try await http.uploadAndPush(audio, server: server)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(Data(whole.body.readableBytesView) == audio)
    }
  }

  @Test("empty audio is kept under its own hash and played as nothing; a range of it is 416")
  func emptyAudio() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let elsewhere = try await http.send(
        .put, "/api/v1/audio/\(Data("x".utf8).sha256Hex)", token: server.writerToken,
        body: Data())
      #expect(elsewhere.status == .unprocessableContent)
      #expect(try await server.count("audio") == 0)
      let meeting = try await http.uploadAndPush(Data(), server: server)
      #expect(try await server.count("audio_chunk") == 0)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(whole.status == .ok && whole.body.readableBytes == 0)
      #expect(whole.headers[.contentLength] == "0")
      let range = try await http.send(
        .get, "/audio/\(meeting.id)", token: server.readerToken, headers: [.range: "bytes=0-"])
      #expect(range.status == .rangeNotSatisfiable)
    }
  }

  @Test("audio past the limit is refused, said first or counted, and leaves nothing")
  func tooLarge() async throws {
    let limit = Self.chunk + 10
    let server = try await TestServer.make(limits: Limits(audio: limit))
    try await server.test { http, _ in
      let over = Data.pattern(count: limit + 1)
      let path = "/api/v1/audio/\(over.sha256Hex)"
      let said = try await http.send(
        .put, path, token: server.writerToken, headers: [.contentLength: String(over.count)],
        body: over)
      #expect(said.status == .contentTooLarge)
      #expect(said.errorMessage?.contains("larger than this server takes") == true)
      // Sent without its length (chunked), it is counted as it arrives.
      let counted = try await server.store { store in
        let pieces = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
          continuation.yield(ByteBuffer(bytes: over.prefix(Self.chunk)))
          continuation.yield(ByteBuffer(bytes: over.dropFirst(Self.chunk)))
          continuation.finish()
        }
        return await #expect(throws: APIError.self) {
          try await AudioStore(client: store.client, logger: store.logger).store(
            pieces, sha256: over.sha256Hex, limit: limit)
        }
      }
      #expect(counted?.status == .contentTooLarge)
      #expect(try await server.count("audio") == 0)
      #expect(try await server.count("audio_chunk") == 0)
      let meeting = try await http.uploadAndPush(Data.pattern(count: limit), server: server)
      let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(whole.body.readableBytes == limit)
    }
  }
}

extension TestClientProtocol {
  /// Uploads `audio` as Ana and pushes a meeting that names it; returns the meeting.
  func uploadAndPush(
    _ audio: Data, server: TestServer, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> MeetingDocument {
    let sha = audio.sha256Hex
    let upload = try await send(
      .put, "/api/v1/audio/\(sha)", token: server.writerToken, body: audio)
    #expect(
      [.created, .ok].contains(upload.status), "\(upload.text)", sourceLocation: sourceLocation)
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(
      in: syncUp.id, said: [("Ana", "the audio is in the database")],
      audio: .init(sha256: sha, size: Int64(audio.count), type: "audio/flac"))
    let pushed = try await push(
      Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
      token: server.writerToken)
    #expect(pushed.status == .ok, "\(pushed.text)", sourceLocation: sourceLocation)
    return meeting
  }
}

extension Data {
  /// `count` bytes that differ from chunk to chunk (a chunk read in the wrong place shows).
  static func pattern(count: Int, seed: UInt32 = 1) -> Data {
    var state = seed
    return Data(
      (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
      })
  }

  /// The SHA-256 of these bytes in lowercase hex.
  var sha256Hex: String {
    SHA256.hash(data: self).map { String(format: "%02x", $0) }.joined()
  }
}
