import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Tests never touch the real home: every program a test starts (`ChildProcess`,
/// `CleanSpawn.start`, and so every `syncups`, tmux and the programs in its panes) gets a `HOME`
/// and XDG folders of the test's own, so it never reads the config, the default data directory
/// or the team of the machine the suite runs on (a `make test` on a laptop that joined a team
/// pushed its fixtures there). A test that names its own folders keeps them.
public enum TestHome {
  /// The variables that name a user's folders, each under `HOME` as programs default them.
  static let folders = [
    ("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
    ("XDG_STATE_HOME", ".local/state"), ("XDG_CACHE_HOME", ".cache"),
  ]

  /// `environment` with `HOME` and the XDG folders the test did not choose (missing, or as
  /// `real`, the test process's own) set to the test's home (`current`) and folders in it.
  public static func seal(
    _ environment: [String: String],
    real: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String: String] {
    var sealed = environment
    func chosen(_ name: String) -> Bool {
      guard let value = environment[name], !value.isEmpty else { return false }
      return value != real[name]
    }
    if !chosen("HOME") { sealed["HOME"] = current().path }
    let home = URL(fileURLWithPath: sealed["HOME"]!, isDirectory: true)
    for (name, path) in folders where !chosen(name) {
      sealed[name] = home.appendingPathComponent(path).path
    }
    return sealed
  }

  /// The running test's home: one folder per test function (its parameterized cases share
  /// it), under a folder of this test process that goes when it exits; outside a test (a
  /// detached task), a fresh one.
  public static func current() -> URL {
    homes.folder(for: Test.current?.id)
  }

  private static let homes = Homes()

  private final class Homes: @unchecked Sendable {
    private let lock = NSLock()
    private var byTest: [Test.ID: URL] = [:]
    private var count = 0

    func folder(for test: Test.ID?) -> URL {
      lock.withLock {
        if let test, let url = byTest[test] { return url }
        count += 1
        let url = TestHome.root.appendingPathComponent("home-\(count)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if let test { byTest[test] = url }
        return url
      }
    }
  }

  /// This test process's homes, removed when it exits.
  static let root: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-tests-home-\(getpid())", isDirectory: true)
    // Left by an earlier process of the same id that crashed: not this one's.
    try? FileManager.default.removeItem(at: url)
    atexit { try? FileManager.default.removeItem(at: TestHome.root) }
    return url
  }()
}
