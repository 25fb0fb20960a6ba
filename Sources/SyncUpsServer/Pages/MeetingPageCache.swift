import Crypto
import Foundation
import SyncUpsWire
import Synchronization

/// The transcript part of meeting pages (`MeetingPage.transcript`), by meeting and the version
/// of its last write (which changes whenever any segment does, by a per-segment merge too): the
/// same for everyone who reads it. What is someone's own (who is signed in, what their role lets
/// them do) is written around it on every request, never kept here. A later clock replaces a
/// meeting's entry; past `limit` bytes the least recently read entries go.
final class MeetingPageCache: Sendable {
  /// Pages may be kept by the browser, but only as long as the server says they are current.
  static let cacheControl = "private, no-cache"

  struct Entry {
    var version: Int64
    var transcript: Markup
    /// The digest at the page's top (`DigestSection`), made with `attendees` (nil: not kept).
    var digest: Markup?
    var attendees: [String] = []
    var used: UInt64

    var bytes: Int { transcript.bytes.count + (digest?.bytes.count ?? 0) }
  }

  struct State {
    var entries: [UUID: Entry] = [:]
    var bytes = 0
    var reads: UInt64 = 0
  }

  let limit: Int
  private let state = Mutex(State())
  /// Made anew by each server process, so a page written by an earlier version of the server
  /// (whose markup may differ) never matches.
  private let nonce = UUID().uuidString

  /// `limit`: the most bytes of transcripts kept.
  init(limit: Int = 64 << 20) {
    self.limit = limit
  }

  /// The transcript of `meeting` at `version`, when kept.
  func transcript(of meeting: UUID, at version: Int64) -> Markup? {
    state.withLock { state in
      guard var entry = state.entries[meeting], entry.version == version else { return nil }
      state.reads += 1
      entry.used = state.reads
      state.entries[meeting] = entry
      return entry.transcript
    }
  }

  /// The digest of `meeting` at `version` made with `attendees`, when kept.
  func digest(of meeting: UUID, at version: Int64, attendees: [String]) -> Markup? {
    state.withLock { state in
      guard let entry = state.entries[meeting], entry.version == version,
        entry.attendees == attendees
      else { return nil }
      return entry.digest
    }
  }

  /// Keeps the transcript of `meeting` at `version` (not when it alone would take a quarter of
  /// the cache), in place of any earlier one, with its digest when given.
  func keep(
    _ transcript: Markup, digest: Markup? = nil, attendees: [String] = [], of meeting: UUID,
    at version: Int64
  ) {
    guard transcript.bytes.count + (digest?.bytes.count ?? 0) <= limit / 4 else { return }
    state.withLock { state in
      if let old = state.entries[meeting] {
        guard old.version < version else { return }
        state.bytes -= old.bytes
      }
      state.reads += 1
      let entry = Entry(
        version: version, transcript: transcript, digest: digest, attendees: attendees,
        used: state.reads)
      state.entries[meeting] = entry
      state.bytes += entry.bytes
      Self.trim(&state, to: limit)
    }
  }

  /// Keeps the digest of `meeting` at `version`, made with `attendees`, beside its transcript
  /// kept at that version (in place of one made with other attendees).
  func keep(digest: Markup, attendees: [String], of meeting: UUID, at version: Int64) {
    guard digest.bytes.count <= limit / 16 else { return }
    state.withLock { state in
      guard var entry = state.entries[meeting], entry.version == version else { return }
      state.bytes -= entry.bytes
      entry.digest = digest
      entry.attendees = attendees
      state.entries[meeting] = entry
      state.bytes += entry.bytes
      Self.trim(&state, to: limit)
    }
  }

  /// The least recently read entries go until what is kept fits in `limit`.
  private static func trim(_ state: inout State, to limit: Int) {
    while state.bytes > limit,
      let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
    {
      state.bytes -= oldest.value.bytes
      state.entries[oldest.key] = nil
    }
  }

  /// The bytes of transcripts kept now.
  var bytes: Int { state.withLock { $0.bytes } }

  /// The page's strong tag: a digest of all the page shows (the meeting's clock and the version
  /// of its last write, its sync-up's title, theme and attendees (whom the stand-up digest
  /// knows), who asks and their roles in their teams, the time asked for, the stylesheet and
  /// script, the speakers a writer may choose), so it changes whenever the page would.
  func tag(
    of meeting: MeetingDocument, version: Int64, title: String, theme: String, person: Person,
    at time: Double?, speakers: [String]? = nil, attendees: [String] = []
  ) -> String {
    let parts = [
      nonce, meeting.id.uuidString, meeting.clock.description, String(version), title, theme,
      String(person.id),
      person.name,
      person.memberships.map { "\($0.team)=\($0.role.rawValue)" }.joined(separator: ","),
      time.map { String($0) } ?? "", Assets.stylesheetPath,
      Assets.scriptPath, speakers.map { $0.joined(separator: "\n") } ?? "",
      attendees.joined(separator: "\n"),
    ]
    // Each part's length first, so no two lists of parts read the same.
    let text = parts.map { "\($0.utf8.count):\($0)" }.joined()
    let digest = SHA256.hash(data: Array(text.utf8)).prefix(16)
    return "\"" + digest.map { String(format: "%02x", $0) }.joined() + "\""
  }
}
