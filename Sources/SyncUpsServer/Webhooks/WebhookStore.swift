import Foundation
import PostgresNIO

/// A post still to make: the meeting, its team, and how many times it was tried (this one
/// counted).
struct WebhookPost: Sendable, Equatable {
  var meeting: UUID
  var team: Int64
  var attempt: Int
}

/// The teams' webhooks and the posts still to make (`webhook_post`), in PostgreSQL so that
/// every server on the database shares them and a restart loses none.
extension TeamStore {
  /// Sets (or with nil, clears) team `name`'s webhook; returns the team.
  @discardableResult
  public func setWebhook(_ url: WebhookURL?, team name: String) async throws -> TeamInfo {
    let team = try await requireTeam(named: name)
    try await run("UPDATE team SET webhook = \(url?.text) WHERE id = \(team.id)", logger: logger)
    if url == nil {
      // Nowhere to post them now.
      try await run("DELETE FROM webhook_post WHERE team_id = \(team.id)", logger: logger)
    }
    return team
  }

  /// Team `name`'s webhook as stored (a secret: say only `WebhookURL.redacted` of it).
  public func webhook(team name: String) async throws -> String? {
    let team = try await requireTeam(named: name)
    return try await webhook(team: team.id)
  }

  func webhook(team id: Int64) async throws -> String? {
    let rows = try await run("SELECT webhook FROM team WHERE id = \(id)", logger: logger)
    return try rows.all(String?.self).first ?? nil
  }

  /// Every team's webhook by team id (teams without one left out).
  public func webhooks() async throws -> [Int64: String] {
    let rows = try await run(
      "SELECT id, webhook FROM team WHERE webhook IS NOT NULL", logger: logger)
    return Dictionary(try rows.decode((Int64, String).self).map { ($0.0, $0.1) }) { a, _ in a }
  }

  /// In the push's transaction, for a meeting new to this server: a post of its digest to its
  /// team's webhook, when the team has one (else nothing). A meeting has one row at most.
  func schedulePost(of meeting: UUID, team: Int64, on connection: PostgresConnection)
    async throws
  {
    try await connection.run(
      """
      INSERT INTO webhook_post (meeting_id, team_id)
      SELECT \(meeting), id FROM team WHERE id = \(team) AND webhook IS NOT NULL
      ON CONFLICT (meeting_id) DO NOTHING
      """, logger: logger)
  }

  /// Up to `limit` posts that are due and that no server holds, each now held by this one for
  /// `lease` (another server skips them, locked or leased) and its attempt counted.
  func claimPosts(limit: Int, lease: Duration) async throws -> [WebhookPost] {
    let rows = try await run(
      """
      UPDATE webhook_post p SET attempts = p.attempts + 1,
        leased_until = now() + make_interval(secs => \(lease.seconds))
      FROM (SELECT meeting_id FROM webhook_post
        WHERE due_at <= now() AND (leased_until IS NULL OR leased_until <= now())
        ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED) due
      WHERE p.meeting_id = due.meeting_id
      RETURNING p.meeting_id, p.team_id, p.attempts
      """, logger: logger)
    return try rows.decode((UUID, Int64, Int).self).map {
      WebhookPost(meeting: $0.0, team: $0.1, attempt: $0.2)
    }
  }

  /// The receiver took it: never posted again.
  func postDelivered(_ post: WebhookPost) async throws {
    try await run("DELETE FROM webhook_post WHERE meeting_id = \(post.meeting)", logger: logger)
  }

  /// Tried again after `delay` (nil: never again, kept with its last error for whoever looks),
  /// and let go for any server to claim.
  func postFailed(_ post: WebhookPost, error: String, retryAfter delay: Duration?) async throws {
    let seconds = delay?.seconds
    try await run(
      """
      UPDATE webhook_post SET leased_until = NULL, last_error = \(String(error.prefix(500))),
        due_at = CASE WHEN \(seconds)::double precision IS NULL THEN 'infinity'::timestamptz
          ELSE now() + make_interval(secs => \(seconds)::double precision) END
      WHERE meeting_id = \(post.meeting)
      """, logger: logger)
  }

  /// How long until the next post is due (0 when one is now; nil when none is waiting).
  func nextPostDue() async throws -> Duration? {
    let rows = try await run(
      """
      SELECT extract(epoch FROM greatest(min(greatest(due_at, coalesce(leased_until, due_at))),
        now()) - now())::double precision
      FROM webhook_post WHERE due_at < 'infinity'
      """, logger: logger)
    guard let seconds = try rows.all(Double?.self).first ?? nil, seconds.isFinite else {
      return nil
    }
    return .milliseconds(Int64(min(max(seconds, 0), 86_400) * 1000))
  }

  /// The title of a sync-up and the name of its team, for a post's heading; nil when the
  /// sync-up was deleted (its meetings are gone from every list: none of them is posted).
  func postHeading(syncUp: UUID) async throws -> (title: String, team: String)? {
    let rows = try await run(
      """
      SELECT s.title, t.name FROM sync_up s JOIN team t ON t.id = s.team_id
      WHERE s.id = \(syncUp) AND NOT s.deleted
      """, logger: logger)
    return try rows.decode((String, String).self).first.map { (title: $0.0, team: $0.1) }
  }
}

extension Duration {
  /// In seconds, as PostgreSQL's intervals take them.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
