import Foundation
import Hummingbird
import Logging
import TestSupport

/// A team chat's incoming webhook for the tests: a Hummingbird app on 127.0.0.1 (a free port)
/// that records every request to `/hooks/KEY` and answers as told: 500 to the first
/// `failures`, then 200 `ok` (as Slack and Mattermost do); or, while `hanging`, never (until
/// it is stopped).
final class ChatReceiver: @unchecked Sendable {
  struct Received: Sendable {
    var path: String
    var contentType: String
    var body: Data
    /// Whether it was answered 200.
    var taken: Bool

    /// The `text` of its JSON (nil when it is not `{"text": "..."}`).
    var text: String? {
      (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["text"] as? String
    }
  }

  private let lock = NSLock()
  private var received: [Received] = []
  private var failuresLeft: Int
  private var hang: Bool
  private let released = OneShot<Bool>()
  private var task: Task<Void, any Error>?
  private(set) var port = 0

  private init(failures: Int, hanging: Bool) {
    failuresLeft = failures
    hang = hanging
  }

  /// Started, listening; `failures` first answers are 500.
  static func start(failures: Int = 0, hanging: Bool = false) async throws -> ChatReceiver {
    let receiver = ChatReceiver(failures: failures, hanging: hanging)
    let router = Router()
    router.post("hooks/:key") { request, _ -> Response in
      try await receiver.answer(request)
    }
    var logger = Logger(label: "chat-receiver")
    logger.logLevel = .error
    let listening = OneShot<Int>()
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { listening.happen($0.localAddress?.port ?? 0) }, logger: logger)
    receiver.task = Task { try await app.runService(gracefulShutdownSignals: []) }
    guard let port = await listening.wait(), port > 0 else {
      receiver.stop()
      throw TestPostgresProblem(reason: "the chat receiver did not start")
    }
    receiver.port = port
    return receiver
  }

  /// The webhook's URL, with `key` as its secret part.
  func url(key: String = "T000-B000-secret-key") -> String {
    "http://127.0.0.1:\(port)/hooks/\(key)"
  }

  var all: [Received] { lock.withLock { received } }
  /// The posts it took (answered 200).
  var taken: [Received] { all.filter(\.taken) }

  func stop() {
    released.happen(true)
    task?.cancel()
  }

  private func answer(_ request: Request) async throws -> Response {
    var request = request
    let body = try await request.collectBody(upTo: 1 << 20)
    let (fail, hang) = lock.withLock {
      let fail = failuresLeft > 0
      if fail { failuresLeft -= 1 }
      return (fail, self.hang)
    }
    let record = Received(
      path: request.uri.path, contentType: request.headers[.contentType] ?? "",
      body: Data(buffer: body), taken: !fail && !hang)
    lock.withLock { received.append(record) }
    if hang { _ = await released.wait() }
    return Response(
      status: fail || hang ? .internalServerError : .ok,
      body: .init(byteBuffer: ByteBuffer(string: fail ? "boom" : "ok")))
  }
}
