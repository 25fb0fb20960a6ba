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

  @Sendable func meeting(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    guard try await store.sees(meeting: id, in: context.teamIDs),
      let meeting = try await store.meetingDocument(id), !meeting.deleted
    else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    return Response.json(meeting)
  }

  @Sendable func search(_ request: Request, context: TeamContext) async throws -> Response {
    Response.json(
      try await store.search(try TeamServer.search(from: request), in: context.teamIDs))
  }
}
