import Crypto
import Foundation
import HummingbirdBcrypt
import PostgresNIO

/// Someone with a token: readers read, writers also push.
public struct Person: Equatable, Sendable, Codable {
  public enum Role: String, Sendable, Codable, CaseIterable {
    case reader, writer
  }
  public var id: Int64
  public var name: String
  public var role: Role

  /// The most characters a name has (`user add` refuses more; sign-in refuses them unread).
  public static let longestName = 100

  /// Whether a name is short enough: at most `longestName` characters, of at most 4 bytes each
  /// on average (one character can be a letter with any number of accents stacked on it).
  static func fits(_ name: String) -> Bool {
    name.utf8.count <= 4 * longestName && name.count <= longestName
  }

  public init(id: Int64, name: String, role: Role) {
    self.id = id
    self.name = name
    self.role = role
  }
}

extension TeamStore {
  /// Adds someone; names are unique (any case) and one line of printable characters.
  public func addPerson(name: String, role: Person.Role) async throws -> Person {
    let name = name.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, Person.fits(name),
      !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true })
    else {
      throw ServerError.usage(
        "a name must be one line of at most \(Person.longestName) characters, not blank")
    }
    if try await person(named: name) != nil {
      throw ServerError.failed("'\(name)' is already a person here; see `user list`")
    }
    let rows = try await run(
      "INSERT INTO person (name, role) VALUES (\(name), \(role.rawValue)) RETURNING id",
      logger: logger)
    for id in try rows.decode(Int64.self) {
      return Person(id: id, name: name, role: role)
    }
    throw ServerError.failed("'\(name)' was not added")
  }

  public func person(named name: String) async throws -> Person? {
    let rows = try await run(
      "SELECT id, name, role FROM person WHERE lower(name) = lower(\(name)) AND removed_at IS NULL",
      logger: logger)
    for (id, name, role) in try rows.decode((Int64, String, String).self) {
      return Person(id: id, name: name, role: Person.Role(rawValue: role) ?? .reader)
    }
    return nil
  }

  public func people() async throws -> [Person] {
    let rows = try await run(
      "SELECT id, name, role FROM person WHERE removed_at IS NULL ORDER BY lower(name)",
      logger: logger)
    var people: [Person] = []
    for (id, name, role) in try rows.decode((Int64, String, String).self) {
      people.append(Person(id: id, name: name, role: Person.Role(rawValue: role) ?? .reader))
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

  /// Changes someone's role; it counts from their next request (each request reads it).
  public func setRole(name: String, role: Person.Role) async throws -> Person {
    let rows = try await run(
      """
      UPDATE person SET role = \(role.rawValue)
      WHERE lower(name) = lower(\(name)) AND removed_at IS NULL RETURNING id, name
      """, logger: logger)
    for (id, name) in try rows.decode((Int64, String).self) {
      return Person(id: id, name: name, role: role)
    }
    throw ServerError.failed("nobody is called '\(name)' here; see `user list`")
  }

  /// Removes someone: their tokens are revoked and their web sessions end, in one statement, so
  /// their next request is refused. The row stays (marked removed) so that what they pushed still
  /// points at who pushed it; the name is free to be added again.
  public func removePerson(name: String) async throws -> Person {
    let rows = try await run(
      """
      WITH gone AS (
        UPDATE person SET removed_at = now(), password_hash = NULL
        WHERE lower(name) = lower(\(name)) AND removed_at IS NULL RETURNING id, name, role),
      revoked AS (
        UPDATE token SET revoked_at = now()
        WHERE revoked_at IS NULL AND person_id IN (SELECT id FROM gone)),
      ended AS (DELETE FROM web_session WHERE person_id IN (SELECT id FROM gone))
      SELECT id, name, role FROM gone
      """, logger: logger)
    for (id, name, role) in try rows.decode((Int64, String, String).self) {
      return Person(id: id, name: name, role: Person.Role(rawValue: role) ?? .reader)
    }
    throw ServerError.failed("nobody is called '\(name)' here; see `user list`")
  }
}
