import Hummingbird

/// The web pages: the sync-ups, a sync-up's meetings, a meeting (with its digest, and its
/// transcript to download), search, and the team's blockers (closing one by hand), for the
/// signed in (session cookie or bearer token); their stylesheet and script for everyone. Each page's handler sits with its page (`SyncUpsPage.swift`, ...).
struct PageRoutes {
  let server: TeamServer

  /// The stylesheet and the script, which the sign-in page needs too.
  var assets: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self).get("assets/:file", use: asset)
  }

  /// The pages, for a group that sends the signed out to the sign-in page.
  var pages: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("/", use: syncUps)
      .get("sync-ups/:id", use: server.meetingsPage)
      .get("meetings/:id", use: server.meetingPage)
      .get("meetings/:id/:file", use: server.transcriptDownload)
      .get("search", use: server.searchPage)
      .get("blockers", use: server.blockersPage)
      .post("blockers/close", use: server.closeBlocker)
  }

  @Sendable func asset(_ request: Request, context: TeamContext) throws -> Response {
    try Assets.response(context.parameters.get("file") ?? "")
  }

  @Sendable func syncUps(_ request: Request, context: TeamContext) async throws -> Response {
    try await server.syncUpsPage(context: context)
  }
}
