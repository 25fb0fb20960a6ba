import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SyncUpsServer

/// The sign-in throttle is kept in PostgreSQL: two servers on one database count the same
/// failures, so a guesser spreading guesses over both gets no more tries than through one.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct SharedThrottleTests {
  @Test func fortyParallelGuessesThroughTwoServersCheckAtMostAHandful() async throws {
    let server = try await TestServer.make()
    // Ana's password at bcrypt's lowest cost, so the waits, not bcrypt, take the time.
    let cheap = "$2b$04$SBPdo8f1nmfPCZe7BvrE2eJpM.wv4V.QNAQ7RfF5EoC1p/h7VaqIa"
    try await server.store {
      try await $0.client.query("UPDATE person SET password_hash = \(cheap) WHERE name = 'Ana'")
    }
    @Sendable func throttle() -> SignInThrottle {
      SignInThrottle(
        first: .milliseconds(100), longest: .seconds(1), longestQueue: .seconds(2))
    }
    let statuses = try await server.test(throttle: throttle()) { one, first in
      try await server.test(throttle: throttle()) { other, second in
        let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
          for guess in 0..<40 {
            group.addTask {
              try await (guess % 2 == 0 ? one : other).signIn("ana", "guess \(guess)").status
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        let checks = first.passwordChecks.value + second.passwordChecks.value
        print("40 parallel guesses through two servers: \(checks) passwords checked")
        // Through one server's own throttle alone, all 40 were checked.
        #expect(checks <= 8, "\(checks) passwords checked")
        return statuses
      }
    }
    #expect(statuses.allSatisfy { $0 == .unauthorized || $0 == .tooManyRequests })
    #expect(statuses.contains(.tooManyRequests))
  }
}
