import Foundation
import Hummingbird
import SyncUpsWire

/// Correcting a segment: `POST /meetings/ID/segments/N` from the meeting page (the web session;
/// like every form, only from this server's own pages) and `POST /api/v1/meetings/ID/segments/N`
/// (a token). N is the segment's number (1 = the first), as `syncups transcript --numbers`
/// prints it. The body is `{"speaker": "...", "text": "..."}` to correct it, `{"undo": true}` to
/// put back what was recognised; the answer is the segment as saved, or `{"error": "..."}` with
/// a 4xx. A writer of the meeting's team only.
struct CorrectionRoutes {
  let store: TeamStore

  /// The largest body taken: a corrected text holds at most 10,000 characters.
  static let bodyLimit = 256 * 1024

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .post("meetings/:id/segments/:number", use: correct)
  }

  /// A correction's body.
  struct Body: Decodable {
    var speaker: String?
    var text: String?
    var undo: Bool?
  }

  @Sendable func correct(_ request: Request, context: TeamContext) async throws -> Response {
    let person = try context.requirePerson()
    let id = try request.uuid("id", in: context)
    let text = context.parameters.get("number") ?? ""
    guard let number = Int(text), number >= 1 else {
      throw APIError(
        .badRequest, "'\(text.prefix(40))' is not a segment number: they are numbered from 1")
    }
    let body = try await request.collectBody(limit: Self.bodyLimit)
    let edit = try Self.edit(from: body)
    guard try await store.sees(meeting: id, in: context.teamIDs) else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    return Response.json(try await store.correct(meeting: id, number: number, edit, by: person))
  }

  /// What the body asks, or 400 in words.
  static func edit(from body: ByteBuffer) throws -> SegmentEdit {
    let decoded: Body
    do {
      decoded = try JSONDecoder().decode(Body.self, from: Data(buffer: body))
    } catch {
      throw APIError(
        .badRequest,
        #"the body is not the JSON this route takes: {"speaker": "...", "text": "..."} "#
          + #"or {"undo": true}"#)
    }
    switch (decoded.undo ?? false, decoded.speaker, decoded.text) {
    case (true, nil, nil): return .undo
    case (false, let speaker?, let text?): return .correct(speaker: speaker, text: text)
    case (true, _, _):
      throw APIError(.badRequest, "undo puts back what was recognised: send it alone")
    default:
      throw APIError(.badRequest, "send both the speaker and the text (or undo)")
    }
  }
}
