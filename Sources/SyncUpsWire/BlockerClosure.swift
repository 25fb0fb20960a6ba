import Foundation

/// A blocker closed by hand (`syncups blockers close`, or the server's blockers page), as
/// laptops push it and pull it. A blocker is its meeting, the number of the segment it was said
/// in (1 = the first) and a hash of its phrase (`key`: the first 8 bytes of the phrase's
/// SHA-256 in 16 lowercase hex digits), so a correction that changes the phrase makes it
/// another blocker. Closing is for good: the first closing is kept, a repeat changes nothing.
public struct BlockerClosure: Codable, Sendable, Equatable, Hashable {
  public var meetingID: UUID
  public var segment: Int
  public var key: String
  /// Who closed it, as the server knows them (a laptop pushes nil: the server takes the
  /// pusher).
  public var closedBy: String?
  public var closedAt: Date

  public init(meetingID: UUID, segment: Int, key: String, closedBy: String? = nil, closedAt: Date) {
    self.meetingID = meetingID
    self.segment = segment
    self.key = key
    self.closedBy = closedBy
    self.closedAt = closedAt
  }

  /// The key of a blocker's phrase: the first 8 bytes of its SHA-256, in 16 lowercase hex
  /// digits. The one way both the laptop and the server key a phrase.
  public static func key(of phrase: String) -> String {
    var hasher = SHA256Hasher()
    hasher.update(Array(phrase.utf8))
    return String(hasher.finalize().prefix(16))
  }

  /// Whether `text` is a key: 16 lowercase hex digits.
  public static func isKey(_ text: String) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The closing by the rules: a segment a meeting can have, a key as a hash writes it, a name
  /// as attendees' names are kept, a possible date.
  public func check() throws(DocumentProblem) {
    let name = "the closed blocker of meeting \(meetingID.uuidString.lowercased())"
    guard (1...Rules.mostSegments).contains(segment) else {
      throw DocumentProblem(
        "\(name): segment \(segment) is not one a meeting has (1 to \(Rules.mostSegments))")
    }
    guard Self.isKey(key) else {
      throw DocumentProblem("\(name): its key is not 16 lowercase hex digits")
    }
    if let closedBy {
      do {
        _ = try Rules.name(closedBy)
      } catch {
        throw DocumentProblem("\(name): who closed it: \(error)")
      }
    }
    guard Rules.meetingDates.contains(closedAt) else {
      throw DocumentProblem("\(name): it was closed at an impossible date")
    }
  }
}

extension Rules {
  /// Most blockers one push closes (each is a row the server writes in the push's turn).
  public static let mostClosingsInAPush = 1_000
}
