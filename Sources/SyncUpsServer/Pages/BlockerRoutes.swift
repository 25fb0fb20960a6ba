import Foundation
import Hummingbird
import StandupDigest
import SyncUpsWire

/// The blockers page (`GET /blockers?since=7d`) and closing a blocker by hand
/// (`POST /blockers/close`, a form of that page: like every form, only from this server's own
/// pages, `SameOriginForms`; a writer of the blocker's team only).
extension TeamServer {
  func blockersPage(_ request: Request, context: TeamContext) async throws -> Response {
    let person = try context.requirePerson()
    let text = request.uri.queryParameters["since"].map(String.init) ?? BlockersPage.defaultSince
    let from = try BlockersPage.since(text)
    let (meetings, more) = try await store.blockerMeetings(in: context.teamIDs, since: from)
    let entries = try await store.blockers(of: meetings)
    let closed = try await store.closedBlockers(of: meetings.map(\.id))
    let byID = Dictionary(meetings.map { ($0.id.uuidString.lowercased(), $0) }) { first, _ in first
    }
    let writes = Set(person.memberships.filter { $0.role == .writer }.map(\.teamID))
    var open: [BlockersPage.Row] = []
    var done: [BlockersPage.Row] = []
    for entry in entries {
      guard let meeting = byID[entry.raised.meeting] else { continue }
      let key = BlockerKey(
        meeting: meeting.id, segment: entry.raised.segment, text: entry.raised.text)
      let row = BlockersPage.Row(
        entry: entry, meeting: meeting.id, title: meeting.title,
        closable: writes.contains(meeting.team), closed: closed[key])
      if entry.resolved == nil, row.closed == nil { open.append(row) } else { done.append(row) }
    }
    return .html(
      BlockersPage.render(
        open: open, closed: done, since: text, from: from, more: more, person: person))
  }

  /// Closes the blocker the form names, then back to the blockers page (303).
  func closeBlocker(_ request: Request, context: TeamContext) async throws -> Response {
    let person = try context.requirePerson()
    let fields = SignInPage.form(try await request.collectBody(limit: 4096))
    guard let meeting = fields["meeting"].flatMap(UUID.init(uuidString:)),
      let segment = fields["segment"].flatMap({ Int($0) }),
      (1...Rules.mostSegments).contains(segment),
      let key = fields["key"], BlockerKey.isKey(key)
    else {
      throw APIError(
        .badRequest, "this form does not name a blocker; close it from the blockers page")
    }
    var since = fields["since"] ?? BlockersPage.defaultSince
    if (try? BlockersPage.since(since)) == nil { since = BlockersPage.defaultSince }
    guard try await store.sees(meeting: meeting, in: context.teamIDs),
      let team = try await store.team(ofMeeting: meeting),
      let (row, _) = try await store.meetingRow(meeting)
    else {
      throw APIError(.notFound, "there is no meeting \(meeting) here")
    }
    guard person.memberships.contains(where: { $0.teamID == team && $0.role == .writer }) else {
      throw APIError(
        .forbidden, "only a writer of this meeting's team can close its blockers")
    }
    let blocker = BlockerKey(meeting: meeting, segment: segment, key: key)
    let digest = try await store.digest(of: meeting, syncUp: row.syncUpID)
    let there = digest.people.flatMap(\.blockers).contains {
      BlockerKey(meeting: meeting, segment: $0.segment, text: $0.text) == blocker
    }
    guard there else {
      throw APIError(
        .notFound,
        "that meeting has no such blocker now (its words may have been corrected); "
          + "reload the blockers page")
    }
    try await store.closeBlocker(blocker, by: person)
    return .seeOther("/blockers?since=" + HTML.queryValue(since))
  }
}
