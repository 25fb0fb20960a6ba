import Crypto
import Foundation
import PostgresNIO

/// A token as `token list` shows it (never the token itself: only its hash is kept).
public struct TokenInfo: Equatable, Sendable {
  public var id: Int64
  public var person: String
  public var created: Date
  public var revoked: Date?
}

/// The API's tokens and what every token shares with the web sessions: a random secret shown
/// once, of which only its SHA-256 is kept.
extension TeamStore {
  /// Makes a new token for someone; the token is returned once and only its hash is kept.
  public func createToken(for name: String) async throws -> (id: Int64, token: String) {
    guard let person = try await person(named: name) else {
      throw ServerError.failed("nobody is called '\(name)' here; add them with `user add`")
    }
    let token = Self.randomToken(prefix: "sut_")
    let hash = Self.hash(token: token)
    let rows = try await run(
      "INSERT INTO token (person_id, hash) VALUES (\(person.id), \(hash)) RETURNING id",
      logger: logger)
    for id in try rows.decode(Int64.self) {
      return (id, token)
    }
    throw ServerError.failed("the token was not saved")
  }

  /// Revokes a token: the next request that shows it is refused. Its person's web sessions end
  /// too: a revocation is how someone's access is stopped, and a session is access as well.
  public func revokeToken(id: Int64) async throws {
    let rows = try await run(
      """
      WITH revoked AS (
        UPDATE token SET revoked_at = coalesce(revoked_at, now()) WHERE id = \(id)
        RETURNING id, person_id),
      ended AS (DELETE FROM web_session WHERE person_id IN (SELECT person_id FROM revoked))
      SELECT id FROM revoked
      """, logger: logger)
    var found = false
    for _ in rows { found = true }
    guard found else { throw ServerError.failed("there is no token \(id); see `token list`") }
  }

  public func tokens() async throws -> [TokenInfo] {
    let rows = try await run(
      """
      SELECT token.id, person.name, token.created_at, token.revoked_at
      FROM token JOIN person ON person.id = token.person_id ORDER BY token.id
      """, logger: logger)
    var tokens: [TokenInfo] = []
    for (id, name, created, revoked) in try rows.decode((Int64, String, Date, Date?).self) {
      tokens.append(TokenInfo(id: id, person: name, created: created, revoked: revoked))
    }
    return tokens
  }

  /// The person a token belongs to, if it is one of ours and not revoked.
  public func person(token: String) async throws -> Person? {
    let hash = Self.hash(token: token)
    let rows = try await run(
      """
      SELECT person.id, person.name FROM token
      JOIN person ON person.id = token.person_id
      WHERE token.hash = \(hash) AND token.revoked_at IS NULL AND person.removed_at IS NULL
      """, logger: logger)
    for (id, name) in try rows.decode((Int64, String).self) {
      return try await person(id: id, name: name)
    }
    return nil
  }

  static func hash(token: String) -> Data {
    Data(SHA256.hash(data: Data(token.utf8)))
  }

  /// A token no one can guess: `prefix` and 32 random bytes in hex.
  static func randomToken(prefix: String) -> String {
    var generator = SystemRandomNumberGenerator()
    return prefix + (0..<32).map { _ in String(format: "%02x", generator.next() as UInt8) }.joined()
  }
}
