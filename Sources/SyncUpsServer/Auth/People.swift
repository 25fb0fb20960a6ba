import Crypto
import Foundation
import HummingbirdBcrypt
import PostgresNIO

/// Someone with a token: in each of their teams, readers read and writers also push.
public struct Person: Equatable, Sendable, Codable {
  public enum Role: String, Sendable, Codable, CaseIterable {
    case reader, writer
  }
  public var id: Int64
  public var name: String
  /// Their teams, with their role in each, by team name.
  public var memberships: [Membership]

  /// The most characters a name has (`user add` refuses more; sign-in refuses them unread).
  public static let longestName = 100

  /// Whether a name is short enough: at most `longestName` characters, of at most 4 bytes each
  /// on average (one character can be a letter with any number of accents stacked on it).
  static func fits(_ name: String) -> Bool {
    name.utf8.count <= 4 * longestName && name.count <= longestName
  }

  public init(id: Int64, name: String, memberships: [Membership] = []) {
    self.id = id
    self.name = name
    self.memberships = memberships
  }

  /// Their teams' names, for messages.
  var teamNames: String {
    memberships.isEmpty ? "none" : memberships.map(\.team).joined(separator: ", ")
  }
}

extension TeamStore {
  /// Adds someone to a team (`team`, else the only team there is) with a role; names are unique
  /// (any case) and one line of printable characters. Someone already here is added to `team`
  /// when it is given and they are not in it yet.
  public func addPerson(name: String, role: Person.Role, team: String? = nil) async throws
    -> Person
  {
    let name = name.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, Person.fits(name),
      !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true })
    else {
      throw ServerError.usage(
        "a name must be one line of at most \(Person.longestName) characters, not blank")
    }
    if let existing = try await person(named: name) {
      guard let team else {
        throw ServerError.failed("'\(name)' is already a person here; see `user list`")
      }
      return try await addMembership(existing, role: role, team: try await requireTeam(named: team))
    }
    let team = try await team == nil ? onlyTeam() : requireTeam(named: team ?? "")
    let rows = try await run(
      """
      WITH added AS (INSERT INTO person (name) VALUES (\(name)) RETURNING id),
      joined AS (INSERT INTO membership (person_id, team_id, role)
        SELECT id, \(team.id), \(role.rawValue) FROM added)
      SELECT id FROM added
      """, logger: logger)
    for id in try rows.decode(Int64.self) {
      return Person(
        id: id, name: name,
        memberships: [Membership(teamID: team.id, team: team.name, role: role)])
    }
    throw ServerError.failed("'\(name)' was not added")
  }

  private func addMembership(_ person: Person, role: Person.Role, team: TeamInfo) async throws
    -> Person
  {
    if person.memberships.contains(where: { $0.teamID == team.id }) {
      throw ServerError.failed(
        "\(person.name) is already in team \(team.name); change their role with `user role`")
    }
    try await run(
      """
      INSERT INTO membership (person_id, team_id, role)
      VALUES (\(person.id), \(team.id), \(role.rawValue))
      """, logger: logger)
    return Person(
      id: person.id, name: person.name, memberships: try await memberships(of: person.id))
  }

  public func person(named name: String) async throws -> Person? {
    let rows = try await run(
      "SELECT id, name FROM person WHERE lower(name) = lower(\(name)) AND removed_at IS NULL",
      logger: logger)
    for (id, name) in try rows.decode((Int64, String).self) {
      return try await person(id: id, name: name)
    }
    return nil
  }

  /// Someone found by a query, with their teams.
  func person(id: Int64, name: String) async throws -> Person {
    Person(id: id, name: name, memberships: try await memberships(of: id))
  }

  /// Everyone not removed, by name, each with their teams.
  public func people() async throws -> [Person] {
    let rows = try await run(
      """
      SELECT p.id, p.name, t.id, t.name, m.role FROM person p
      LEFT JOIN membership m ON m.person_id = p.id LEFT JOIN team t ON t.id = m.team_id
      WHERE p.removed_at IS NULL ORDER BY lower(p.name), p.id, lower(t.name)
      """, logger: logger)
    var people: [Person] = []
    for (id, name, teamID, team, role) in try rows.decode(
      (Int64, String, Int64?, String?, String?).self)
    {
      if people.last?.id != id { people.append(Person(id: id, name: name)) }
      if let teamID, let team, let role {
        people[people.count - 1].memberships.append(
          Membership(teamID: teamID, team: team, role: Person.Role(rawValue: role) ?? .reader))
      }
    }
    return people
  }

  /// Sets the password someone signs in to the web pages with (kept as a bcrypt hash), and ends
  /// their web sessions: whoever signed in with the old one must sign in again.
  public func setPassword(name: String, password: String) async throws {
    guard password.count >= 8 else {
      throw ServerError.usage("a password needs at least 8 characters")
    }
    guard let person = try await person(named: name) else {
      throw ServerError.failed("nobody is called '\(name)' here; see `user list`")
    }
    let hash = Bcrypt.hash(password, cost: Self.passwordCost)
    try await run(
      """
      WITH changed AS (UPDATE person SET password_hash = \(hash) WHERE id = \(person.id) RETURNING id)
      DELETE FROM web_session WHERE person_id IN (SELECT id FROM changed)
      """, logger: logger)
  }

  /// Changes someone's role in `team` (else in their only team); it counts from their next
  /// request (each request reads it).
  public func setRole(name: String, role: Person.Role, team: String? = nil) async throws
    -> Person
  {
    let (person, membership) = try await membership(of: name, in: team)
    try await run(
      """
      UPDATE membership SET role = \(role.rawValue)
      WHERE person_id = \(person.id) AND team_id = \(membership.teamID)
      """, logger: logger)
    return try await self.person(id: person.id, name: person.name)
  }

  /// Someone's membership of `team`, else of their only team; one line when there is none.
  func membership(of name: String, in team: String?) async throws -> (Person, Membership) {
    guard let person = try await person(named: name) else {
      throw ServerError.failed("nobody is called '\(name)' here; see `user list`")
    }
    if let team {
      let team = try await requireTeam(named: team)
      guard let membership = person.memberships.first(where: { $0.teamID == team.id }) else {
        throw ServerError.failed(
          "\(person.name) is not in team \(team.name) (their teams: \(person.teamNames))")
      }
      return (person, membership)
    }
    guard person.memberships.count == 1, let membership = person.memberships.first else {
      throw ServerError.usage(
        "\(person.name) is in \(person.memberships.isEmpty ? "no team" : "several teams") "
          + "(their teams: \(person.teamNames)); give --team TEAM")
    }
    return (person, membership)
  }

  /// Takes someone out of one team: they no longer see its sync-ups; their tokens stay, for
  /// their other teams.
  public func removeMembership(name: String, team: String) async throws -> Person {
    let (person, membership) = try await membership(of: name, in: team)
    try await run(
      """
      DELETE FROM membership WHERE person_id = \(person.id) AND team_id = \(membership.teamID)
      """, logger: logger)
    return try await self.person(id: person.id, name: person.name)
  }

  /// Removes someone: their tokens are revoked and their web sessions end, in one statement, so
  /// their next request is refused. The row stays (marked removed) so that what they pushed still
  /// points at who pushed it; the name is free to be added again.
  public func removePerson(name: String) async throws -> Person {
    let rows = try await run(
      """
      WITH gone AS (
        UPDATE person SET removed_at = now(), password_hash = NULL
        WHERE lower(name) = lower(\(name)) AND removed_at IS NULL RETURNING id, name),
      revoked AS (
        UPDATE token SET revoked_at = now()
        WHERE revoked_at IS NULL AND person_id IN (SELECT id FROM gone)),
      ended AS (DELETE FROM web_session WHERE person_id IN (SELECT id FROM gone))
      SELECT id, name FROM gone
      """, logger: logger)
    for (id, name) in try rows.decode((Int64, String).self) {
      return Person(id: id, name: name)
    }
    throw ServerError.failed("nobody is called '\(name)' here; see `user list`")
  }
}
