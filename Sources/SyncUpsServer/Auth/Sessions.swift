import Crypto
import Foundation
import Hummingbird
import HummingbirdBcrypt
import NIOPosix
import PostgresNIO
import Synchronization

/// Web sessions in PostgreSQL: a random token in an HttpOnly cookie, only its SHA-256 kept.
extension TeamStore {
  /// How long a sign-in lasts (the cookie's Max-Age and the row's expiry).
  static let sessionLifetime: Int = 14 * 24 * 3600

  /// The person whose name and password these are, or nil (a wrong password, an unknown name,
  /// nobody with a password: the same nil, after the same bcrypt work, off the event loop).
  func person(name: String, password: String) async throws -> Person? {
    let rows = try await run(
      """
      SELECT id, name, password_hash FROM person
      WHERE lower(name) = lower(\(name)) AND removed_at IS NULL
      """, logger: logger)
    var found: (Person, String?)?
    for (id, name, hash) in try rows.decode((Int64, String, String?).self) {
      found = (Person(id: id, name: name), hash)
    }
    let hash = found?.1
    passwordChecks.add()
    let matches = try await NIOThreadPool.singleton.runIfActive {
      Bcrypt.verify(String(password.prefix(200)), hash: hash ?? Self.decoyHash)
    }
    guard let person = found?.0, hash != nil, matches else { return nil }
    return person
  }

  /// What a name without a password is checked against, so it costs as much as a real one.
  static let decoyHash = Bcrypt.hash("no one has this password", cost: passwordCost)
  /// The bcrypt cost of every password (and of the decoy).
  static let passwordCost: UInt8 = 10

  /// A new session for `person`; returns its token (for the cookie only).
  func startSession(for person: Person) async throws -> String {
    let token = Self.randomToken(prefix: "sus_")
    let hash = Self.hash(token: token)
    try await run(
      """
      INSERT INTO web_session (hash, person_id, expires_at)
      VALUES (\(hash), \(person.id), now() + make_interval(secs => \(Self.sessionLifetime)))
      """, logger: logger)
    try await run("DELETE FROM web_session WHERE expires_at < now()", logger: logger)
    return token
  }

  /// The person signed in with this session token, if it is ours and has not expired.
  func person(session token: String) async throws -> Person? {
    guard token.count <= 200 else { return nil }
    let hash = Self.hash(token: token)
    let rows = try await run(
      """
      SELECT person.id, person.name FROM web_session
      JOIN person ON person.id = web_session.person_id
      WHERE web_session.hash = \(hash) AND web_session.expires_at > now()
        AND person.removed_at IS NULL
      """, logger: logger)
    for (id, name) in try rows.decode((Int64, String).self) {
      return try await person(id: id, name: name)
    }
    return nil
  }

  func endSession(_ token: String) async throws {
    let hash = Self.hash(token: token)
    try await run("DELETE FROM web_session WHERE hash = \(hash)", logger: logger)
  }
}

/// How many passwords a store checked with bcrypt: every sign-in attempt pays for one, whatever
/// its name and password (a shortcut would tell by its speed which names exist).
public final class PasswordChecks: Sendable {
  private let count = Mutex(0)

  public init() {}

  func add() { count.withLock { $0 += 1 } }
  public var value: Int { count.withLock { $0 } }
}
