import ArgumentParser
import Foundation
import SyncClient
import SyncClientLive
import SyncUpsCLI
import SyncUpsFeatures
import TeamSync

/// `syncups team join URL --token TOKEN`: checks the token against the server, then keeps the
/// server and token in `$XDG_CONFIG_HOME/syncups/team.json` (mode 0600), never in the database,
/// never printed again.
struct TeamJoinCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "join",
    abstract: "Join a team server: check the token, keep it for 'syncups sync'.",
    discussion: """
      The token is kept in $XDG_CONFIG_HOME/syncups/team.json (else ~/.config/syncups), \
      readable only by you. Pass --token - to read it from stdin instead of the command line.
      """
  )

  @Argument(help: "The server's address, such as https://syncups.example.com.")
  var url: String

  @Option(help: "Your token ('syncups-server token create NAME' prints it), or - for stdin.")
  var token: String

  func run() async throws {
    let server = try Self.server(url)
    let token = try Self.token(token == "-" ? readLine(strippingNewline: true) ?? "" : token)
    let team = TeamFile.Contents(url: server, token: token).team
    @Dependency(\.syncClient) var client
    let member: TeamMember
    do {
      member = try await client.check(team)
    } catch {
      throw CLIError("cannot join \(server.absoluteString): \(error); nothing was changed")
    }
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let file = TeamFile.resolve()
    let previous = try? file.read()
    do {
      if previous?.url != server { try TeamSyncStatus.startOver(data.database) }
      try file.write(
        TeamFile.Contents(url: server, token: token, person: member.name, role: member.role))
    } catch {
      throw CLIError("cannot join \(server.absoluteString): \(error)")
    }
    let waiting = (try? TeamSyncStatus.read(data.database).waiting) ?? 0
    let who = member.name.map { " as \($0)" + (member.role.map { " (\($0))" } ?? "") } ?? ""
    try Console.out(
      "Joined \(server.absoluteString)\(who); \(Format.count(waiting, "change")) "
        + "to push: run 'syncups sync'\n")
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
