import Foundation
import Hummingbird
import NIOCore
import SyncUpsWire
import Synchronization

/// A meeting's recording: a writer's laptop uploads it under its SHA-256 before pushing the
/// meeting, and a listener plays it (whole or by ranges, as `<audio>` asks). The upload sits
/// behind the API's token (a writer of the request's team); playing takes the token or the web
/// session, and only a meeting of the request's teams plays (`TeamStore.hearable`): another
/// team's is 404.
struct AudioRoutes {
  let store: TeamStore
  let audio: AudioStore
  let limits: Limits
  let proxies: TrustedProxies
  /// The uploads in progress, by client address.
  let uploading = UploadSlots()
  /// What a download from a recording's copy in the cache reads of the file at once.
  static let fileChunk = 1024 * 1024

  /// `PUT audio/:sha256`, for the API's group.
  var uploads: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self).put("audio/:sha256", use: upload)
  }

  /// `GET :meeting`, for the `/audio` group (outside the API so a web page's `<audio>` can use
  /// it with the session).
  var playback: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self).get(":meeting", use: play)
  }

  @Sendable func upload(_ request: Request, context: TeamContext) async throws -> Response {
    _ = try context.syncTeam(writing: true)
    let sha = context.parameters.get("sha256") ?? ""
    guard AudioStore.isHash(sha) else {
      throw APIError(.badRequest, "audio is named by its SHA-256 in 64 lowercase hex digits")
    }
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.audio {
      throw APIError(
        .contentTooLarge, "the audio is larger than this server takes (\(limits.audio) bytes)")
    }
    if try await audio.recording(sha) != nil {
      return Response.json(["sha256": sha], status: .ok)
    }
    let address = proxies.client(of: request, context) ?? "unknown"
    guard uploading.enter(address, limit: limits.uploadsPerAddress) else {
      throw APIError(
        .tooManyRequests,
        "\(limits.uploadsPerAddress) audio uploads from your address are in progress already; "
          + "send this one when one of them has finished")
    }
    defer { uploading.leave(address) }
    do {
      switch try await audio.store(request.body, sha256: sha, limit: limits.audio) {
      case .created: return Response.json(["sha256": sha], status: .created)
      case .alreadyHere: return Response.json(["sha256": sha], status: .ok)
      }
    } catch let mismatch as AudioStore.Mismatch {
      throw APIError(
        .unprocessableContent,
        "the audio's SHA-256 is \(mismatch.actual), not \(sha); upload it again under its own hash")
    }
  }

  @Sendable func play(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("meeting", in: context)
    let named = try await recording(of: id, context: context)
    guard let recording = try await audio.recording(named.sha256) else {
      throw APIError(.notFound, "the audio of meeting \(id) is not on the server (yet)")
    }
    let etag = "\"\(named.sha256)\""
    let headers = Self.headers(type: named.type, etag: etag)
    if request.headers[.ifNoneMatch] == etag {
      return Response(status: .notModified, headers: headers)
    }
    let range = ByteRange(header: request.headers[.range], size: recording.size)
    return try await send(range, of: named.sha256, recording, headers: headers, context: context)
  }

  /// The recording of meeting `id` that the person of `context` may hear: the one place that
  /// decides it (404 when there is none for them).
  func recording(of id: UUID, context: TeamContext) async throws -> (sha256: String, type: String) {
    guard let recording = try await store.hearable(meeting: id, in: context.teamIDs) else {
      throw APIError(.notFound, "meeting \(id) has no audio here")
    }
    return recording
  }

  /// What every answer about a recording says. Audio is audio: only an audio type is served as
  /// what it claims (a meeting kept before the rules could name any), never sniffed, and a page
  /// that opens it directly runs nothing.
  static func headers(type: String, etag: String) -> HTTPFields {
    [
      .contentType: Rules.audioTypes.contains(type) ? type : "application/octet-stream",
      .acceptRanges: "bytes", .eTag: etag,
      .cacheControl: "private, max-age=31536000, immutable",
      .xContentTypeOptions: "nosniff",
      .contentSecurityPolicy: "default-src 'none'; media-src 'self'; sandbox",
    ]
  }

  /// The part of the recording that `range` asks for: all of it, a range, or 416; its bytes
  /// read from its copy in the cache when it is there (in large chunks), else from the database
  /// as the answer is written.
  func send(
    _ range: ByteRange, of sha256: String, _ recording: AudioStore.Recording,
    headers: HTTPFields, context: TeamContext
  ) async throws -> Response {
    var headers = headers
    let size = recording.size
    let audio = audio
    let copy = await audio.cache?.copy(of: sha256, size: size)
    func file(_ range: ClosedRange<Int>) async throws -> ResponseBody? {
      guard let copy else { return nil }
      return try? await FileIO().loadFile(
        path: copy, range: range, context: context, chunkLength: Self.fileChunk)
    }
    switch range {
    case .whole:
      headers[.contentLength] = String(size)
      if size == 0 { return Response(status: .ok, headers: headers) }
      let body =
        try await file(0...(size - 1))
        ?? ResponseBody(contentLength: size) { writer in
          try await audio.writeWhole(of: sha256, recording, to: &writer)
          try await writer.finish(nil)
        }
      return Response(status: .ok, headers: headers, body: body)
    case .part(let range):
      headers[.contentLength] = String(range.count)
      headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
      let body =
        try await file(range)
        ?? ResponseBody(contentLength: range.count) { writer in
          try await audio.write(range, of: sha256, recording, to: &writer)
          try await writer.finish(nil)
        }
      return Response(status: .partialContent, headers: headers, body: body)
    case .unsatisfiable:
      headers[.contentRange] = "bytes */\(size)"
      headers[.contentType] = "application/json; charset=utf-8"
      let body = try WireJSON.encoder().encode(
        ErrorBody("the range is past the end of the audio (\(size) bytes)"))
      return Response(
        status: .rangeNotSatisfiable, headers: headers,
        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
  }
}

/// How many uploads each client address has in progress.
final class UploadSlots: Sendable {
  private let open = Mutex([String: Int]())

  /// Counts one more upload of `address` in, or false when it has `limit` already.
  func enter(_ address: String, limit: Int) -> Bool {
    open.withLock { open in
      guard open[address, default: 0] < limit else { return false }
      open[address, default: 0] += 1
      return true
    }
  }

  func leave(_ address: String) {
    open.withLock { open in
      let left = open[address, default: 1] - 1
      open[address] = left > 0 ? left : nil
    }
  }
}
