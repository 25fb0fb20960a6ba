import ArgumentParser
import Foundation
import SyncUpsServer

/// `syncups-server team add NAME`, `team list`, `team webhook TEAM URL`: the teams of this
/// server. Each sync-up belongs to one; people belong to teams with a role in each (`user add
/// NAME --team TEAM --role ROLE`); a team's new meetings' digests go to its chat's webhook.
struct TeamCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "team",
    abstract: "The teams: each sees only its own sync-ups, meetings, search and audio.",
    subcommands: [Add.self, List.self, Webhook.self])

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
      print(
        "TEAM".padding(toLength: 24, withPad: " ", startingAt: 0) + "PEOPLE  SYNC-UPS  WEBHOOK")
      for team in teams {
        print(
          team.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            + String(team.people).padding(toLength: 8, withPad: " ", startingAt: 0)
            + String(team.syncUps).padding(toLength: 10, withPad: " ", startingAt: 0)
            + (team.webhook ?? "-"))
      }
    }
  }

  struct Webhook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Post each new meeting's digest to the team's chat (a Slack or Mattermost "
        + "incoming webhook).",
      discussion: """
        With a URL, sets it (http or https, no user or password in it); with --clear, stops \
        posting (posts still waiting are dropped); with neither, says where it posts. The URL \
        is a secret: nothing prints or logs more of it than its host. See docs/digest.md.
        """)
    @OptionGroup var options: DatabaseOptions
    @Argument(help: "The team.") var team: String
    @Argument(help: "The incoming webhook's URL, as the chat gave it (https://HOST/...).")
    var url: String?
    @Flag(help: "Stop posting the team's digests.") var clear = false

    func run() async throws {
      let team = team
      switch (url, clear) {
      case (let text?, false):
        let webhook = try WebhookURL(text)
        let info = try await withStore(options) { try await $0.setWebhook(webhook, team: team) }
        print(
          "Team \(info.name)'s new meetings are posted to \(webhook.redacted) from now on "
            + "(meetings pushed before are not).")
      case (nil, true):
        let info = try await withStore(options) { try await $0.setWebhook(nil, team: team) }
        print("Team \(info.name)'s meetings are no longer posted anywhere.")
      case (nil, false):
        let (info, current) = try await withStore(options) { store in
          let info = try await store.requireTeamInfo(named: team)
          return (info, try await store.webhook(team: team))
        }
        print(
          current.map { "Team \(info.name) posts to \(WebhookURL.redacted($0))." }
            ?? "Team \(info.name) posts nowhere; set: syncups-server team webhook \(info.name) URL")
      case (_?, true):
        throw ServerError.usage("give the webhook's URL or --clear, not both")
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
