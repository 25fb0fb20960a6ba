import ArgumentParser
import Foundation
import SyncClient
import SyncClientLive
import SyncUpsCLI
import SyncUpsFeatures
import TeamSync

/// `syncups team join URL --token TOKEN`: checks the token against the server, then keeps the
/// server and token in the data directory's `team.json` (mode 0600), never in the database,
/// never printed again. Plain http:// only to this computer, unless `--allow-http`.
struct TeamJoinCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "join",
    abstract: "Join a team server: check the token, keep it for 'syncups sync'.",
    discussion: """
      The server and token are kept in team.json in the data directory ($SYNCUPS_HOME, else \
      ~/.local/share/syncups), readable only by you: only that data directory syncs with the \
      team. Pass --token - to read the token from stdin instead of the command line. An \
      http:// address is refused unless it is this computer (localhost, 127.0.0.0/8, ::1): the \
      token would cross the network in clear. Use https://, or --allow-http on a network you \
      trust (kept for every later sync). A data directory joins one team: when your token's \
      person is in several teams on the server, name one with --team (then use another data \
      directory, SYNCUPS_HOME, for another team).
      """
  )

  @Argument(help: "The server's address, such as https://syncups.example.com.")
  var url: String

  @Option(help: "Your token ('syncups-server token create NAME' prints it), or - for stdin.")
  var token: String

  @Option(help: "The team to join, when you are in several on that server.")
  var team: String?

  @Flag(
    name: .customLong("allow-http"),
    help: "Send the token over plain http:// to another computer (a network you trust).")
  var allowHTTP = false

  func run() async throws {
    let server = try Self.server(url)
    if Team.sendsTokenInClear(to: server), !allowHTTP {
      throw CLIError(
        "refusing \(server.absoluteString.visible): over http:// to another computer the token "
          + "would cross the network in clear; use its https:// address (or --allow-http on a "
          + "network you trust)")
    }
    let token = try Self.token(token == "-" ? readLine(strippingNewline: true) ?? "" : token)
    // Kept only when it matters: an https:// or loopback address needs no permission.
    let allowHTTP = allowHTTP && Team.sendsTokenInClear(to: server) ? true : nil
    let unchecked = TeamFile.Contents(url: server, token: token, allowHTTP: allowHTTP).team
    @Dependency(\.syncClient) var client
    var member: TeamMember
    do {
      member = try await client.check(unchecked)
    } catch {
      throw CLIError("cannot join \(server.absoluteString): \(error); nothing was changed")
    }
    let chosen = try Self.team(team, of: member, at: server)
    member.role = chosen?.role ?? member.role
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let previous = try? TeamFile.current()
    do {
      // Another server, or another team there: this data has not synced with it yet.
      let otherTeam = previous?.teamName.map { $0.lowercased() != chosen?.name.lowercased() }
      if previous?.url != server || otherTeam == true {
        try TeamSyncStatus.startOver(data.database)
      }
      try TeamFile.resolve().write(
        TeamFile.Contents(
          url: server, token: token, person: member.name, role: member.role,
          allowHTTP: allowHTTP, teamName: chosen?.name))
    } catch {
      throw CLIError("cannot join \(server.absoluteString): \(error)")
    }
    let waiting = (try? TeamSyncStatus.read(data.database).waiting) ?? 0
    // The name and role are the server's words: shown, never obeyed (`visible`).
    let who =
      (member.name.map { " as \($0)" + (member.role.map { " (\($0))" } ?? "") } ?? "")
      + ((member.teams?.count ?? 0) > 1 ? chosen.map { ", team \($0.name)" } ?? "" : "")
    try Console.out(
      "Joined \(server.absoluteString)\(who)".visible + "; \(Format.count(waiting, "change")) "
        + "to push: run 'syncups sync'\n")
  }

  /// The team to join among the person's on that server: `--team`'s, else their only one; one
  /// line listing their teams when it is missing or not one of theirs. Nil from a server
  /// without teams (when `--team` was not given).
  static func team(_ name: String?, of member: TeamMember, at server: URL) throws(CLIError)
    -> TeamMember.Membership?
  {
    guard let teams = member.teams else {
      guard let name else { return nil }
      throw CLIError(
        "\(server.absoluteString) has no teams; join without --team \(name.visible)")
    }
    let yours = teams.isEmpty ? "none" : teams.map(\.name.visible).joined(separator: ", ")
    if let name {
      guard let found = teams.first(where: { $0.name.lowercased() == name.lowercased() }) else {
        throw CLIError(
          "you are not in a team called '\(name.visible)' on \(server.absoluteString); your "
            + "teams there: \(yours); nothing was changed")
      }
      return found
    }
    guard teams.count == 1 else {
      throw CLIError(
        teams.isEmpty
          ? "you are in no team on \(server.absoluteString); ask whoever runs it to add you"
          : "you are in several teams on \(server.absoluteString) (\(yours)); say which with "
            + "--team NAME; nothing was changed")
    }
    return teams[0]
  }

  /// An http(s) address with a host, without a trailing slash.
  static func server(_ text: String) throws(CLIError) -> URL {
    var text = text.trimmingCharacters(in: .whitespaces)
    while text.hasSuffix("/") { text.removeLast() }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
      url.query == nil
    else {
      throw CLIError(
        "'\(text.visible)' is not a server address: give one like https://syncups.example.com")
    }
    return url
  }

  static func token(_ text: String) throws(CLIError) -> String {
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty, token.count <= 200,
      token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
    else {
      throw CLIError(
        "that is not a token: give the line 'syncups-server token create NAME' printed")
    }
    return token
  }
}
