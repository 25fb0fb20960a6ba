import Dependencies
import Foundation
import Sharing
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// File storage on a real temporary directory, with a second process (SharingProbe) where the
/// guarantee is about processes. Timing is only used as an upper bound to wait for.
@Suite struct DiskPersistenceTests {
  @Test func probeIsBuilt() {
    #expect(Probe.executable != nil, "SharingProbe should be built next to the test bundle")
  }

  @Test func killedWhileWritingLeavesADecodableFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    var lastCount = 0
    for round in 1...20 {
      let process = try Probe.start("hammer", file)
      #expect(await Probe.waitUntilReady(file), "round \(round): the probe never wrote")
      // Let it write for a while (each write is a 256 KB file), then kill it mid-flight.
      try await Task.sleep(for: .milliseconds(Int.random(in: 5...60)))
      kill(process.processIdentifier, SIGKILL)
      await process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)
      let state = try decodeProbeState(file)  // throws if the file is garbage
      #expect(state.count > lastCount, "round \(round): each run adds to the last")
      lastCount = state.count
    }
    // Only the data file, its lock file and possibly a temporary left by a kill.
    let names = Set(try directory.contents())
    #expect(names.isSubset(of: ["state.json", ".state.json.lock", ".state.json.tmp"]), "\(names)")
  }

  @Test func corruptFileStaysByteIdenticalAfterAProgramRanAndWrote() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    let corrupt = Data("{\"count\": 3, \"note\": tru".utf8) + Data([0xFF, 0x00, 0x7F])
    try corrupt.write(to: file)

    #expect(try await Probe.run("increment", file) == 0)

    let preserved = try directory.contents().filter { $0.hasPrefix("state.json.corrupt-") }
    #expect(preserved.count == 1)
    let kept = try Data(contentsOf: directory.file(try #require(preserved.first)))
    #expect(kept == corrupt, "the unreadable file is kept byte for byte")
    #expect(try decodeProbeState(file).count == 1, "the program started from the default")
  }

  @Test func editByAnotherProcessReachesADerivedReference() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    try await withDependencies {
      $0.defaultFileStorage = diskStorage()
    } operation: { () async throws in
      @Shared(.fileStorage(file)) var state = ProbeState()
      let note = $state.note  // a derived reference
      #expect(try await Probe.run("set", file, ["5", "from the probe"]) == 0)
      // The file is on disk now; the change arrives through inotify, with no reload asked for.
      let arrived = await waitUntil { note.wrappedValue == "from the probe" }
      #expect(arrived, "the edit never reached the derived reference")
      #expect(state.count == 5)
      #expect($state.loadError == nil)
    }
  }

  @Test func directoryDeletedAndRecreatedIsWatchedAgain() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("data/state.json")
    try await withDependencies {
      $0.defaultFileStorage = diskStorage()
    } operation: { () async throws in
      @Shared(.fileStorage(file)) var state = ProbeState()
      try FileManager.default.removeItem(at: directory.file("data"))
      $state.withLock { $0.note = "ours" }
      try $state.save()  // re-creates the directory
      #expect(try decodeProbeState(file).note == "ours")
      #expect(try await Probe.run("set", file, ["3", "theirs"]) == 0)
      #expect(await waitUntil { state.note == "theirs" })
    }
  }

  @Test func burstOfMutationsOnDiskIsCoalesced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("count.json")
    let fileSystem = CountingFileSystem(LiveFileSystem())
    await withDependencies {
      $0.defaultFileStorage = diskStorage(fileSystem)
    } operation: {
      @Shared(.fileStorage(file)) var count = 0
      for _ in 1...1000 { $count.withLock { $0 += 1 } }
      let written = await waitUntil {
        (try? String(contentsOf: file, encoding: .utf8)) == "1000"
      }
      #expect(written, "the file ends with the last value, without an explicit flush")
      #expect(fileSystem.writes < 5, "\(fileSystem.writes) writes for 1,000 mutations")
    }
  }

  @Test func pendingWriteIsOnDiskAfterSIGTERM() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    let process = try Probe.start("pending", file)
    #expect(await Probe.waitUntilReady(file))
    #expect(try decodeProbeState(file).count == 1, "the second change is still pending")
    kill(process.processIdentifier, SIGTERM)
    await process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGTERM)
    #expect(try decodeProbeState(file).count == 2, "the pending change was flushed on SIGTERM")
  }

  @Test func appSignalHandlerRunsBeforeTheFlush() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    let process = try Probe.start("handler", file)
    #expect(await Probe.waitUntilReady(file))
    kill(process.processIdentifier, SIGINT)
    await process.waitUntilExit()
    #expect(process.terminationStatus == SIGINT)
    #expect(try decodeProbeState(file).note == "saved by handler")
  }

  @Test func pendingWriteIsOnDiskAfterNormalExit() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    #expect(try await Probe.run("exit", file) == 0)
    #expect(try decodeProbeState(file).count == 2)
  }

  @Test func appCanKeepRunningAfterASignal() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    let process = try Probe.start("keep-running", file)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(await Probe.waitUntilReady(file))
    kill(process.processIdentifier, SIGTERM)
    // The pending change is flushed even though the app keeps running.
    #expect(await waitUntil { (try? decodeProbeState(file).count) == 2 })
    try await Task.sleep(for: .milliseconds(100))
    #expect(process.isRunning)
  }

  @Test func anotherProcessWritingWhileWeHaveUnsavedChangesIsNotLost() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    #expect(try await Probe.run("set", file, ["1", "start"]) == 0)
    try await withDependencies {
      $0.defaultFileStorage = diskStorage(saveInterval: .seconds(3600))
    } operation: { () async throws in
      @Shared(.fileStorage(file)) var state = ProbeState()
      #expect(state.count == 1)
      $state.withLock { $0.note = "ours, saved" }
      try $state.save()
      $state.withLock { $0.count = 10 }  // unsaved: the next write is an hour away

      #expect(try await Probe.run("set", file, ["20", "theirs"]) == 0)
      try await Task.sleep(for: .milliseconds(200))
      #expect(state.count == 10, "unsaved local changes are not replaced by the other version")

      try $state.save()
      let error = try #require($state.saveError as? SharedFileError)
      guard case .conflict(_, let preserved) = error else {
        Issue.record("expected a conflict, got \(error)")
        return
      }
      #expect(try decodeProbeState(preserved) == ProbeState(count: 20, note: "theirs"))
      #expect(try decodeProbeState(file).count == 10)
    }
  }

  @Test func anotherProcessUpdateIsAdoptedAndBuiltOn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    try await withDependencies {
      $0.defaultFileStorage = diskStorage()
    } operation: { () async throws in
      @Shared(.fileStorage(file)) var state = ProbeState()
      $state.withLock { $0.note = "ours" }
      try $state.save()
      #expect(try await Probe.run("set", file, ["20", "theirs"]) == 0)
      #expect(await waitUntil { state.count == 20 })
      $state.withLock { $0.count += 1 }
      try $state.save()
      #expect(try decodeProbeState(file) == ProbeState(count: 21, note: "theirs"))
      #expect($state.saveError == nil)
      #expect(try directory.contents().allSatisfy { !$0.contains("conflict") })
    }
  }

  @Test func aWriterKeepingAVersionAsideIsNotADeletion() async throws {
    // Another writer that keeps a version aside renames the file, then writes its own, under
    // the writers' lock. A reference that looked in between once took the file for deleted, and
    // its next save then kept the new version aside as a conflict and wrote its old value over
    // it (two probes incrementing at once counted one increment twice).
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    let disk = LiveFileSystem()
    let encoder = defaultFileStorageEncoder()
    try disk.withExclusiveLock(for: file) {
      try disk.writeAtomically(encoder.encode(ProbeState(count: 1, note: "ours")), to: file)
    }
    let ourFileSystem = CountingFileSystem(disk)
    try await withDependencies {
      $0.defaultFileStorage = diskStorage(ourFileSystem)
    } operation: { () async throws in
      @Shared(.fileStorage(file)) var state = ProbeState()
      #expect(state.count == 1)
      let theirs = ProbeState(count: 5, note: "theirs")
      let reference = $state
      let saved = OneShot<Void>()
      let writer = OneShot<Void>()
      Thread.detachNewThread {
        try? disk.withExclusiveLock(for: file) {
          let looked = DispatchSemaphore(value: 0)
          ourFileSystem.onLook = { looked.signal() }
          try disk.moveItem(at: file, to: directory.file("state.json.aside"))
          // Our reference hears of the rename and looks at the file; then it saves.
          _ = looked.wait(timeout: .now() + 600)
          ourFileSystem.onLook = nil
          Thread.detachNewThread {
            try? reference.save()
            saved.happen(())
          }
          // Time for the save to decide what to write before the other version is there (with
          // the fix it waits for the lock whatever the time; without it, this shows the bug).
          Thread.sleep(forTimeInterval: 0.3)
          try disk.writeAtomically(encoder.encode(theirs), to: file)
        }
        writer.happen(())
      }
      #expect(await writer.wait() != nil)
      #expect(await saved.wait() != nil)
      #expect(await waitUntil { state == theirs })
      #expect(try decodeProbeState(file) == theirs)
      #expect($state.saveError == nil)
      #expect(try directory.contents().filter { $0.contains("conflict") } == [])
    }
  }

  @Test func twoProcessesIncrementingNeverLoseAnUpdate() async throws {
    // Each probe run loads, increments and saves: 10 runs, two at a time. When two runs
    // overlap, the second writer finds the first one's version on disk and keeps it aside as a
    // conflict; so every increment is either counted in the file or announced by a conflict file.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("state.json")
    for _ in 0..<5 {
      let first = try Probe.start("increment", file)
      let second = try Probe.start("increment", file)
      await first.waitUntilExit()
      await second.waitUntilExit()
      #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
    }
    let conflicts = try directory.contents().filter { $0.contains(".conflict-") }
    for conflict in conflicts {
      _ = try decodeProbeState(directory.file(conflict))  // kept intact
    }
    let final = try decodeProbeState(file).count
    #expect(final + conflicts.count == 10, "file: \(final), conflicts: \(conflicts)")
  }
}
