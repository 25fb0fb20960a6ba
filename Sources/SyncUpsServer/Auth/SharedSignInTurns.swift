import Foundation
import PostgresNIO

/// The sign-in throttle's turns kept in PostgreSQL, so that every server on one database counts
/// the same failures: two servers never give a guesser twice the tries. Each attempt reserves
/// its turn as if it will fail (its name's and its address's failures in a row plus one, the
/// next turn pushed back by the wait that many failures earn: `first`, doubled each time, at
/// most `longest`), then waits for it without holding a connection; a success clears the
/// name's count. An attempt whose turn is further off than `longestQueue` is refused at once.
extension TeamStore {
  /// How long to wait before checking this attempt, or nil when its turn is too far off
  /// (nothing is reserved then).
  func reserveSignInTurn(_ keys: [String], throttle: SignInThrottle) async throws -> Duration? {
    let first =
      Double(throttle.first.components.seconds)
      + Double(throttle.first.components.attoseconds) / 1e18
    let longest =
      Double(throttle.longest.components.seconds)
      + Double(throttle.longest.components.attoseconds) / 1e18
    let memory = Double(throttle.memory.components.seconds)
    let queue =
      Double(throttle.longestQueue.components.seconds)
      + Double(throttle.longestQueue.components.attoseconds) / 1e18
    do {
      return try await client.inTransaction(logger: logger) { connection in
        try await connection.run(
          """
          DELETE FROM sign_in_turn WHERE key IN (SELECT key FROM sign_in_turn
            WHERE last < now() - make_interval(secs => \(memory)) LIMIT 10)
          """, logger: logger)
        let waits = try await connection.run(
          """
          INSERT INTO sign_in_turn AS t (key, failures, next_turn, last)
          SELECT key, 1, now() + make_interval(secs => \(first)), now()
          FROM unnest(\(keys)::text[]) AS key
          ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN t.last < now() - make_interval(secs => \(memory)) THEN 1
              ELSE t.failures + 1 END,
            next_turn = greatest(now(), t.next_turn) + make_interval(secs => least(
              \(first) * power(2, least(CASE WHEN t.last < now() - make_interval(secs => \(memory))
                THEN 1 ELSE t.failures + 1 END, 21) - 1), \(longest))),
            last = now()
          RETURNING (extract(epoch FROM next_turn - now())
            - least(\(first) * power(2, least(failures, 21) - 1), \(longest)))::float8
          """, logger: logger
        ).all(Double.self)
        let wait = max(0, waits.max() ?? 0)
        guard wait <= queue else { throw SignInThrottle.Busy() }
        return .milliseconds(Int64((wait * 1000).rounded(.up)))
      }
    } catch is SignInThrottle.Busy {
      return nil
    }
  }

  /// A success: the name's failures are forgotten, on every server.
  func clearSignInFailures(_ key: String) async throws {
    try await run(
      "UPDATE sign_in_turn SET failures = 0, next_turn = now() WHERE key = \(key)", logger: logger)
  }
}
