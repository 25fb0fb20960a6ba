import Foundation
import Hummingbird
import StandupDigest

/// `GET /api/v1/meetings/ID/digest`: the meeting's stand-up digest (yesterday, today and
/// blockers per person who spoke), the JSON `syncups digest --format json` prints, computed from
/// the meeting as stored now (a correction shows at once; `TeamStore.digest`, as the pages).
/// Behind the API's token, for readers and writers; another team's meeting, or a deleted one,
/// is 404.
struct DigestRoutes {
  let store: TeamStore

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("meetings/:id/digest", use: digest)
  }

  @Sendable func digest(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    guard try await store.sees(meeting: id, in: context.teamIDs),
      let (meeting, _) = try await store.meetingRow(id), !meeting.deleted
    else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    let digest = try await store.digest(of: id, syncUp: meeting.syncUpID)
    var buffer = ByteBuffer()
    buffer.writeString(digest.json(meeting: id.uuidString.lowercased()))
    return Response(
      status: .ok,
      headers: [
        .contentType: "application/json; charset=utf-8", .cacheControl: "private, no-cache",
      ],
      body: .init(byteBuffer: buffer))
  }
}
