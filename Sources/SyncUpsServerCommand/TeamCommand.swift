import ArgumentParser
import Foundation
import SyncUpsServer

/// `syncups-server team add NAME`, `team list`: the teams of this server. Each sync-up belongs to
/// one; people belong to teams with a role in each (`user add NAME --team TEAM --role ROLE`).
struct TeamCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "team",
    abstract: "The teams: each sees only its own sync-ups, meetings, search and audio.",
    subcommands: [Add.self, List.self])

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a team (letters, digits, '.', '-', '_').")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String

    func run() async throws {
      let name = name
      let team = try await withStore(options) { try await $0.addTeam(name: name) }
      print(
        "Added team \(team.name). Add people to it: syncups-server user add NAME --team "
          + "\(team.name) --role reader|writer")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the teams.")
    @OptionGroup var options: DatabaseOptions

    func run() async throws {
      let teams = try await withStore(options) { try await $0.teams() }
      print("TEAM".padding(toLength: 24, withPad: " ", startingAt: 0) + "PEOPLE  SYNC-UPS")
      for team in teams {
        print(
          team.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            + String(team.people).padding(toLength: 8, withPad: " ", startingAt: 0)
            + String(team.syncUps))
      }
    }
  }
}

extension User {
  /// `user list`: NAME and ROLE on a server with one team (as before there were teams), else a
  /// line per person and team: NAME, TEAM, ROLE. Someone in no team shows `-`.
  static func listing(_ people: [Person], teams: Int) -> String {
    func column(_ text: String) -> String {
      text.padding(toLength: 24, withPad: " ", startingAt: 0)
    }
    var out = teams <= 1 ? column("NAME") + "ROLE\n" : column("NAME") + column("TEAM") + "ROLE\n"
    for person in people {
      if person.memberships.isEmpty {
        out += column(person.name) + (teams <= 1 ? "-\n" : column("-") + "-\n")
      }
      for membership in person.memberships {
        out +=
          column(person.name) + (teams <= 1 ? "" : column(membership.team))
          + membership.role.rawValue + "\n"
      }
    }
    return out
  }
}
