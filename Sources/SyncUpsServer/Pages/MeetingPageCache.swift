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
    var used: UInt64
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

  /// Keeps the transcript of `meeting` at `version` (not when it alone would take a quarter of
  /// the cache), in place of any earlier one.
  func keep(_ transcript: Markup, of meeting: UUID, at version: Int64) {
    let size = transcript.bytes.count
    guard size <= limit / 4 else { return }
    state.withLock { state in
      if let old = state.entries[meeting] {
        guard old.version < version else { return }
        state.bytes -= old.transcript.bytes.count
      }
      state.reads += 1
      state.entries[meeting] = Entry(version: version, transcript: transcript, used: state.reads)
      state.bytes += size
      while state.bytes > limit,
        let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
      {
        state.bytes -= oldest.value.transcript.bytes.count
        state.entries[oldest.key] = nil
      }
    }
  }

  /// The bytes of transcripts kept now.
  var bytes: Int { state.withLock { $0.bytes } }

  /// The page's strong tag: a digest of all the page shows (the meeting's clock and the version
  /// of its last write, its sync-up's
  /// title and theme, who asks and their roles in their teams, the time asked for, the stylesheet and script,
  /// the speakers a writer may choose),
  /// so it changes whenever the page would.
  func tag(
    of meeting: MeetingDocument, version: Int64, title: String, theme: String, person: Person,
    at time: Double?, speakers: [String]? = nil
  ) -> String {
    let parts = [
      nonce, meeting.id.uuidString, meeting.clock.description, String(version), title, theme,
      String(person.id),
      person.name,
      person.memberships.map { "\($0.team)=\($0.role.rawValue)" }.joined(separator: ","),
      time.map { String($0) } ?? "", Assets.stylesheetPath,
      Assets.scriptPath, speakers.map { $0.joined(separator: "\n") } ?? "",
    ]
    // Each part's length first, so no two lists of parts read the same.
    let text = parts.map { "\($0.utf8.count):\($0)" }.joined()
    let digest = SHA256.hash(data: Array(text.utf8)).prefix(16)
    return "\"" + digest.map { String(format: "%02x", $0) }.joined() + "\""
  }
}
