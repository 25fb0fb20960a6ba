import Foundation
import SyncClient
import SyncUpsWire

/// A team server in memory with the real server's rules (Sources/SyncUpsServer/Store/Save.swift):
/// receipts per push id, per-field merge of sync-ups, later meetings replace earlier ones, a
/// meeting pushed into a deleted sync-up brings it back, one version counter; and faults a test
/// can switch on. Its `client` is the `SyncClient` a laptop under test gets.
actor FakeTeamServer {
  var syncUps: [UUID: (document: SyncUpDocument, version: Int64)] = [:]
  var meetings: [UUID: (document: MeetingDocument, version: Int64)] = [:]
  var people: [UUID: (document: PersonDocument, version: Int64)] = [:]
  var audio: [String: Data] = [:]
  var receipts: [String: PushReceipt] = [:]
  var version: Int64 = 0
  /// Every push body received, saved or not, in order.
  var bodies: [Data] = []
  /// What happened, in order: `upload <sha>`, `push <id>`, `changes <since>`.
  var calls: [String] = []
  /// Documents saved (not repeats): how many times a push changed something.
  var saves = 0

  enum Fault: Sendable {
    /// The next push fails before the server saves it (the server was down).
    case downBeforeSaving
    /// The next push is saved but its answer is lost (the connection died on the way back).
    case answerLost
  }
  var fault: Fault?
  var unreachable = false
  /// Pages say there is more, at the version asked for: a server that never moves on (after 50
  /// such pages it says there is no more, so a client that loops ends too).
  var endless = false
  /// The most documents a page may hold: more, and its answer is too large for the client.
  var largestPage: Int?
  /// The page size each `changes` asked for, in order.
  var pageLimits: [Int] = []
  /// Runs inside the next push, before it answers (a change made while the push is in flight).
  var duringPush: (@Sendable () throws -> Void)?

  /// Documents refused whenever a push holds them (by id; a person by the attendee's id), with
  /// the status and the words of the refusal, as the real server refuses one of another team.
  var refusals: [UUID: (status: Int, message: String)] = [:]
  func refuse(_ id: UUID, status: Int, _ message: String) { refusals[id] = (status, message) }
  func stopRefusing(_ id: UUID) { refusals[id] = nil }

  func setFault(_ fault: Fault?) { self.fault = fault }
  func meeting(_ id: UUID) -> MeetingDocument? { meetings[id]?.document }
  func syncUp(_ id: UUID) -> SyncUpDocument? { syncUps[id]?.document }
  func person(_ id: UUID) -> PersonDocument? { people[id]?.document }
  /// Serves `document` as if a laptop had pushed it, unchecked (a hostile or broken server).
  func serve(_ document: PersonDocument) {
    version += 1
    people[document.attendeeID] = (document, version)
  }
  func setUnreachable(_ value: Bool) { unreachable = value }
  func setDuringPush(_ body: (@Sendable () throws -> Void)?) { duringPush = body }
  func setEndless(_ value: Bool) { endless = value }
  func setLargestPage(_ value: Int?) { largestPage = value }

  func push(_ body: Data) throws -> PushReceipt {
    guard !unreachable else { throw SyncFailure.unreachable("nothing answers") }
    bodies.append(body)
    let push = try WireJSON.decoder().decode(Push.self, from: body)
    calls.append("push \(push.pushID)")
    if fault == .downBeforeSaving {
      fault = nil
      throw SyncFailure.unreachable("the connection was refused")
    }
    let key = "\(push.device) \(push.pushID)"
    let receipt = try receipts[key] ?? save(push)
    receipts[key] = receipt
    if let during = duringPush {
      duringPush = nil
      try during()
    }
    if fault == .answerLost {
      fault = nil
      throw SyncFailure.unreachable("the connection was lost")
    }
    return receipt
  }

  private func save(_ push: Push) throws -> PushReceipt {
    let ids = push.syncUps.map(\.id) + push.meetings.map(\.id) + push.people.map(\.attendeeID)
    if let refusal = ids.lazy.compactMap({ self.refusals[$0] }).first {
      throw SyncFailure.refused(status: refusal.status, message: refusal.message)
    }
    var counts = (0, 0)
    for document in push.syncUps {
      let existing = syncUps[document.id]?.document
      let merged = existing.map { $0.merged(with: document) } ?? document
      guard merged != existing else { continue }
      version += 1
      syncUps[document.id] = (merged, version)
      counts.0 += 1
    }
    for pushed in push.meetings {
      guard var syncUp = syncUps[pushed.syncUpID]?.document else {
        throw SyncFailure.refused(status: 422, message: "no sync-up \(pushed.syncUpID)")
      }
      // As the server does: merged with its copy, segment by segment.
      var document = pushed
      if let current = meetings[pushed.id]?.document {
        document = current.merged(with: pushed)
        if document == current { continue }
      }
      if let sound = document.audio, audio[sound.sha256] == nil {
        throw SyncFailure.refused(status: 409, message: "upload the audio first")
      }
      if syncUp.deleted.value, !document.deleted {
        let later = max(syncUp.deleted.clock, document.clock)
        syncUp.deleted = Stamped(
          false,
          at: HybridClock(
            milliseconds: later.milliseconds, counter: later.counter + 1, device: later.device))
        version += 1
        syncUps[syncUp.id] = (syncUp, version)
        counts.0 += 1
      }
      version += 1
      meetings[document.id] = (document, version)
      counts.1 += 1
    }
    for document in push.people {
      guard syncUps[document.syncUpID] != nil else {
        throw SyncFailure.refused(status: 422, message: "no sync-up \(document.syncUpID)")
      }
      if let current = people[document.attendeeID]?.document, current.clock >= document.clock {
        continue
      }
      version += 1
      people[document.attendeeID] = (document, version)
    }
    if counts.0 + counts.1 > 0 { saves += 1 }
    return PushReceipt(
      pushID: push.pushID, version: version, syncUps: counts.0, meetings: counts.1)
  }

  func changes(since: Int64, limit: Int) throws -> ChangesPage {
    guard !unreachable else { throw SyncFailure.unreachable("nothing answers") }
    calls.append("changes \(since)")
    pageLimits.append(limit)
    if endless {
      return ChangesPage(version: since, more: pageLimits.count <= 50, syncUps: [], meetings: [])
    }
    var changed: [(Int64, Any)] =
      syncUps.values.filter { $0.version > since }.map { ($0.version, $0.document as Any) }
      + meetings.values.filter { $0.version > since }.map { ($0.version, $0.document as Any) }
      + people.values.filter { $0.version > since }.map { ($0.version, $0.document as Any) }
    changed.sort { $0.0 < $1.0 }
    let more = changed.count > limit
    changed = Array(changed.prefix(limit))
    if let largestPage, changed.count > largestPage {
      throw SyncFailure.tooLarge(what: "an answer", limit: 64 << 20)
    }
    return ChangesPage(
      version: changed.last?.0 ?? since, more: more,
      syncUps: changed.compactMap { $0.1 as? SyncUpDocument },
      meetings: changed.compactMap { $0.1 as? MeetingDocument },
      people: changed.compactMap { $0.1 as? PersonDocument })
  }

  func upload(_ sha256: String, _ file: URL) throws {
    guard !unreachable else { throw SyncFailure.unreachable("nothing answers") }
    calls.append("upload \(sha256)")
    audio[sha256] = try Data(contentsOf: file)
  }

  func download(_ meetingID: UUID, _ file: URL) throws -> Bool {
    guard let sound = meetings[meetingID]?.document.audio, let data = audio[sound.sha256] else {
      return false
    }
    try data.write(to: file)
    return true
  }

  /// The laptop's client for this server; `limit` overrides the page size.
  nonisolated func client(pageLimit: Int? = nil) -> SyncClient {
    SyncClient(
      check: { _ in TeamMember(name: "ana", role: "writer") },
      push: { _, body in try await self.push(body) },
      changes: { _, since, _, limit in
        try await self.changes(since: since, limit: pageLimit ?? limit)
      },
      uploadAudio: { _, sha, file in try await self.upload(sha, file) },
      downloadAudio: { _, id, file in try await self.download(id, file) },
      search: { _, _ in [] })
  }
}

let testTeam = Team(url: URL(string: "http://team.invalid")!, token: "t0ken")
