import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a pipe on a thread of its own until its end, handing each piece to `received`. Not a
/// `readabilityHandler`: its dispatch source, left registered while the pipe closed, crashed
/// libdispatch's event loop and with it the whole test run.
public final class PipeReader: Sendable {
  private let ended = OneShot<Void>()

  public init(_ handle: FileHandle, received: @escaping @Sendable (Data) -> Void) {
    Thread { [ended] in
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
      ended.happen(())
    }.start()
  }

  /// True once the writers closed the pipe and everything was handed over.
  public var hasEnded: Bool { ended.happened != nil }

  /// Waits (without holding a thread) for the end; false after `timeout`, a safety net.
  public func waitForEnd(timeout: Duration = safetyNet) async -> Bool {
    await ended.wait(timeout: timeout) != nil
  }
}
