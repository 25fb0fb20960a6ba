import Foundation
import TestSupport

/// Waits until nothing is left in the background of data directory `home`: no `syncups
/// sentences` of it still runs (the whole-sentence passes left to do, the team's words they
/// change, the voices' adaptations). A pass that is done is not yet everything: its words and
/// adaptations are learned after it, so a test that looked only at the passes left to do read
/// the store too early on a loaded machine. Call it once the command or app that started the
/// background process has saved its meeting (the process is started before that, so it is
/// there to be seen). False past the safety net.
public func waitForBackgroundLearning(_ home: URL) async -> Bool {
  await waitUntil(every: .milliseconds(50)) { backgroundLearners(of: home).isEmpty }
}

/// The processes running `syncups sentences` with `SYNCUPS_HOME` set to `home`.
public func backgroundLearners(of home: URL) -> [Int32] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap(Int32.init).filter { pid in
    let arguments = nulSeparated("/proc/\(pid)/cmdline")
    guard arguments.count >= 2, arguments[1] == "sentences" else { return false }
    return nulSeparated("/proc/\(pid)/environ").contains("SYNCUPS_HOME=\(home.path)")
  }
}

/// A /proc file of NUL-separated strings (empty when the process is gone).
private func nulSeparated(_ path: String) -> [String] {
  guard let data = FileManager.default.contents(atPath: path) else { return [] }
  return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
}
