import Foundation
import NIOCore
import SyncUpsWire

/// A page of `GET sync/changes`, its documents already written as JSON one by one, as they were
/// read. It is put together as `ChangesPage`'s JSON (keys sorted, as `WireJSON` writes them)
/// only when it is sent, without copying the documents again.
public struct ChangesPageJSON: Sendable {
  public var version: Int64
  public var more: Bool
  public private(set) var syncUps: [ByteBuffer] = []
  public private(set) var meetings: [ByteBuffer] = []
  public private(set) var people: [ByteBuffer] = []
  public private(set) var blockers: [ByteBuffer] = []
  /// The documents' bytes so far.
  public private(set) var bytes = 0

  public init(version: Int64, more: Bool) {
    self.version = version
    self.more = more
  }

  public var isEmpty: Bool {
    syncUps.isEmpty && meetings.isEmpty && people.isEmpty && blockers.isEmpty
  }

  public mutating func append(blocker json: [UInt8]) {
    blockers.append(ByteBuffer(bytes: json))
    bytes += json.count
  }

  public mutating func append(syncUp json: [UInt8]) {
    syncUps.append(ByteBuffer(bytes: json))
    bytes += json.count
  }

  public mutating func append(person json: ByteBuffer) {
    people.append(json)
    bytes += json.readableBytes
  }

  public mutating func append(meeting json: ByteBuffer) {
    meetings.append(json)
    bytes += json.readableBytes
  }

  /// The page's JSON in pieces: the documents' buffers with what goes between them.
  public var pieces: [ByteBuffer] {
    var pieces: [ByteBuffer] = []
    func list(_ documents: [ByteBuffer]) {
      for (index, document) in documents.enumerated() {
        if index > 0 { pieces.append(ByteBuffer(string: ",")) }
        pieces.append(document)
      }
    }
    // `blockers` only when there are some, as `ChangesPage` writes it.
    if !blockers.isEmpty {
      pieces.append(ByteBuffer(string: #"{"blockers":["#))
      list(blockers)
      pieces.append(ByteBuffer(string: #"],"meetings":["#))
    } else {
      pieces.append(ByteBuffer(string: #"{"meetings":["#))
    }
    list(meetings)
    pieces.append(ByteBuffer(string: #"],"more":\#(more),"people":["#))
    list(people)
    pieces.append(ByteBuffer(string: #"],"syncUps":["#))
    list(syncUps)
    pieces.append(ByteBuffer(string: #"],"version":\#(version)}"#))
    return pieces
  }
}

extension TeamStore {
  /// A meeting's JSON made from its rows, its segments written one by one as they arrive: a
  /// meeting of many hours is in memory as its JSON only, not also as rows and documents.
  func meetingJSONFromRows(_ id: UUID) async throws -> ByteBuffer? {
    guard let meeting = try await meetingWithoutSegments(id) else { return nil }
    let (head, tail) = try MeetingJSON.frame(of: meeting)
    var json = ByteBuffer()
    json.writeBytes(head)
    var first = true
    try await eachSegment(of: id) { segment in
      if !first { json.writeInteger(UInt8(ascii: ",")) }
      first = false
      json.writeBytes(try WireJSON.bytes(of: segment))
    }
    json.writeBytes(tail)
    return json
  }
}
