// A child program for the database tests: it opens a data directory's database and does one
// thing to it, so tests can kill it at each step of a save, and run two at once.
//
//   DatabaseProbe record DIR SYNCUP SEGMENTS [KILL_AT]  begin, append SEGMENTS, finish; with
//       KILL_AT (begin, append-N, in-finish, finish) it SIGKILLs itself right after that step
//       ("in-finish": inside the finishing transaction, before its commit)
//   DatabaseProbe hammer DIR SYNCUP      records meetings forever ("ready" after the first commit)
//   DatabaseProbe add DIR PREFIX COUNT   adds COUNT sync-ups through @Shared, one save each,
//       printing "added N" after each
//   DatabaseProbe edit DIR SYNCUP COUNT  renames the sync-up COUNT times through @Shared
//   DatabaseProbe save-meeting DIR SYNCUP  inserts a meeting through $syncUp.meetings
//   DatabaseProbe recover DIR            finishes what killed recordings left; one line each
//   DatabaseProbe open DIR               opens (checks, migrates) and exits
import Dependencies
import Foundation
import GRDB
import SharingGRDB
import SyncUpsStore

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: DatabaseProbe MODE DIR [ARGS]\n".utf8))
  exit(2)
}

/// Written at once (unbuffered), so a line is out before the probe kills itself.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ error: any Error) -> Never {
  FileHandle.standardError.write(Data("syncups: \(error)\n".utf8))
  exit(1)
}

func argument(_ index: Int) -> String {
  guard index < arguments.count else {
    fail(SyncUpsDatabaseError.other(reason: "missing argument"))
  }
  return arguments[index]
}

func syncUpID(_ index: Int) -> SyncUp.ID {
  guard let uuid = UUID(uuidString: argument(index)) else {
    fail(SyncUpsDatabaseError.other(reason: "not an id: \(argument(index))"))
  }
  return SyncUp.ID(uuid)
}

func segment(_ index: Int) -> Meeting.Segment {
  let start = Double(index) * 5
  return Meeting.Segment(
    speaker: "Speaker \(index % 3)", start: start, end: start + 4,
    text: "utterance number \(index)",
    words: [.init(word: "utterance", start: start, end: start + 1, confidence: 0.9)]
  )
}

let mode = arguments[1]
let directory = DataDirectory(url: URL(fileURLWithPath: arguments[2], isDirectory: true))
let database: SyncUpsDatabase
do {
  database = try SyncUpsDatabase.open(directory)
} catch {
  fail(error)
}

func step(_ name: String, killAt: String?) {
  say(name)
  if name == killAt { kill(getpid(), SIGKILL) }
}

/// Runs `body` when the transaction it observes is about to commit.
final class KillBeforeCommit: TransactionObserver, @unchecked Sendable {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
  func databaseDidChange(with event: DatabaseEvent) {}
  func databaseWillCommit() throws { body() }
  func databaseDidCommit(_ db: Database) {}
  func databaseDidRollback(_ db: Database) {}
}

func record(
  _ syncUp: SyncUp.ID, segments: Int, killAt: String?, withAudio: Bool = false
) throws -> Meeting.ID {
  var meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
  // As `syncups record` does: the meeting names its audio from the start.
  if withAudio { meeting.audioFile = DataDirectory.audioFile(of: meeting.id) }
  try database.begin(meeting, syncUpID: syncUp)
  step("begin", killAt: killAt)
  for index in 0..<segments {
    try database.append(segment(index), meetingID: meeting.id)
    step("append-\(index)", killAt: killAt)
  }
  if killAt == "in-finish" {
    // Killed inside the finishing transaction, just before it commits.
    let killer = KillBeforeCommit { step("in-finish", killAt: killAt) }
    database.writer.add(transactionObserver: killer, extent: .nextTransaction)
    try database.finish(meeting.id)
  } else {
    try database.finish(meeting.id, audioFile: "audio/\(meeting.id.rawValue).flac")
  }
  step("finish", killAt: killAt)
  return meeting.id
}

do {
  switch mode {
  case "open":
    say("opened")

  case "record":
    let killAt = arguments.count > 5 ? arguments[5] : nil
    let id = try record(
      syncUpID(3), segments: Int(argument(4)) ?? 0, killAt: killAt,
      withAudio: arguments.count > 6 && arguments[6] == "audio")
    say("meeting \(id.rawValue)")

  case "hammer":
    var first = true
    while true {
      _ = try record(syncUpID(3), segments: 3, killAt: nil)
      if first {
        FileManager.default.createFile(atPath: directory.url.path + "/ready", contents: nil)
        first = false
      }
    }

  case "recover":
    for meeting in try database.recoverUnfinished() {
      say("recovered \(meeting.meetingID.rawValue) \(meeting.segmentCount)")
    }

  case "add", "edit", "save-meeting":
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      if let error = $syncUps.loadError { throw error }
      switch mode {
      case "add":
        let prefix = argument(3)
        for index in 0..<(Int(argument(4)) ?? 0) {
          let syncUp = SyncUp(id: SyncUp.ID(UUID()), title: "\(prefix) \(index)")
          $syncUps.withLock { _ = $0.append(syncUp) }
          try $syncUps.save()
          say("added \(index)")
        }
      case "edit":
        let id = syncUpID(3)
        guard let syncUp = Shared($syncUps[id: id]) else {
          throw SyncUpsDatabaseError.noSuchSyncUp(id: id)
        }
        for index in 0..<(Int(argument(4)) ?? 0) {
          syncUp.withLock { $0.title = "Edited \(index)" }
          try syncUp.save()
        }
      default:
        let id = syncUpID(3)
        guard let syncUp = Shared($syncUps[id: id]) else {
          throw SyncUpsDatabaseError.noSuchSyncUp(id: id)
        }
        let meeting = Meeting(
          id: Meeting.ID(UUID()), date: Date(), transcript: "one two",
          segments: [segment(0), segment(1)]
        )
        syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
        try syncUp.save()
        say("meeting \(meeting.id.rawValue)")
      }
    }

  default:
    fail(SyncUpsDatabaseError.other(reason: "unknown mode \(mode)"))
  }
} catch {
  fail(error)
}
