import Foundation

/// `GET /api/v1/me`: who the token belongs to and their teams, so a laptop that joins can name
/// its person and pick its team. `role` is their role in the request's team when it is for one
/// (its `SyncUps-Team` header, or their only team).
public struct Me: Codable, Equatable, Sendable {
  public var name: String
  public var role: String?
  public var teams: [Team]

  /// A team of theirs and their role there.
  public struct Team: Codable, Equatable, Sendable {
    public var name: String
    public var role: String

    public init(name: String, role: String) {
      self.name = name
      self.role = role
    }
  }

  public init(name: String, role: String?, teams: [Team]) {
    self.name = name
    self.role = role
    self.teams = teams
  }

  public init(_ person: Person, teams: [Membership]) {
    self.init(
      name: person.name, role: teams.count == 1 ? teams[0].role.rawValue : nil,
      teams: person.memberships.map { Team(name: $0.team, role: $0.role.rawValue) })
  }
}
