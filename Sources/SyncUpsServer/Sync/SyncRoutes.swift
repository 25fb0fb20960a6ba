import Foundation
import Hummingbird

/// How laptops sync: `POST sync/push` saves what changed on a laptop, `GET sync/changes` gives
/// a page of what changed after a version, waiting a while for a change when there is none yet.
/// Both sit behind the API's token and are for one team (the `SyncUps-Team` header's, else the
/// person's only one); a push needs the writer role in it.
struct SyncRoutes {
  let store: TeamStore
  let limits: Limits
  let watcher: ChangesWatcher
  /// Pushes larger than `limits.largePush` are decoded and saved one at a time.
  let largePushes: Turns
  let metrics: Metrics

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .post("sync/push", use: push)
      .get("sync/changes", use: changes)
  }

  @Sendable func push(_ request: Request, context: TeamContext) async throws -> Response {
    let person = try context.requirePerson()
    let team = try context.syncTeam(writing: true)
    // A large push arrives into a spool file, then waits there for its turn (a body left
    // unread would be closed by the idle timeout) before it is read back and decoded, which is
    // what takes memory: pushes arriving together hold a few megabytes each, not their size.
    let arrived = try await PushBody.receive(
      request.body, limit: limits.json, inMemory: limits.largePush, folder: limits.uploadSpool)
    metrics.push(bytes: arrived.size)
    let large = arrived.isSpooled
    if large { await largePushes.begin() }
    defer { if large { largePushes.end() } }
    let push = try Request.push(from: try await arrived.load())
    return Response.json(try await store.save(push, by: person, in: team.teamID))
  }

  @Sendable func changes(_ request: Request, context: TeamContext) async throws -> Response {
    let team = try context.syncTeam(writing: false).teamID
    guard let text = request.uri.queryParameters["since"], let since = Int64(text), since >= 0
    else {
      throw APIError(.badRequest, "?since= takes the version of the last page (0 at first)")
    }
    let longest = Int(limits.longestWait.components.seconds)
    let wait = try request.integer("wait", default: 0, in: 0...longest)
    let limit = try request.integer("limit", default: 100, in: 1...1000)
    let deadline = ContinuousClock.now + .seconds(wait)
    while true {
      let generation = await watcher.generation
      let page = try await store.changes(
        since: since, team: team, limit: limit, budget: limits.pageBytes)
      let left = deadline - ContinuousClock.now
      if !page.isEmpty || left <= .zero {
        return Response(
          status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
          body: ResponseBody(contentsOf: page.pieces))
      }
      await metrics.waitingPull { await watcher.wait(after: generation, upTo: left) }
    }
  }
}
