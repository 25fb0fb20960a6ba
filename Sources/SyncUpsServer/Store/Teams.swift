import Foundation
import Hummingbird
import PostgresNIO
import SyncUpsWire

/// A team on this server, as `team list` shows it.
public struct TeamInfo: Equatable, Sendable {
  public var id: Int64
  public var name: String
  public var people: Int
  public var syncUps: Int
  /// Where its new meetings' digests are posted, as may be said of it (`WebhookURL.redacted`:
  /// the scheme and host, never the key); nil when nowhere.
  public var webhook: String? = nil
}

/// A person's place in a team: the team and their role there.
public struct Membership: Equatable, Sendable, Codable {
  public var teamID: Int64
  public var team: String
  public var role: Person.Role

  public init(teamID: Int64, team: String, role: Person.Role) {
    self.teamID = teamID
    self.team = team
    self.role = role
  }
}

/// Teams: every sync-up belongs to one, a person to several with a role in each. What a request
/// may see is the set of its teams' ids (`TeamContext.teams`); each query that reads sync-ups or
/// meetings filters on it in one place (`team_id = ANY(teams)`).
extension TeamStore {
  /// Adds a team; names are unique (any case): letters, digits, `.`, `-`, `_`.
  public func addTeam(name: String) async throws -> TeamInfo {
    guard TeamHeader.isName(name) else {
      throw ServerError.usage(
        "a team's name is 1 to \(TeamHeader.longestName) letters, digits, '.', '-' or '_' "
          + "(starting with a letter or digit), not '\(name.prefix(80))'")
    }
    if let existing = try await team(named: name) {
      throw ServerError.failed("there is already a team '\(existing.name)'; see `team list`")
    }
    let rows = try await run(
      "INSERT INTO team (name) VALUES (\(name)) RETURNING id", logger: logger)
    for id in try rows.decode(Int64.self) {
      return TeamInfo(id: id, name: name, people: 0, syncUps: 0)
    }
    throw ServerError.failed("the team '\(name)' was not added")
  }

  /// Every team, by name, with how many people and sync-ups (not deleted) it has.
  public func teams() async throws -> [TeamInfo] {
    let rows = try await run(
      """
      SELECT t.id, t.name,
        (SELECT count(*) FROM membership m JOIN person p ON p.id = m.person_id
          WHERE m.team_id = t.id AND p.removed_at IS NULL)::int,
        (SELECT count(*) FROM sync_up s WHERE s.team_id = t.id AND NOT s.deleted)::int,
        t.webhook
      FROM team t ORDER BY lower(t.name)
      """, logger: logger)
    var teams: [TeamInfo] = []
    for (id, name, people, syncUps, webhook) in try rows.decode(
      (Int64, String, Int, Int, String?).self)
    {
      teams.append(
        TeamInfo(
          id: id, name: name, people: people, syncUps: syncUps,
          webhook: webhook.map(WebhookURL.redacted)))
    }
    return teams
  }

  public func team(named name: String) async throws -> TeamInfo? {
    try await teams().first { $0.name.lowercased() == name.lowercased() }
  }

  /// The team `name` names, or one line listing the teams there are.
  public func requireTeamInfo(named name: String) async throws -> TeamInfo {
    try await requireTeam(named: name)
  }

  /// The team `name` names, or one line listing the teams there are.
  func requireTeam(named name: String) async throws -> TeamInfo {
    let teams = try await teams()
    guard let team = teams.first(where: { $0.name.lowercased() == name.lowercased() }) else {
      throw ServerError.failed(
        "there is no team '\(name.prefix(80))' here; the teams: "
          + teams.map(\.name).joined(separator: ", "))
    }
    return team
  }

  /// The team `user add` and `user role` mean without `--team`: the only one there is.
  func onlyTeam() async throws -> TeamInfo {
    let teams = try await teams()
    guard teams.count == 1, let team = teams.first else {
      throw ServerError.usage(
        "there are several teams here (\(teams.map(\.name).joined(separator: ", "))); "
          + "give --team TEAM")
    }
    return team
  }

  /// A person's teams and roles, by team name.
  func memberships(of personID: Int64) async throws -> [Membership] {
    let rows = try await run(
      """
      SELECT t.id, t.name, m.role FROM membership m JOIN team t ON t.id = m.team_id
      WHERE m.person_id = \(personID) ORDER BY lower(t.name)
      """, logger: logger)
    var memberships: [Membership] = []
    for (id, name, role) in try rows.decode((Int64, String, String).self) {
      memberships.append(
        Membership(teamID: id, team: name, role: Person.Role(rawValue: role) ?? .reader))
    }
    return memberships
  }

  /// Whether a sync-up (deleted or not) is in one of `teams`.
  public func sees(syncUp id: UUID, in teams: [Int64]) async throws -> Bool {
    try await !run(
      "SELECT 1 FROM sync_up WHERE id = \(id) AND team_id = ANY(\(teams))", logger: logger
    ).isEmpty
  }

  /// Whether a meeting (deleted or not) is in a sync-up of one of `teams`.
  public func sees(meeting id: UUID, in teams: [Int64]) async throws -> Bool {
    try await !run(
      """
      SELECT 1 FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
      WHERE m.id = \(id) AND s.team_id = ANY(\(teams))
      """, logger: logger
    ).isEmpty
  }

  /// The recording someone of `teams` may hear as meeting `id`'s: the meeting is not deleted,
  /// has audio, and is in one of their teams. Audio is kept once per content (its SHA-256) and
  /// may be shared by meetings of several teams; hearing it is seeing a meeting that has it, and
  /// this is the one place that decides it.
  func hearable(meeting id: UUID, in teams: [Int64]) async throws
    -> (sha256: String, type: String)?
  {
    let rows = try await run(
      """
      SELECT m.audio_sha256, m.audio_type FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
      WHERE m.id = \(id) AND NOT m.deleted AND m.audio_sha256 IS NOT NULL
        AND s.team_id = ANY(\(teams))
      """, logger: logger)
    for (sha, type) in try rows.decode((String, String?).self) {
      return (sha, type ?? "application/octet-stream")
    }
    return nil
  }

  /// A pushed document may only be in the push's team: a sync-up (or a meeting's sync-up, or a
  /// meeting) that is another team's is refused (409, in words): an id belongs to one team, so
  /// such a document can never be saved in this one, however often it is pushed.
  func requireInTeam(
    syncUp id: UUID, meeting: UUID? = nil, team: Int64, on connection: PostgresConnection
  ) async throws {
    let rows = try await connection.run(
      """
      SELECT 'syncUp' FROM sync_up WHERE id = \(id) AND team_id <> \(team)
      UNION ALL SELECT 'meeting' FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
      WHERE m.id = \(meeting) AND s.team_id <> \(team)
      """, logger: logger
    ).all(String.self)
    if rows.contains("syncUp") { throw Self.anotherTeams(syncUp: id) }
    if let meeting, rows.contains("meeting") { throw Self.anotherTeams(meeting: meeting) }
  }

  static func anotherTeams(syncUp id: UUID) -> APIError {
    APIError(
      .conflict,
      "sync-up \(id.uuidString.lowercased()) is another team's on this server, and an id "
        + "belongs to one team: it cannot be saved in this one")
  }

  static func anotherTeams(meeting id: UUID) -> APIError {
    APIError(
      .conflict,
      "meeting \(id.uuidString.lowercased()) is in another team's sync-up on this "
        + "server, and an id belongs to one team: it cannot be saved in this one")
  }

  /// Refuses (409, in words) a sync-up that takes on an attendee whose id is already another
  /// team's (an attendee of its sync-ups, or what its laptops learned of them): an id belongs
  /// to one team, the first that had it. Attendees the server's copy has already are not
  /// looked at again, so the team that had an id first is never refused for it.
  func requireOwnAttendees(
    _ document: SyncUpDocument, existing: SyncUpDocument?, team: Int64,
    on connection: PostgresConnection
  ) async throws {
    let known = Set(existing?.attendees.value.map(\.id) ?? [])
    let added = document.attendees.value.map(\.id).filter { !known.contains($0) }
    guard !added.isEmpty else { return }
    let taken = try await connection.run(
      """
      SELECT a.id FROM attendee a JOIN sync_up s ON s.id = a.sync_up_id
      WHERE a.id = ANY(\(added)) AND s.team_id <> \(team)
      UNION ALL SELECT l.attendee_id FROM learned_person l JOIN sync_up s ON s.id = l.sync_up_id
      WHERE l.attendee_id = ANY(\(added)) AND s.team_id <> \(team)
      LIMIT 1
      """, logger: logger
    ).all(UUID.self)
    guard let id = taken.first else { return }
    let name = document.attendees.value.first { $0.id == id }?.name ?? ""
    throw APIError(
      .conflict,
      "the attendee '\(name.prefix(100))' of sync-up \(document.id.uuidString.lowercased()) has the id "
        + "\(id.uuidString.lowercased()), which is another team's; an id belongs to one team: remove "
        + "the attendee and add them again, which gives them a new id")
  }
}
