import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// How the posts to the teams' webhooks are made and tried again.
public struct WebhookSettings: Sendable {
  /// The longest one post may take, from connecting to the answer's last byte read.
  public var timeout: Duration = .seconds(10)
  /// How long a server holds a post it claimed before another may take it: above `timeout`,
  /// so only a server that died (or lost the database) while posting lets another post again.
  public var lease: Duration = .seconds(60)
  /// The wait after the first failure; each further one doubles it, up to `longestWait`.
  public var firstWait: Duration = .seconds(5)
  public var longestWait: Duration = .seconds(1800)
  /// Tries before a post is given up (kept in `webhook_post` with its last error).
  public var attempts = 12
  /// The longest the poster sleeps when no push wakes it (it looks for due retries and posts
  /// another server claimed and let go).
  public var idle: Duration = .seconds(30)
  /// Posts made at once (each to its own meeting).
  public var batch = 8
  /// The most of a receiver's answer that is read (the rest is never read).
  public var answerBytes = 64 * 1024

  public init() {}

  /// The wait before try `attempt + 1`, after try `attempt` failed (1 is the first).
  func wait(after attempt: Int) -> Duration {
    let doublings = min(max(attempt - 1, 0), 30)
    let wait = firstWait * (1 << doublings)
    return min(wait, longestWait)
  }
}

/// Posts each new meeting's digest to its team's webhook, in the background of every server on
/// the database: woken by every push (`ChangesWatcher`), it claims the posts that are due
/// (`TeamStore.claimPosts`: one server per post), posts them with a timeout, never following a
/// redirect, and deletes each the receiver took; a failure is tried again later, waiting twice
/// as long each time. A push never waits for it. The webhook's URL is never logged whole.
public struct WebhookPoster: Service {
  let store: TeamStore
  let watcher: ChangesWatcher
  let settings: WebhookSettings
  let logger: Logger

  public init(
    store: TeamStore, watcher: ChangesWatcher, settings: WebhookSettings, logger: Logger
  ) {
    self.store = store
    self.watcher = watcher
    self.settings = settings
    self.logger = logger
  }

  public func run() async throws {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(
        connect: .init(settings.timeout), read: .init(settings.timeout)))
    configuration.httpVersion = .http1Only
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    // A graceful shutdown cancels it; a post cut short stays claimed until its lease ends. The
    // shutdown does not wait for the loop: a query still waiting for its first connection does
    // not end when cancelled (a server stopped right after it started hung so), and the
    // database client's own shutdown, after this service's, ends it.
    let posting = Task { await loop(http) }
    try? await gracefulShutdown()
    posting.cancel()
    try? await http.shutdown()
  }

  private func loop(_ http: HTTPClient) async {
    while !Task.isCancelled {
      let generation = await watcher.generation
      do {
        try await postDue(http)
        if Task.isCancelled { break }
        let due = try await store.nextPostDue() ?? settings.idle
        // Never a busy loop: a post another server holds is looked at again after a while.
        let wait = max(min(due, settings.idle), .milliseconds(50))
        await watcher.wait(after: generation, upTo: wait)
      } catch {
        if Task.isCancelled { break }
        logger.warning(
          "webhook posts: the database failed; trying again in 1 s: \(String(describing: error))")
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  /// Claims and posts what is due until nothing is.
  func postDue(_ http: HTTPClient) async throws {
    while !Task.isCancelled {
      let posts = try await store.claimPosts(limit: settings.batch, lease: settings.lease)
      if posts.isEmpty { return }
      await withTaskGroup(of: Void.self) { group in
        for post in posts { group.addTask { await self.post(post, http) } }
      }
    }
  }

  /// One try of one post, and what it comes to in the database. A failure of the database
  /// leaves the post claimed: another try comes when its lease ends.
  private func post(_ post: WebhookPost, _ http: HTTPClient) async {
    do {
      guard let text = try await store.webhook(team: post.team), let url = try? WebhookURL(text)
      else {
        logger.info(
          "webhook: team \(post.team) has no webhook now; meeting \(post.meeting) not posted")
        return try await store.postDelivered(post)
      }
      guard let found = try await store.meetingDigest(post.meeting),
        let heading = try await store.postHeading(syncUp: found.syncUpID)
      else {
        logger.info(
          "webhook: meeting \(post.meeting) or its sync-up was deleted before it was posted")
        return try await store.postDelivered(post)
      }
      let body = try ChatPost(found, syncUp: heading.title, team: heading.team).json()
      let failure = await send(body, to: url, http)
      // The server stops: the post stays claimed, and is tried again when its lease ends.
      if Task.isCancelled { return }
      guard let failure else {
        try await store.postDelivered(post)
        logger.info(
          "webhook: posted meeting \(post.meeting) to team \(heading.team)'s \(url.redacted)")
        return
      }
      let giveUp = failure.final || post.attempt >= settings.attempts
      let wait = giveUp ? nil : settings.wait(after: post.attempt)
      try await store.postFailed(post, error: failure.reason, retryAfter: wait)
      let next = wait.map { "trying again in \($0)" } ?? "given up"
      logger.warning(
        "webhook: posting meeting \(post.meeting) to team \(heading.team)'s \(url.redacted) failed (try \(post.attempt) of \(settings.attempts)): \(failure.reason); \(next)"
      )
    } catch {
      logger.warning(
        "webhook: meeting \(post.meeting): the database failed; it is tried again once its claim ends: \(String(describing: error))"
      )
    }
  }

  /// Why a post failed, and whether trying again can help.
  struct Failure: Error {
    var reason: String
    var final = false
  }

  /// Posts `body`; nil when the receiver answered 2xx. The request runs in a task of its own,
  /// so neither the timeout nor the server's shutdown ever waits for a receiver that hangs.
  func send(_ body: Data, to url: WebhookURL, _ http: HTTPClient) async -> Failure? {
    let (limit, timeout, target) = (settings.answerBytes, settings.timeout, url.text)
    let request = Task<Failure?, any Error> {
      var request = HTTPClientRequest(url: target)
      request.method = .POST
      request.headers.add(name: "Content-Type", value: "application/json")
      request.headers.add(name: "User-Agent", value: "syncups-server")
      request.body = .bytes(ByteBuffer(bytes: body))
      let response = try await http.execute(request, timeout: .init(timeout))
      var read = 0
      for try await part in response.body {
        read += part.readableBytes
        if read >= limit { break }
      }
      return Self.failure(status: Int(response.status.code))
    }
    let answer = FirstAnswer()
    let timer = Task {
      try? await Task.sleep(for: timeout)
      answer.give(Failure(reason: "no answer within \(timeout)"))
    }
    let waiter = Task {
      do {
        answer.give(try await request.value)
      } catch {
        answer.give(Failure(reason: Self.words(error, hiding: url)))
      }
    }
    let first = await withTaskCancellationHandler {
      await answer.value()
    } onCancel: {
      answer.give(Failure(reason: "the server stopped before the answer came"))
    }
    request.cancel()
    timer.cancel()
    _ = waiter
    return first
  }

  /// What a status comes to: nil for 2xx; a redirect or a 4xx other than 408 and 429 is final
  /// (the same request would get the same answer).
  static func failure(status: Int) -> Failure? {
    switch status {
    case 200..<300: return nil
    case 300..<400:
      return Failure(
        reason: "answered \(status), a redirect, which is not followed: set the URL it names",
        final: true)
    case 408, 429: return Failure(reason: "answered \(status)")
    case 400..<500:
      return Failure(
        reason: "answered \(status): check the team's webhook (syncups-server team webhook)",
        final: true)
    default: return Failure(reason: "answered \(status)")
    }
  }

  /// An error in one line, with the webhook's URL (and its path, which holds its key) never
  /// in it.
  static func words(_ error: any Error, hiding url: WebhookURL) -> String {
    var text = String(describing: error).split(separator: "\n").first.map(String.init) ?? ""
    for secret in [url.text, url.url.path] where secret.count > 1 {
      text = text.replacingOccurrences(of: secret, with: "…")
    }
    return String(text.prefix(300))
  }
}

/// The first of several answers (a response, a timeout, a shutdown); the others are dropped.
final class FirstAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var answer: WebhookPoster.Failure??
  private var waiting: CheckedContinuation<WebhookPoster.Failure?, Never>?

  func give(_ value: WebhookPoster.Failure?) {
    let waiter: CheckedContinuation<WebhookPoster.Failure?, Never>? = lock.withLock {
      guard answer == nil else { return nil }
      answer = .some(value)
      defer { waiting = nil }
      return waiting
    }
    waiter?.resume(returning: value)
  }

  func value() async -> WebhookPoster.Failure? {
    await withCheckedContinuation { continuation in
      let now: WebhookPoster.Failure?? = lock.withLock {
        if let answer { return .some(answer) }
        waiting = continuation
        return .none
      }
      if let now { continuation.resume(returning: now) }
    }
  }
}
