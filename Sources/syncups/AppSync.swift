import Foundation
import TeamSync

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive app's sync, while it runs: once this laptop joined a team, `syncups sync
/// --quiet --wait 25` again and again in a process of its own (output to /dev/null), so what
/// others push is pulled within moments of its push (the server wakes the waiting pull) and
/// what is saved here goes out at the next round. The pulled rows land in the database, which
/// the app observes, so the screen redraws with them. With the server down or unreachable a
/// round fails quietly and the next one starts a few seconds later; the app never waits on it.
enum AppSync {
  /// Seconds a round waits on the server for others' changes.
  static let wait = 25

  /// Runs rounds until the task is cancelled; the round under way is then ended (SIGTERM: a
  /// sync stopped at any point loses nothing, its next run goes on).
  static func run(executable: String) async {
    while !Task.isCancelled {
      guard (try? TeamFile.current(say: false)) != nil else {
        try? await Task.sleep(for: .seconds(5))
        continue
      }
      let worked = await round(executable)
      try? await Task.sleep(for: worked ? .milliseconds(200) : .seconds(5))
    }
  }

  /// Starts the app's sync beside it, when this is the real `syncups` binary.
  static func start() -> Task<Void, Never>? {
    guard
      let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    return Task.detached { await run(executable: executable) }
  }

  /// One `syncups sync`, its exit awaited (no thread waits for it): true when it worked.
  private static func round(_ executable: String) async -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["sync", "--quiet", "--wait", String(wait)]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let (ended, continuation) = AsyncStream.makeStream(of: Int32.self)
    process.terminationHandler = { continuation.yield($0.terminationStatus) }
    guard (try? process.run()) != nil else { return false }
    let pid = process.processIdentifier
    return await withTaskCancellationHandler {
      var status: Int32 = -1
      for await value in ended {
        status = value
        break
      }
      return status == 0
    } onCancel: {
      kill(pid, SIGTERM)
      continuation.finish()
    }
  }
}
