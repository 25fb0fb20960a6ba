import Foundation
import Hummingbird
import SyncUpsWire

/// The sync-ups (title, theme, attendees, meeting count) and one sync-up's meetings, a page
/// at a time (date, length, who spoke, first words).
enum SyncUpsPage {
  static func list(_ syncUps: [SyncUpSummary], person: Person) -> String {
    var content: Markup = "<h1>Sync-ups</h1>\n"
    if syncUps.isEmpty {
      content += "<p class=\"hint\">No sync-ups yet. They appear here once a laptop runs "
      content += "<code>syncups sync</code>.</p>\n"
    }
    content += "<ul class=\"cards\">\n"
    for syncUp in syncUps {
      content += "<li class=\"card syncup \(Pages.themeClass(syncUp.theme))\">"
      content += "<h2><a href=\"/sync-ups/\(syncUp.id.uuidString.lowercased())\">"
      content += "\(syncUp.title)</a></h2>\n<p class=\"meta\">"
      content += syncUp.meetings == 1 ? "1 meeting" : "\(syncUp.meetings) meetings"
      content += " · \(length: syncUp.duration) stand-up"
      if person.memberships.count > 1, let team = syncUp.team {
        content += " · <span class=\"team\">team \(team)</span>"
      }
      content += "</p>\n"
      if !syncUp.attendees.isEmpty {
        content += "<p class=\"people\"><span class=\"visually-hidden\">Attendees: </span>"
        content += "\(syncUp.attendees.joined(separator: ", "))</p>"
      }
      content += "</li>\n"
    }
    content += "</ul>\n"
    return Pages.page(title: "Sync-ups", person: person, content: content)
  }

  static func meetings(
    title: String, theme: String, syncUpID: UUID, page: MeetingsPage, speakers: [UUID: [String]],
    first: Bool, person: Person
  ) -> String {
    var content: Markup =
      "<nav class=\"crumbs\" aria-label=\"Breadcrumb\"><a href=\"/\">Sync-ups</a></nav>\n"
    content += "<h1 class=\"titled\">\(title)</h1>\n"
    if page.meetings.isEmpty {
      content += "<p class=\"hint\">"
      content += first ? "No meetings yet." : "No older meetings."
      content += "</p>\n"
    }
    content += "<ol class=\"meetings\">\n"
    for meeting in page.meetings {
      content += "<li class=\"card\"><a class=\"when\" href=\"/meetings/"
      content += "\(meeting.id.uuidString.lowercased())\">\(time: meeting.date)</a>"
      content += " <span class=\"meta\">\(length: meeting.length)</span>\n"
      if let names = speakers[meeting.id], !names.isEmpty {
        content += "<p class=\"people\"><span class=\"visually-hidden\">Who spoke: </span>"
        content += "\(names.joined(separator: ", "))</p>"
      }
      if !meeting.firstWords.isEmpty {
        content += "<p class=\"first\">“\(meeting.firstWords)…”</p>"
      }
      content += "</li>\n"
    }
    content += "</ol>\n"
    let base = "/sync-ups/" + syncUpID.uuidString.lowercased()
    if !first || page.next != nil {
      content += "<nav class=\"pager\" aria-label=\"Pages\">"
      if !first { content += "<a href=\"\(base)\">Newest</a>" }
      if let next = page.next {
        content += "<a href=\"\(base)?before=\(HTML.queryValue(next))\" rel=\"next\">"
        content += "Older meetings</a>"
      }
      content += "</nav>\n"
    }
    return Pages.page(title: title, person: person, theme: theme, content: content)
  }
}

extension TeamServer {
  func syncUpsPage(context: TeamContext) async throws -> Response {
    .html(
      SyncUpsPage.list(
        try await store.syncUps(in: context.teamIDs), person: try context.requirePerson()))
  }

  func meetingsPage(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("id", in: context)
    guard let heading = try await store.syncUpHeading(id, in: context.teamIDs) else {
      throw APIError(.notFound, "there is no sync-up \(id) here")
    }
    var before: MeetingCursor?
    if let text = request.uri.queryParameters["before"] {
      guard let cursor = MeetingCursor(String(text)) else {
        throw APIError(.badRequest, "this page link is not right; start again from the newest")
      }
      before = cursor
    }
    let page = try await store.meetings(of: id, limit: 20, before: before)
    let speakers = try await store.speakers(of: page.meetings.map(\.id))
    return .html(
      SyncUpsPage.meetings(
        title: heading.title, theme: heading.theme, syncUpID: id, page: page, speakers: speakers,
        first: before == nil, person: try context.requirePerson()))
  }
}
