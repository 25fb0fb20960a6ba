import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Connections opened around a client's pool when the pool lends none in time.
///
/// After PostgreSQL was gone, PostgresNIO's pool tries again only when its backoff says (100 ms
/// growing by a quarter each failure, up to a minute: after 48 s down its next try came 5.45 s
/// after PostgreSQL was back), and after 15 s down with no connection left it refuses every
/// borrowing at once until then. And a pool that is only slow to open its connections (a loaded
/// machine, dozens of requests at once) is not PostgreSQL gone. So a borrowing the pool does not
/// serve within `PostgresClient.leaseWait` asks PostgreSQL itself, by connecting: refused, the
/// request is a 503 at once; connected, that connection serves the request. At most `most` such
/// connections are open at once (the pool's limit stays what bounds PostgreSQL's connections);
/// a borrowing that finds none free goes by what the latest one found.
final class DirectConnections: Sendable {
  static let shared = DirectConnections()

  static let most = 4

  private struct Target: Sendable {
    var configuration: PostgresConnection.Configuration
    var logger: Logger
  }

  private struct State {
    var targets: [ObjectIdentifier: Target] = [:]
    /// What the latest connection to each client's PostgreSQL found, and when.
    var seen: [ObjectIdentifier: (at: ContinuousClock.Instant, reachable: Bool)] = [:]
    /// Clients whose PostgreSQL answered a connection of ours since their pool last lent one:
    /// their pool is behind (still waiting out its backoff), so a borrowing steps in at once.
    var lagging: Set<ObjectIdentifier> = []
    var open = 0
    var nextID = 0
  }

  private let state = Mutex(State())

  /// Where `client`'s pool connects, so that a borrowing it does not serve can connect there.
  func register(
    _ client: PostgresClient, _ configuration: PostgresConnection.Configuration, logger: Logger
  ) {
    var configuration = configuration
    configuration.options.connectTimeout = .seconds(2)
    let target = Target(configuration: configuration, logger: logger)
    state.withLock { $0.targets[ObjectIdentifier(client)] = target }
  }

  /// How long a borrowing waits for `client`'s pool before it steps in: `leaseWait`, or a
  /// moment when the pool is behind PostgreSQL (every query of a request would wait
  /// `leaseWait` otherwise) or PostgreSQL was last found gone (the pool, waiting out its
  /// backoff, would hold the first requests after PostgreSQL's return for `leaseWait` each:
  /// 2.1 s to recover after 45 s down, 6.3 s on a loaded machine).
  func patience(for client: PostgresClient) -> Duration {
    let key = ObjectIdentifier(client)
    let behind = state.withLock { $0.lagging.contains(key) || $0.seen[key]?.reachable == false }
    return behind ? .milliseconds(50) : PostgresClient.leaseWait
  }

  /// `client`'s pool lent a connection: it has caught up, and PostgreSQL is there.
  func poolLent(_ client: PostgresClient) {
    let key = ObjectIdentifier(client)
    state.withLock { state in
      if state.lagging.contains(key) { state.lagging.remove(key) }
      if state.seen[key]?.reachable == false { state.seen[key] = nil }
    }
  }

  /// Serves `handoff` around `client`'s pool, unless it was served meanwhile: a connection of
  /// its own when PostgreSQL answers, `DatabaseUnavailable` when it does not.
  func stepIn(for client: PostgresClient, _ handoff: Handoff) async {
    let key = ObjectIdentifier(client)
    while !handoff.isSettled, !Task.isCancelled {
      let (target, id, seen): (Target?, Int?, (at: ContinuousClock.Instant, reachable: Bool)?) =
        state.withLock { state in
          let free = state.open < Self.most && state.targets[key] != nil
          if free {
            state.open += 1
            state.nextID += 1
          }
          return (state.targets[key], free ? state.nextID : nil, state.seen[key])
        }
      guard let target else {
        // A client made elsewhere: it cannot be asked around its pool.
        handoff.fail(DatabaseUnavailable())
        return
      }
      if let id {
        await connect(to: target, id: id, key: key, for: handoff)
        return
      }
      if let seen, !seen.reachable, ContinuousClock.now - seen.at < .seconds(1) {
        handoff.fail(DatabaseUnavailable())
        return
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
  }

  private func connect(
    to target: Target, id: Int, key: ObjectIdentifier, for handoff: Handoff
  ) async {
    let connection: PostgresConnection
    do {
      connection = try await PostgresConnection.connect(
        configuration: target.configuration, id: id, logger: target.logger)
    } catch {
      state.withLock { state in
        state.open -= 1
        state.seen[key] = (ContinuousClock.now, false)
      }
      handoff.fail(DatabaseUnavailable(reason: DatabaseProblem.words(error)))
      return
    }
    state.withLock { state in
      state.seen[key] = (ContinuousClock.now, true)
      state.lagging.insert(key)
    }
    if !handoff.lend(.direct(connection)) { close(connection) }
  }

  /// Closes a connection opened around the pool, and frees its place.
  func close(_ connection: PostgresConnection) {
    Task {
      try? await connection.close()
      state.withLock { $0.open -= 1 }
    }
  }
}
