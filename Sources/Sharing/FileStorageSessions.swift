import Foundation

/// Something with writes to flush at exit.
protocol FlushableSession: AnyObject, Sendable {
  func flush() throws
}

/// Live file-storage sessions, weakly: every one in the process (`everywhere`, for the exit
/// flush) and those of one `FileStorage`.
final class FileStorageSessions: @unchecked Sendable {
  static let everywhere = FileStorageSessions()

  private final class Box: @unchecked Sendable {
    weak var session: (any FlushableSession)?
    init(_ session: any FlushableSession) { self.session = session }
  }
  private let lock = NSLock()
  private var boxes: [Box] = []

  func add(_ session: any FlushableSession) {
    lock.withLock {
      boxes.removeAll { $0.session == nil }
      boxes.append(Box(session))
    }
  }

  func flush() throws {
    var firstError: (any Error)?
    for session in lock.withLock({ boxes.compactMap(\.session) }) {
      do { try session.flush() } catch { firstError = firstError ?? error }
    }
    if let firstError { throw firstError }
  }
}
