import Foundation
import SyncClient
import SyncUpsStore
import SyncUpsWire

/// A push the team server refused because of one of its documents, for good: a 404, 409 or 422
/// whose words name that document by its id, as the server's refusals do ("there is no
/// attendee ID here", "sync-up ID: ...", "the attendee 'Ana' of sync-up ID has the id ...,
/// which is another team's"). The first id of the push's documents the words name is the one
/// refused. Anything else (5xx, the network, a refusal that names none of them, or the audio
/// the push needs, which the next sync uploads again) is no refusal of a document: the sync
/// fails as it did, and the next one tries it all again.
struct Refusal: Equatable {
  /// `syncUp`, `meeting` or `person` (by the attendee's id), as the outbox names them.
  var kind: String
  var entityID: String
  /// `409: the server's words`.
  var reason: String

  static let longestRead = 4096

  /// The statuses that refuse a document whatever the time or the try.
  static let permanent: Set<Int> = [404, 409, 410, 422]

  init?(_ failure: any Error, pending: Outbox.Pending) {
    guard case .refused(let status, let message) = failure as? SyncFailure,
      Self.permanent.contains(status),
      !pending.audio.contains(where: { message.lowercased().contains($0.sha256) }),
      let push = try? WireJSON.decoder().decode(Push.self, from: pending.body)
    else { return nil }
    for id in Self.ids(in: message) {
      let kind: String
      if push.syncUps.contains(where: { $0.id == id }) {
        kind = "syncUp"
      } else if push.meetings.contains(where: { $0.id == id }) {
        kind = "meeting"
      } else if push.people.contains(where: { $0.attendeeID == id }) {
        kind = "person"
      } else {
        continue
      }
      self.kind = kind
      entityID = id.uuidString.lowercased()
      reason = "\(status): \(message)"
      return
    }
    return nil
  }

  /// The UUIDs `text` names, in the order it names them (any case), within its first
  /// `longestRead` bytes (a server's words are a line; a hostile one's could be megabytes).
  static func ids(in text: String) -> [UUID] {
    let characters = Array(text.utf8.prefix(longestRead))
    let length = 36
    guard characters.count >= length else { return [] }
    var ids: [UUID] = []
    var index = 0
    while index + length <= characters.count {
      let window = characters[index..<index + length]
      // Strictly 8-4-4-4-12 hex digits: Foundation's parser skips spaces and takes short groups.
      let isUUID = window.enumerated().allSatisfy { offset, byte in
        [8, 13, 18, 23].contains(offset)
          ? byte == UInt8(ascii: "-")
          : (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
      }
      if isUUID, let id = UUID(uuidString: String(decoding: window, as: UTF8.self)) {
        ids.append(id)
        index += length
      } else {
        index += 1
      }
    }
    return ids
  }
}
