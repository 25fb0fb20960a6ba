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
  /// The documents' bytes so far.
  public private(set) var bytes = 0

  public init(version: Int64, more: Bool) {
    self.version = version
    self.more = more
  }

  public var isEmpty: Bool { syncUps.isEmpty && meetings.isEmpty }

  public mutating func append(syncUp json: [UInt8]) {
    syncUps.append(ByteBuffer(bytes: json))
    bytes += json.count
  }

  public mutating func append(meeting json: [UInt8]) {
    meetings.append(ByteBuffer(bytes: json))
    bytes += json.count
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
    pieces.append(ByteBuffer(string: #"{"meetings":["#))
    list(meetings)
    pieces.append(ByteBuffer(string: #"],"more":\#(more),"syncUps":["#))
    list(syncUps)
    pieces.append(ByteBuffer(string: #"],"version":\#(version)}"#))
    return pieces
  }
}
