import Foundation
import SyncUpsServer
import SyncUpsWire

/// The store's reads as the tests written before teams use them: the whole server (every team),
/// and a push into its person's first team.
extension TeamStore {
  func everyTeam() async throws -> [Int64] { try await teams().map(\.id) }

  func syncUps() async throws -> [SyncUpSummary] { try await syncUps(in: everyTeam()) }

  func search(_ search: TeamSearchQuery) async throws -> [SearchHit] {
    try await self.search(search, in: everyTeam())
  }

  func syncUpExists(_ id: UUID) async throws -> Bool {
    try await syncUpExists(id, in: everyTeam())
  }

  func save(_ push: Push, by person: Person) async throws -> PushReceipt {
    try await save(push, by: person, in: person.memberships.first?.teamID ?? 0)
  }
}

/// A person as the tests written before teams know them: one role, in the first team.
extension Person {
  init(id: Int64, name: String, role: Role) {
    self.init(
      id: id, name: name, memberships: [Membership(teamID: 1, team: "team", role: role)])
  }

  /// Their role in their only team (nil when they are in several, or none).
  var role: Role? { memberships.count == 1 ? memberships[0].role : nil }
}
