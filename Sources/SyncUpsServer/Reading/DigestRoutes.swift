import Foundation
import Hummingbird
import StandupDigest
import SyncUpsWire

/// `GET /api/v1/meetings/ID/digest`: the meeting's stand-up digest (yesterday, today and
/// blockers per person who spoke), the JSON `syncups digest --format json` prints, computed from
/// the meeting as stored now (a correction shows at once). Behind the API's token, for readers
/// and writers; another team's meeting, or a deleted one, is 404.
struct DigestRoutes {
  let store: TeamStore

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("meetings/:id/digest", use: digest)
  }

  @Sendable func digest(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    guard try await store.sees(meeting: id, in: context.teamIDs),
      let found = try await store.digest(of: id)
    else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    var buffer = ByteBuffer()
    buffer.writeString(found.digest.json(meeting: id.uuidString.lowercased()))
    return Response(
      status: .ok,
      headers: [
        .contentType: "application/json; charset=utf-8", .cacheControl: "private, no-cache",
      ],
      body: .init(byteBuffer: buffer))
  }
}

/// A meeting with its digest, and its sync-up's attendees.
struct MeetingDigest: Sendable {
  var meeting: MeetingDocument
  var attendees: [String]
  var digest: StandupDigest.Digest
}

extension TeamStore {
  /// The digest of meeting `id` as stored now (a correction shows at once): the one computation
  /// the API's route and the team's chat post share. Nil when there is no such meeting, or it
  /// is deleted.
  func digest(of id: UUID) async throws -> MeetingDigest? {
    guard let stored = try await storedMeeting(id), !stored.deleted, let json = stored.json,
      let meeting = try? PushJSON.meeting(Data(buffer: json), with: WireJSON.decoder())
    else { return nil }
    let attendees = try await attendeeNames(of: meeting.syncUpID)
    let digest = StandupDigest.Digest(
      segments: meeting.segments.enumerated().map { index, segment in
        DigestSegment(
          number: index + 1, speaker: segment.speaker, start: segment.start, text: segment.text)
      },
      attendees: attendees)
    return MeetingDigest(meeting: meeting, attendees: attendees, digest: digest)
  }

  /// A sync-up's attendees' names, in its order.
  func attendeeNames(of syncUpID: UUID) async throws -> [String] {
    let rows = try await run(
      "SELECT name FROM attendee WHERE sync_up_id = \(syncUpID) ORDER BY position",
      logger: logger)
    return try rows.all(String.self)
  }
}
