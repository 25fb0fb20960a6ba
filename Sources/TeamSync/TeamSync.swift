import Foundation
import SyncClient
import SyncUpsStore
import SyncUpsWire
import WorkerThreads

#if canImport(Glibc)
  import Glibc
#endif

/// One sync of this laptop's database with its team's server: first what changed here (the
/// outbox, audio first by its SHA-256, each push stored before it is sent and resent as it is
/// until acknowledged), then what changed there (pages from the stored version cursor, each
/// applied in one transaction). Whatever fails, nothing is lost: the outbox, the pending push
/// and the cursor are in the database, and the next sync goes on from them.
public struct TeamSync: Sendable {
  public let database: SyncUpsDatabase
  public let team: Team
  public let client: SyncClient
  /// What follows a pull that changed sync-ups (their documents or meetings): what they teach
  /// is learned again, whichever front end synced (`TeamLearning.learnAfterSync`).
  public let learn: @Sendable (_ changed: Set<SyncUp.ID>) async -> Void

  public init(
    database: SyncUpsDatabase, team: Team, client: SyncClient,
    learn: @escaping @Sendable (_ changed: Set<SyncUp.ID>) async -> Void = { _ in }
  ) {
    self.database = database
    self.team = team
    self.client = client
    self.learn = learn
  }

  /// What a sync moved.
  public struct Report: Equatable, Sendable {
    public var pushedSyncUps = 0
    public var pushedMeetings = 0
    public var uploadedAudio = 0
    public var uploadedBytes: Int64 = 0
    public var pulledSyncUps = 0
    public var pulledMeetings = 0
    /// Attendees whose learned voice or adaptation (or its forgetting) went each way.
    public var pushedPeople = 0
    public var pulledPeople = 0
    /// Blockers closed by hand that went each way.
    public var pushedBlockers = 0
    public var pulledBlockers = 0
    public var downloadedAudio = 0
    /// Why this laptop's changes were not pushed (a reader's token): they stay here, waiting.
    public var notPushed: String?
    /// Documents from the server left out because they break the rules (why, one line each).
    public var skipped: [String] = []
    /// This laptop's documents the server refused for good, set aside here (what and why, one
    /// line each; `SetAside`): said by the sync that set them aside, listed by `team status`.
    public var setAside: [String] = []
    /// The segments (0 = a meeting's first) whose speaker, text or words a pull changed in
    /// meetings that were here before (a correction made elsewhere): what was learned from
    /// them is to learn again.
    public var changedSegments: [UUID: [Int]] = [:]
    /// The sync-ups a pull brought a document of, or a meeting of: what they teach is to learn
    /// again.
    public var changedSyncUps: Set<SyncUp.ID> = []
    public init() {}

    /// `pushed 1 sync-up and 2 meetings (1 audio file, 3.1 MB); pulled 1 meeting`.
    public var line: String {
      var parts: [String] = []
      if pushedSyncUps + pushedMeetings > 0 {
        var pushed = "pushed " + Self.things(pushedSyncUps, pushedMeetings)
        if uploadedAudio > 0 {
          pushed +=
            " (\(Self.count(uploadedAudio, "audio file")), \(Self.megabytes(uploadedBytes)))"
        }
        parts.append(pushed)
      }
      if pulledSyncUps + pulledMeetings > 0 {
        var pulled = "pulled " + Self.things(pulledSyncUps, pulledMeetings)
        if downloadedAudio > 0 { pulled += " (\(Self.count(downloadedAudio, "audio file")))" }
        parts.append(pulled)
      }
      if pushedPeople > 0 {
        parts.append("pushed what is learned of \(Self.count(pushedPeople, "attendee"))")
      }
      if pulledPeople > 0 {
        parts.append("pulled what is learned of \(Self.count(pulledPeople, "attendee"))")
      }
      if pushedBlockers > 0 {
        parts.append("pushed \(Self.count(pushedBlockers, "closed blocker"))")
      }
      if pulledBlockers > 0 {
        parts.append("pulled \(Self.count(pulledBlockers, "closed blocker"))")
      }
      if let last = skipped.last {
        parts.append(
          "left out \(Self.count(skipped.count, "document")) that break the rules (\(last))")
      }
      if !setAside.isEmpty {
        parts.append(
          "set aside \(Self.count(setAside.count, "document")) the team server refuses for good, "
            + "kept here ('syncups team status' lists them; change one, or run 'syncups team "
            + "retry', to try again): " + setAside.joined(separator: "; "))
      }
      if let notPushed {
        parts.append(
          "this laptop's changes stay here, not pushed: the team server refused (\(notPushed))")
        if parts.count == 1 { parts.insert("nothing to pull", at: 0) }
      }
      return parts.isEmpty ? "up to date: nothing to push or pull" : parts.joined(separator: "; ")
    }

    static func things(_ syncUps: Int, _ meetings: Int) -> String {
      [
        syncUps > 0 ? count(syncUps, "sync-up") : nil,
        meetings > 0 ? count(meetings, "meeting") : nil,
      ]
      .compactMap { $0 }.joined(separator: " and ")
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func megabytes(_ bytes: Int64) -> String {
      String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
  }

  /// Another sync of this data directory is running.
  public struct Busy: Error, CustomStringConvertible {
    public var description: String { "another syncups is syncing this data directory just now" }
  }

  /// Pushes, then pulls (the first request of the pull waits up to `wait` seconds for a change).
  /// When another sync of this data directory runs, waits for it to end (`waitForOthers`) or
  /// throws `Busy`.
  public func run(wait: Int = 0, waitForOthers: Bool = false) async throws -> Report {
    do {
      return try await sync(wait: wait, waitForOthers: waitForOthers)
    } catch let error as UnreadableClock {
      // A clock in this database that cannot be read fails the sync like an answer that cannot.
      throw SyncFailure.unreadable(error.reason)
    }
  }

  private func sync(wait: Int, waitForOthers: Bool) async throws -> Report {
    let directory = database.directory?.url
    let lock =
      waitForOthers
      ? try await WorkerThread.run(name: "syncups-sync-lock") {
        try SyncLock(directory: directory, waiting: true)
      }
      : try SyncLock(directory: directory, waiting: false)
    defer { lock.release() }
    var report = Report()
    do {
      try await push(&report)
    } catch SyncFailure.forbidden(let message) {
      // A reader's token: what changed here cannot go, but others' changes still come.
      report.notPushed = message
    }
    try await pull(&report, wait: wait)
    try await database.recordSyncEnded(at: Date(), lastSkipped: report.skipped.last)
    if !report.changedSyncUps.isEmpty { await learn(report.changedSyncUps) }
    return report
  }

  // MARK: Push

  func push(_ report: inout Report) async throws {
    // What this sync set aside: refused again, it is no document's refusal (never a loop).
    var refused: Set<String> = []
    while true {
      var pending = try await database.pendingPush()
      if pending == nil {
        let files = try await database.audioFilesWaitingToBePushed()
        let hashes = try await hash(files)
        pending = try await database.preparePush(audio: hashes)
      }
      guard let pending else { return }
      for audio in pending.audio {
        guard let url = database.directory?.url.appendingPathComponent(audio.file) else { continue }
        try await client.uploadAudio(team, audio.sha256, url)
        report.uploadedAudio += 1
        report.uploadedBytes += audio.size
      }
      do {
        _ = try await client.push(team, pending.body)
      } catch {
        // A document the server refuses for good goes aside; the rest goes on without it.
        guard let refusal = Refusal(error, pending: pending),
          refused.insert(refusal.kind + " " + refusal.entityID).inserted
        else { throw error }
        let document = try await database.setAside(
          kind: refusal.kind, entityID: refusal.entityID, reason: refusal.reason,
          pending: pending)
        report.setAside.append("\(document.what) (\(document.reason))")
        continue
      }
      try await database.acknowledgePush(pending)
      report.pushedSyncUps += pending.syncUps
      report.pushedMeetings += pending.meetings
      report.pushedPeople += pending.people
      report.pushedBlockers += pending.blockers
    }
  }

  /// The SHA-256 and size of each meeting's audio file, read on a thread of its own; files
  /// that are gone are left out (the meeting goes without audio).
  func hash(_ files: [String: String]) async throws -> [String: AudioHash] {
    guard !files.isEmpty, let directory = database.directory?.url else { return [:] }
    return try await WorkerThread.run(name: "syncups-hash") {
      var hashes: [String: AudioHash] = [:]
      for (meeting, file) in files {
        let url = directory.appendingPathComponent(file)
        guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size],
          let sha256 = try? SHA256Hasher.file(url)
        else { continue }
        hashes[meeting] = AudioHash(
          sha256: sha256, size: (size as? NSNumber)?.int64Value ?? 0, file: file)
      }
      return hashes
    }
  }

  // MARK: Pull

  func pull(_ report: inout Report, wait: Int) async throws {
    var since = try await database.syncCursor()
    var wait = wait
    // Fewer documents a page once a page is too large to read (the client bounds an answer).
    var limit = 100
    while true {
      let received: ChangesPage
      do {
        received = try await client.changes(team, since, wait, limit)
      } catch SyncFailure.tooLarge where limit > 1 {
        limit = max(1, limit / 10)
        continue
      }
      // What breaks the rules is left out before anything of it is downloaded or applied.
      let page = PulledChanges.KeptPage(received, now: Date())
      report.skipped += page.skipped
      wait = 0
      // More to come, but not past `since`: asking again would get the same page forever.
      if received.more && received.version <= since {
        throw SyncFailure.noProgress(since: since)
      }
      let files = try await download(page, report: &report)
      let applied = try await database.applyPulledPage(page, audioFiles: files)
      report.skipped += applied.skipped
      for file in applied.deletedAudio {
        guard let url = database.directory?.url.appendingPathComponent(file) else { continue }
        try? FileManager.default.removeItem(at: url)
      }
      report.pulledSyncUps += applied.syncUps
      report.pulledMeetings += applied.meetings
      report.changedSegments.merge(applied.changedSegments) { Array(Set($0 + $1)).sorted() }
      report.pulledPeople += applied.people
      report.pulledBlockers += applied.blockers
      report.changedSyncUps.formUnion(page.page.syncUps.map { SyncUp.ID($0.id) })
      report.changedSyncUps.formUnion(page.page.meetings.map { SyncUp.ID($0.syncUpID) })
      since = received.version
      if !received.more { return }
    }
  }

  /// The audio of the page's meetings that will replace what is here, downloaded to
  /// `audio/<meeting id>.flac` and checked against its hash before it is kept there.
  func download(_ page: PulledChanges.KeptPage, report: inout Report) async throws
    -> [UUID: String]
  {
    guard let directory = database.directory?.url else { return [:] }
    let wanted = try await database.meetingsWithAudioToDownload(page)
    var files: [UUID: String] = [:]
    for document in wanted {
      guard let audio = document.audio else { continue }
      let file = DataDirectory.audioFile(of: Meeting.ID(document.id))
      let url = directory.appendingPathComponent(file)
      let present = try await WorkerThread.run(name: "syncups-hash") {
        (try? SHA256Hasher.file(url)) == audio.sha256
      }
      if present {
        files[document.id] = file
        continue
      }
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".download-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: temporary) }
      guard try await client.downloadAudio(team, document.id, temporary) else { continue }
      let sha256 = try await WorkerThread.run(name: "syncups-hash") {
        try SHA256Hasher.file(temporary)
      }
      guard sha256 == audio.sha256 else {
        throw SyncFailure.unreadable(
          "the audio of meeting \(document.id.lowercasedString) does not have its hash")
      }
      guard rename(temporary.path, url.path) == 0 else {
        throw SyncFailure.unreadable("cannot keep the audio in \(url.path)")
      }
      files[document.id] = file
      report.downloadedAudio += 1
    }
    return files
  }
}

/// Where this laptop stands with its team: what waits, when it last synced.
public struct TeamSyncStatus: Equatable, Sendable {
  public var waiting: Int
  public var lastSync: Date?
  public var version: Int64
  /// Why the last sync failed, when it did.
  public var lastProblem: String?
  /// The last document from the server left out because it breaks the rules, and why.
  public var lastSkipped: String?
  /// This laptop's documents the server refused for good, kept here (`SetAside`).
  public var setAside: [SetAside.Document] = []

  /// Keeps why a sync failed (nil: it worked) for `syncups team status`.
  public static func recordProblem(_ problem: String?, _ database: SyncUpsDatabase) {
    try? database.recordSyncProblem(problem)
  }

  public static func read(_ database: SyncUpsDatabase) throws -> TeamSyncStatus {
    let state = try database.syncStatus()
    return TeamSyncStatus(
      waiting: state.waiting, lastSync: state.lastSync, version: state.cursor,
      lastProblem: state.lastProblem, lastSkipped: state.lastSkipped, setAside: state.setAside)
  }

  /// Every document set aside is tried again at the next sync; returns how many there were.
  public static func retrySetAside(_ database: SyncUpsDatabase) throws -> Int {
    try database.retrySetAside()
  }

  /// A laptop that joins another server starts over with it: every sync-up and finished meeting
  /// waits to be pushed, the cursor goes back to 0, a push not yet acknowledged is dropped.
  public static func startOver(_ database: SyncUpsDatabase) throws {
    try database.startSyncOver()
  }
}

/// One sync at a time per data directory: an exclusive `flock` on `locks/sync.lock`, waited
/// for (on a thread of its own) or not (a second sync says so and leaves).
struct SyncLock: Sendable {
  private let fd: Int32

  init(directory: URL?, waiting: Bool) throws {
    guard let directory else {
      fd = -1
      return
    }
    let folder = directory.appendingPathComponent("locks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    fd = open(folder.appendingPathComponent("sync.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw SyncFailure.unreadable(String(cString: strerror(errno))) }
    var locked = flock(fd, LOCK_EX | (waiting ? 0 : LOCK_NB))
    while locked != 0 && errno == EINTR { locked = flock(fd, LOCK_EX) }
    guard locked == 0 else {
      close(fd)
      throw TeamSync.Busy()
    }
  }

  func release() {
    guard fd >= 0 else { return }
    close(fd)
  }
}
