import ErrorWords
import Foundation
import SyncClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Every request to the team server, its answer read as it arrives by the session's delegate.
/// FoundationNetworking's `data(for:)` gathers an answer whole and copies it at the end (a 300 MB
/// audio file peaked at 666 MB) and follows redirects with the `Authorization` header. Here an
/// answer is counted as it comes and refused past its bound, a file goes to disk chunk by chunk
/// on the delegate's own thread, and a redirect is never followed: its 3xx is the answer.
enum Transfers {
  /// Where a 2xx answer's body goes; any other answer's words are kept in memory (the first
  /// `wordsLimit` bytes), for the error they say.
  enum Destination: Sendable {
    case memory
    /// Created, or emptied first.
    case file(URL)
  }

  struct Answer: Sendable {
    var response: HTTPURLResponse
    /// The body, unless it went to a file.
    var data: Data
  }

  /// The most of an error's body that is kept: its sentence is at the start.
  static let wordsLimit = 64 * 1024

  static let delegate = Delegate()
  static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    // A session delegate (not a task's): only then does FoundationNetworking hand the body over
    // as it comes instead of gathering it.
    return URLSession(
      configuration: configuration, delegate: delegate, delegateQueue: BoundedQueue())
  }()

  /// The delegate's queue, with room for a few events only. FoundationNetworking reads as fast
  /// as the network gives and queues each chunk for the delegate without waiting: on a fast
  /// link the queue, not the file, held the download (a 300 MB one peaked at 127 MB on a loaded
  /// machine), and a bound was seen only after the whole answer had been read. Here adding to a
  /// full queue waits (on FoundationNetworking's own queue, never the cooperative pool), so it
  /// stops reading and the server waits for the laptop.
  final class BoundedQueue: OperationQueue, @unchecked Sendable {
    private let room = DispatchSemaphore(value: 32)

    override init() {
      super.init()
      maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @Sendable @escaping () -> Void) {
      // An event added from the queue itself must not wait for room only it would make.
      let waits = OperationQueue.current !== self
      if waits { room.wait() }
      let room = room
      super.addOperation {
        block()
        if waits { room.signal() }
      }
    }
  }

  /// Sends `request` (with `upload`'s bytes as its body, when given) and reads its answer
  /// into `destination`, at most `limit` bytes of it.
  static func run(
    _ request: URLRequest, upload: URL? = nil, into destination: Destination, limit: Int64
  ) async throws -> Answer {
    let receiver = Receiver(destination: destination, limit: limit)
    let task =
      upload.map { session.uploadTask(with: request, fromFile: $0) }
      ?? session.dataTask(with: request)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        receiver.continuation = continuation
        delegate.add(receiver, for: task)
        task.resume()
      }
    } onCancel: {
      stop(task)
    }
  }

  /// Cancels `task` from a thread of its own: `cancel()` waits for FoundationNetworking's queue,
  /// which may itself be waiting for room in the delegate's (`BoundedQueue`).
  static func stop(_ task: URLSessionTask) {
    DispatchQueue.global().async { task.cancel() }
  }

  /// The session's delegate: hands each task's events to its `Receiver`. FoundationNetworking
  /// calls it on one serial queue of its own (not the cooperative pool), so writing to disk
  /// there blocks nothing else.
  final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var receivers: [Int: Receiver] = [:]

    func add(_ receiver: Receiver, for task: URLSessionTask) {
      lock.withLock { receivers[task.taskIdentifier] = receiver }
    }

    private func receiver(_ task: URLSessionTask, remove: Bool = false) -> Receiver? {
      lock.withLock {
        remove
          ? receivers.removeValue(forKey: task.taskIdentifier) : receivers[task.taskIdentifier]
      }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @Sendable @escaping (URLRequest?) -> Void
    ) {
      // Never followed: the 3xx itself becomes the answer (see `HTTP.send`).
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
    ) {
      if receiver(dataTask)?.begin(response) == true { stop(dataTask) }
      completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      if receiver(dataTask)?.receive(data) == true { stop(dataTask) }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?
    ) {
      receiver(task, remove: true)?.finish(error)
    }
  }

  /// One answer as it arrives. Used only on the delegate's serial queue once its task runs.
  final class Receiver: @unchecked Sendable {
    let destination: Destination
    let limit: Int64
    var continuation: CheckedContinuation<Answer, any Error>?
    /// The answer's headers, once they came (kept here: asking the task for them at the end
    /// could wait on FoundationNetworking's queue).
    private var response: HTTPURLResponse?
    private var status: Int? { response?.statusCode }
    private var received: Int64 = 0
    private var data = Data()
    /// The file a 2xx answer goes to, open.
    private var fd: Int32 = -1
    /// Why the answer was cut short, when it was.
    private var failure: (any Error)?
    /// An error's body was longer than `wordsLimit`: the answer is its status, without words.
    private var wordsCut = false

    init(destination: Destination, limit: Int64) {
      self.destination = destination
      self.limit = limit
    }

    private var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// The headers came: a 2xx answer for a file goes to it. True: stop reading now.
    func begin(_ response: URLResponse) -> Bool {
      self.response = response as? HTTPURLResponse
      guard isSuccess else { return false }
      let expected = response.expectedContentLength
      if expected > limit { return fail(tooLarge) }
      switch destination {
      case .memory:
        if expected > 0 { data.reserveCapacity(Int(expected)) }
      case .file(let url):
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { return fail(writeProblem(url)) }
      }
      return false
    }

    /// A chunk of the body. True: stop reading now (past the bound, or it cannot be written);
    /// once stopped, later chunks are dropped.
    func receive(_ chunk: Data) -> Bool {
      guard failure == nil, !wordsCut else { return false }
      received += Int64(chunk.count)
      if received > limit { return fail(tooLarge) }
      guard fd >= 0, case .file(let url) = destination else {
        data.append(chunk)
        if !isSuccess, data.count > Transfers.wordsLimit { wordsCut = true }
        return wordsCut
      }
      let written = chunk.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if count < 0, errno == EINTR { continue }
          guard count > 0 else { return false }
          offset += count
        }
        return true
      }
      return !written && fail(writeProblem(url))
    }

    /// The end: the answer, or why there is none.
    func finish(_ error: (any Error)?) {
      if fd >= 0, close(fd) != 0, failure == nil, case .file(let url) = destination {
        failure = writeProblem(url)
      }
      fd = -1
      guard let continuation else { return }
      self.continuation = nil
      if let failure { return continuation.resume(throwing: failure) }
      // A cut error body ends in a cancelled task: the status is the answer.
      if let error, !wordsCut { return continuation.resume(throwing: error) }
      guard let response else {
        return continuation.resume(throwing: SyncFailure.unreadable("not HTTP"))
      }
      continuation.resume(returning: Answer(response: response, data: wordsCut ? Data() : data))
    }

    private var tooLarge: SyncFailure {
      if case .file = destination { return .tooLarge(what: "audio", limit: limit) }
      return .tooLarge(what: "an answer", limit: limit)
    }

    /// Keeps why the answer stops here; true (stop reading).
    private func fail(_ error: any Error) -> Bool {
      failure = error
      return true
    }

    private func writeProblem(_ url: URL) -> SyncFailure {
      .cannotKeep("cannot write \(url.path) (\(ErrorWords.reason(errno: errno)))")
    }
  }
}
