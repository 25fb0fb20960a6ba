import ConcurrencyExtras
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Flushes pending file-storage writes when the process ends: at normal exit (`atexit`) and on
/// the signals that ask a program to end (`signals`: SIGINT, SIGTERM, SIGHUP when the terminal
/// closes, SIGQUIT). Installed automatically by the first file-storage value on the real disk.
///
/// On any of them the handlers registered with `onSignal` run first (newest first, on a
/// background queue, not in signal context, so they may do anything, e.g. save the meeting
/// being recorded into shared state); then every pending write is flushed; then, unless a
/// handler answered `.keepRunning`, the signal's default action ends the process (so the exit
/// status still says "killed by SIGINT/SIGTERM/SIGHUP"); SIGQUIT ends it with status 131
/// instead of its default core dump. An app that keeps running after a signal
/// ends later with `exit(_:)`, which flushes again at exit.
public enum Termination {
  public enum Decision: Sendable {
    /// Flush and end the process.
    case exit
    /// Flush and keep running: the app ends itself later.
    case keepRunning
  }

  private struct State {
    var installed = false
    var handlers: [Int: @Sendable (Int32) -> Decision] = [:]
    var nextID = 0
  }
  /// Kept alive for the life of the process; written once, by the first `installHandlers`.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
  private static let state = LockIsolated(State())
  private static let queue = DispatchQueue(label: "Sharing.Termination")

  /// Identifies a handler added with `onSignal`; it stays until `remove()` is called.
  public struct Registration: Sendable {
    let id: Int
    public func remove() { state.withValue { _ = $0.handlers.removeValue(forKey: id) } }
  }

  /// The signals that end the program the way Ctrl-C does.
  public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Runs `handler` when one of `signals` arrives, before pending writes are flushed. Installs
  /// the signal handling if it is not installed yet. The handler stays until removed.
  @discardableResult
  public static func onSignal(
    _ handler: @escaping @Sendable (_ signal: Int32) -> Decision
  ) -> Registration {
    installHandlers()
    return state.withValue { state in
      defer { state.nextID += 1 }
      state.handlers[state.nextID] = handler
      return Registration(id: state.nextID)
    }
  }

  /// Installs the exit flush and the handling of `signals` (once; later calls do nothing).
  public static func installHandlers() {
    let install = state.withValue { state in
      defer { state.installed = true }
      return !state.installed
    }
    guard install else { return }
    atexit { try? FileStorage.flushAll() }
    for signalNumber in signals {
      signal(signalNumber, SIG_IGN)  // delivered to the dispatch source instead
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      source.setEventHandler { handle(signalNumber) }
      source.resume()
      sources.append(source)
    }
  }

  private static func handle(_ signalNumber: Int32) {
    let handlers = state.withValue { $0.handlers.sorted { $0.key > $1.key }.map(\.value) }
    var decision = Decision.exit
    for handler in handlers where handler(signalNumber) == .keepRunning {
      decision = .keepRunning
    }
    try? FileStorage.flushAll()
    guard decision == .exit else { return }
    // Asked to quit, not crashed: no core dump.
    if signalNumber == SIGQUIT { _exit(128 + SIGQUIT) }
    // End the way the signal would have: default action, delivered to this very thread
    // (dispatch's worker threads block the signal, so unblock it here first).
    signal(signalNumber, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signalNumber)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signalNumber)
    _exit(128 + signalNumber)  // not reached
  }
}
