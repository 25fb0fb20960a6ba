import Foundation
import Hummingbird

/// The JSON API's reading: the sync-ups, a sync-up's meetings a page at a time, a meeting whole,
/// and a search of everything said. Each sits behind the API's token, for readers and writers,
/// and sees only the request's teams: another team's sync-up or meeting is 404, as if it were
/// not here.
struct ReadingRoutes {
  let store: TeamStore

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("sync-ups", use: syncUps)
      .get("sync-ups/:id/meetings", use: meetings)
      .get("meetings/:id", use: meeting)
      .get("search", use: search)
  }

  @Sendable func syncUps(_ request: Request, context: TeamContext) async throws -> Response {
    Response.json(try await store.syncUps(in: context.teamIDs))
  }

  @Sendable func meetings(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    guard try await store.syncUpExists(id, in: context.teamIDs) else {
      throw APIError(.notFound, "there is no sync-up \(id) here")
    }
    let limit = try request.integer("limit", default: 20, in: 1...500)
    var before: MeetingCursor?
    if let text = request.uri.queryParameters["before"] {
      guard let cursor = MeetingCursor(String(text)) else {
        throw APIError(.badRequest, "?before= takes the `next` of the previous page")
      }
      before = cursor
    }
    return Response.json(try await store.meetings(of: id, limit: limit, before: before))
  }

  /// A meeting's JSON as it was stored when pushed, tagged with its clock and the version of
  /// its last write (`StoredMeeting.tag`): 304 and no body
  /// when `If-None-Match` names that tag.
  @Sendable func meeting(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    let named = ETag.named(in: request)
    guard try await store.sees(meeting: id, in: context.teamIDs),
      let meeting = try await store.storedMeeting(id, unless: named), !meeting.deleted
    else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    let tag = ETag.quoted(meeting.tag)
    var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache"]
    if ETag.matches(tag, named) { return Response(status: .notModified, headers: headers) }
    guard let json = meeting.json else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: json))
  }

  @Sendable func search(_ request: Request, context: TeamContext) async throws -> Response {
    Response.json(
      try await store.search(try TeamServer.search(from: request), in: context.teamIDs))
  }
}
