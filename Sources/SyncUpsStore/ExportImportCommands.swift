import Foundation
import GRDB

/// How much an export wrote.
public struct ExportCounts: Equatable, Sendable {
  public var syncUps: Int
  public var meetings: Int

  public init(syncUps: Int, meetings: Int) {
    self.syncUps = syncUps
    self.meetings = meetings
  }
}

extension SyncUpsDatabase {
  /// `syncups export`: the whole store as format-1 JSON (what `sync-ups.json` held, on one
  /// line), given to `write` a piece at a time: one meeting's transcript is in memory at once,
  /// however long the history. Read in one transaction, so the file is one moment's store.
  public func export(to write: (Data) throws -> Void) throws -> ExportCounts {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try read { db in
      let syncUps = try SyncUpsRequest().fetch(db)
      var counts = ExportCounts(syncUps: syncUps.count, meetings: 0)
      try write(Data(#"{"formatVersion":\#(SyncUpsFile.currentVersion),"syncUps":["#.utf8))
      for (index, syncUp) in syncUps.enumerated() {
        var bare = syncUp
        bare.meetings = []
        // Keys are sorted and strings escape their quotes, so this is the one "meetings" key.
        let object = String(decoding: try encoder.encode(bare), as: UTF8.self)
        let empty = #""meetings":[]"#
        guard let slot = object.range(of: empty) else {
          throw SyncUpsDatabaseError.other(reason: "cannot export \(syncUp.title)")
        }
        let opening = (index > 0 ? "," : "") + object[..<slot.lowerBound] + #""meetings":["#
        try write(Data(opening.utf8))
        for (number, summary) in syncUp.meetings.enumerated() {
          let meeting = try MeetingTranscriptRequest(meetingID: summary.id).fetch(db) ?? summary
          try write((number > 0 ? Data(",".utf8) : Data()) + encoder.encode(meeting))
          counts.meetings += 1
        }
        try write(Data(("]" + object[slot.upperBound...]).utf8))
      }
      try write(Data("]}\n".utf8))
      return counts
    }
  }
}

extension SyncUpsDatabase {
  /// A decoding error in the file's own words: what is wrong, and where (`syncUps[0].title`).
  static func explain(_ error: DecodingError) -> String {
    func place(_ path: [any CodingKey]) -> String {
      let text = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        .joined()
      return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\"\(key.stringValue)\" is missing in \(place(context.codingPath))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(place(context.codingPath)) has the wrong kind of value"
    case .dataCorrupted(let context):
      guard !context.codingPath.isEmpty else { return "it is not JSON" }
      return "\(place(context.codingPath)) is not valid "
        + "(\(context.debugDescription.trimmingCharacters(in: CharacterSet(charactersIn: "."))))"
    @unknown default:
      return "it is not a SyncUps export"
    }
  }
}
