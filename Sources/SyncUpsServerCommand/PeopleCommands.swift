import ArgumentParser
import Foundation
import SyncUpsServer

struct User: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "The people who may use the server.",
    subcommands: [Add.self, List.self, Password.self, Remove.self, ChangeRole.self])

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a person to a team, or someone already here to one more team.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "reader (reads) or writer (also pushes).") var role: String
    @Option(help: "The team (needed when there are several; see `team list`).") var team: String?

    func run() async throws {
      let role = try Person.Role(option: role)
      let (name, team) = (name, team)
      let person = try await withStore(options) {
        try await $0.addPerson(name: name, role: role, team: team)
      }
      let added = person.memberships.first {
        team == nil || $0.team.lowercased() == team?.lowercased()
      }
      print(
        "Added \(person.name) (\(role.rawValue), team \(added?.team ?? "?")). Make them a token "
          + "(one is enough for all their teams): syncups-server token create \(person.name)")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the people.")
    @OptionGroup var options: DatabaseOptions

    func run() async throws {
      let (people, teams) = try await withStore(options) {
        (try await $0.people(), try await $0.teams())
      }
      print(User.listing(people, teams: teams.count), terminator: "")
    }
  }

  struct Password: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Set the password for the web pages, read from stdin (one line); their sessions end.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String

    func run() async throws {
      guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw ServerError.usage(
          "give the password on stdin, as in: echo 'secret' | syncups-server user password NAME")
      }
      let name = name
      try await withStore(options) { try await $0.setPassword(name: name, password: line) }
      print("Set the password of \(name); their web sessions (if any) have ended.")
    }
  }
}

extension User {
  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Remove a person: their tokens and web sessions stop at once; what they pushed stays.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "Take them out of this team only; their tokens keep working for the others.")
    var team: String?

    func run() async throws {
      let name = name
      if let team {
        let person = try await withStore(options) {
          try await $0.removeMembership(name: name, team: team)
        }
        print(
          "Took \(person.name) out of team \(team); their teams now: "
            + (person.memberships.isEmpty
              ? "none" : person.memberships.map(\.team).joined(separator: ", ")))
        return
      }
      let person = try await withStore(options) { try await $0.removePerson(name: name) }
      print(
        "Removed \(person.name): their tokens and web sessions no longer work; what they pushed stays."
      )
    }
  }

  struct ChangeRole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "role",
      abstract: "Change someone's role in a team; it counts from their next request.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "reader (reads) or writer (also pushes).") var role: String
    @Option(help: "The team (needed when they are in several).") var team: String?

    func run() async throws {
      let role = try Person.Role(option: role)
      let (name, team) = (name, team)
      let person = try await withStore(options) {
        try await $0.setRole(name: name, role: role, team: team)
      }
      print("\(person.name) is now a \(role.rawValue)" + (team.map { " in team \($0)." } ?? "."))
    }
  }
}

struct Token: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Tokens: one per person and laptop, shown once.",
    subcommands: [Create.self, Revoke.self, List.self])

  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a token; it is printed once, as the last line.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String

    func run() async throws {
      let name = name
      let (id, token) = try await withStore(options) { try await $0.createToken(for: name) }
      print("Token \(id) for \(name); it is shown only now (the server keeps only its hash):")
      print(token)
    }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a token; its next request is refused and its person's web sessions end.")
    @OptionGroup var options: DatabaseOptions
    @Argument var id: Int64

    func run() async throws {
      let id = id
      try await withStore(options) { try await $0.revokeToken(id: id) }
      print("Revoked token \(id) and ended its person's web sessions.")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the tokens (never the tokens themselves).")
    @OptionGroup var options: DatabaseOptions

    func run() async throws {
      let tokens = try await withStore(options) { try await $0.tokens() }
      let format = Date.ISO8601FormatStyle()
      print("ID    PERSON                  CREATED               REVOKED")
      for token in tokens {
        print(
          String(token.id).padding(toLength: 6, withPad: " ", startingAt: 0)
            + token.person.padding(toLength: 24, withPad: " ", startingAt: 0)
            + token.created.formatted(format).padding(toLength: 22, withPad: " ", startingAt: 0)
            + (token.revoked.map { $0.formatted(format) } ?? "-"))
      }
    }
  }
}

extension Person.Role {
  /// `--role`'s value, or one line saying which it takes.
  init(option text: String) throws {
    guard let role = Self(rawValue: text) else {
      throw ServerError.usage("--role is reader or writer, not '\(text.prefix(40))'")
    }
    self = role
  }
}
