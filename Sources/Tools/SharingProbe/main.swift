// A tiny child program for Sharing's multi-process tests: it holds a file-storage value on the
// real disk and does one thing to it, so tests can kill it, signal it and race it.
import Dependencies
import Foundation
import Sharing

struct ProbeState: Codable, Equatable, Sendable {
  var count = 0
  var note = ""
  var padding = ""
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: SharingProbe MODE PATH [ARGS]\n".utf8))
  exit(2)
}
let mode = arguments[1]
let url = URL(fileURLWithPath: arguments[2])
// Modes that wait for a signal keep their last change pending for an hour, so only the
// termination flush can write it.
let waitsForSignal = ["pending", "handler", "keep-running", "exit"].contains(mode)

func signalReady() {
  _ = FileManager.default.createFile(atPath: url.path + ".ready", contents: Data())
}

func waitForever() -> Never {
  while true { sleep(60) }
}

withDependencies {
  $0.defaultFileStorage = waitsForSignal ? .fileSystem(saveInterval: .seconds(3600)) : .fileSystem
} operation: {
  @Shared(.fileStorage(url)) var state = ProbeState()
  if let error = $state.loadError {
    FileHandle.standardError.write(Data("load error: \(error)\n".utf8))
  }

  switch mode {
  case "hammer":
    // Mutate and write as fast as possible, with a large file so a kill often lands mid-write.
    let padding = String(repeating: "x", count: 256 * 1024)
    var first = true
    while true {
      $state.withLock {
        $0.count += 1
        $0.padding = padding
      }
      try? $state.save()
      if first {
        signalReady()
        first = false
      }
    }

  case "increment":
    $state.withLock { $0.count += 1 }
    try? $state.save()

  case "set":
    let count = Int(arguments[3]) ?? 0
    $state.withLock {
      $0.count = count
      $0.note = arguments.count > 4 ? arguments[4] : ""
    }
    try? $state.save()

  case "pending":
    $state.withLock { $0.count = 1 }
    try? $state.save()
    $state.withLock { $0.count = 2 }  // written only by the flush on SIGTERM
    signalReady()
    waitForever()

  case "handler":
    let shared = $state
    Termination.onSignal { _ in
      shared.withLock { $0.note = "saved by handler" }
      return .exit
    }
    signalReady()
    waitForever()

  case "keep-running":
    // The app takes over SIGTERM: the pending change is flushed, the process keeps running.
    Termination.onSignal { _ in .keepRunning }
    $state.withLock { $0.count = 1 }
    try? $state.save()
    $state.withLock { $0.count = 2 }
    signalReady()
    waitForever()

  case "exit":
    // A pending change is written by the flush at normal exit.
    $state.withLock { $0.count = 1 }
    try? $state.save()
    $state.withLock { $0.count = 2 }
    exit(0)

  default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
  }
}
