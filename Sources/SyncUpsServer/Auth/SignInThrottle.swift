import Foundation

/// Failed sign-ins in a row, per name and per client address. Attempts that share a key take
/// turns, and a failure keeps its turn while it waits (0.5 s, 1 s, 2 s, ... up to `longest`), so
/// parallel guesses for one name, or from one address, add their waits up instead of overlapping
/// them. A success clears the name's count; failures older than `memory` are forgotten.
///
/// Memory stays bounded whoever asks: at most `capacity` keys are remembered (the oldest
/// forgotten first), at most `queue` attempts wait for one key's turn and `concurrent` are in
/// progress in all; an attempt beyond those is refused at once (`Busy`), without any work.
public actor SignInThrottle {
  /// Too many attempts for this name or from this address (or in all) are waiting already.
  public struct Busy: Error {}

  private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
  /// The keys whose turn is taken, each with the attempts waiting for it, first come first.
  private var turns: [String: [CheckedContinuation<Void, Never>]] = [:]
  private var inProgress = 0

  let first: Duration
  let longest: Duration
  /// Failures older than this are forgotten.
  let memory: Duration
  let capacity: Int
  let queue: Int
  let concurrent: Int
  /// The furthest off a turn kept in PostgreSQL may be (`TeamStore.reserveSignInTurn`): an
  /// attempt whose turn is later is refused at once.
  let longestQueue: Duration

  public init(
    first: Duration = .milliseconds(500), longest: Duration = .seconds(10),
    memory: Duration = .seconds(900), capacity: Int = 10_000, queue: Int = 20,
    concurrent: Int = 256, longestQueue: Duration = .seconds(20)
  ) {
    self.longestQueue = longestQueue
    self.first = first
    self.longest = longest
    self.memory = memory
    self.capacity = capacity
    self.queue = queue
    self.concurrent = concurrent
  }

  static func keys(name: String, address: String?) -> [String] {
    ["name:" + name.lowercased()] + (address.map { ["address:" + $0] } ?? [])
  }

  /// Runs `check` (nil: the name and password do not match) in turn with every other attempt for
  /// the same name or from the same address. After a failure the turn passes on only once its
  /// wait is over; the answer comes after that too, so it tells nothing sooner.
  func attempt(
    name: String, address: String?, _ check: @Sendable () async throws -> Person?
  ) async throws -> Person? {
    guard inProgress < concurrent else { throw Busy() }
    inProgress += 1
    defer { inProgress -= 1 }
    let keys = Self.keys(name: name, address: address)
    let taken = try await take(keys)
    defer { taken.forEach(give) }
    guard let person = try await check() else {
      failed(keys)
      await Self.pause(delay(for: keys))
      return nil
    }
    succeeded(keys)
    return person
  }

  /// How long an attempt with these keys waits after failing now.
  func delay(for keys: [String], now: ContinuousClock.Instant = .now) -> Duration {
    let count = keys.map { recentFailures(of: $0, now: now) }.max() ?? 0
    guard count > 0 else { return .zero }
    let doubled = first * Int(pow(2.0, Double(min(count - 1, 20))))
    return min(doubled, longest)
  }

  func failed(_ keys: [String], now: ContinuousClock.Instant = .now) {
    for key in keys {
      let previous = recentFailures(of: key, now: now)
      if failures[key] == nil { makeRoom(now: now) }
      failures[key] = (previous + 1, now)
    }
  }

  func succeeded(_ keys: [String]) {
    failures[keys[0]] = nil
  }

  /// How many keys' failures are remembered, how many keys have a turn taken, and how many
  /// attempts wait for one (for tests).
  var remembered: Int { failures.count }
  var held: Int { turns.count }
  var waiting: Int { turns.values.reduce(0) { $0 + $1.count } }

  private func recentFailures(of key: String, now: ContinuousClock.Instant) -> Int {
    failures[key].flatMap { now - $0.last < memory ? $0.count : nil } ?? 0
  }

  /// Keeps the table under `capacity` keys: forgets the expired, then if it is still full of
  /// recent failures the oldest quarter at once (sorting it at every new key would be slow).
  private func makeRoom(now: ContinuousClock.Instant) {
    guard failures.count >= capacity else { return }
    failures = failures.filter { now - $0.value.last < memory }
    guard failures.count >= capacity else { return }
    let oldest = failures.sorted { $0.value.last < $1.value.last }.prefix(capacity / 4 + 1)
    for (key, _) in oldest { failures[key] = nil }
  }

  /// Takes the turn of each key, in one order for every attempt (so two attempts never each
  /// hold one key while waiting for the other's); refuses when a key has a full queue.
  private func take(_ keys: [String]) async throws -> [String] {
    var taken: [String] = []
    for key in keys.sorted() {
      if let waiting = turns[key] {
        guard waiting.count < queue else {
          taken.forEach(give)
          throw Busy()
        }
        await withCheckedContinuation { turns[key, default: []].append($0) }
      } else {
        turns[key] = []
      }
      taken.append(key)
    }
    return taken
  }

  /// Passes a key's turn to the attempt that waited longest for it, or frees the key.
  private func give(_ key: String) {
    guard var waiting = turns[key], !waiting.isEmpty else {
      turns[key] = nil
      return
    }
    let next = waiting.removeFirst()
    turns[key] = waiting
    next.resume()
  }

  /// Waits out a failure's delay even if the request is cancelled: a client that hangs up once
  /// it sees no quick success must not pass the turn to its next guess any sooner.
  static func pause(_ delay: Duration) async {
    guard delay > .zero else { return }
    await Task.detached { try? await Task.sleep(for: delay) }.value
  }
}
