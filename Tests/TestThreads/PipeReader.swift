import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a pipe on a thread of its own until its end, handing each piece to `received`. Not a
/// `readabilityHandler`: its dispatch source, left registered while the pipe closed, crashed
/// libdispatch's event loop and with it the whole test run.
public final class PipeReader: @unchecked Sendable {
  private let lock = NSLock()
  private var ended = false

  public init(_ handle: FileHandle, received: @escaping @Sendable (Data) -> Void) {
    Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(handle.fileDescriptor, &buffer, buffer.count)
        if count > 0 {
          received(Data(buffer[..<count]))
        } else if count < 0, errno == EINTR {
          continue
        } else {
          break
        }
      }
      lock.withLock { ended = true }
    }.start()
  }

  /// True once the writers closed the pipe and everything was handed over.
  public var hasEnded: Bool { lock.withLock { ended } }

  /// Waits (without blocking a thread) until the end, or `timeout`, a safety net.
  public func waitForEnd(timeout: Duration = .seconds(600)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !hasEnded, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return hasEnded
  }
}
