import Foundation

/// What `export` wrote: the format-1 JSON and how much it holds.
public struct Export: Sendable {
  public var data: Data
  public var syncUps: Int
  public var meetings: Int
}

extension SyncUpsDatabase {
  /// The whole store as format-1 JSON (as `export()`), with its counts for messages.
  public func exportWithCounts() throws -> Export {
    let syncUps = try exportedSyncUps()
    return Export(
      data: try SyncUpsFile.encode(syncUps), syncUps: syncUps.count,
      meetings: syncUps.reduce(0) { $0 + $1.meetings.count })
  }
}

extension SyncUpsDatabase {
  /// `syncups import`: merges `url` as `importFile` does, after checking the whole file first:
  /// it must read as format 1, and every sync-up in it must pass the rules `add` applies
  /// (`SyncUp.validated()`). Otherwise nothing is written, and the error says where the file
  /// is wrong.
  public func importChecked(_ url: URL) throws -> ImportSummary {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    }
    let decoded: IdentifiedArrayOf<SyncUp>
    do {
      decoded = try SyncUpsFile.decode(data)
    } catch let error as DecodingError {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: Self.explain(error))
    } catch {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    }
    var syncUps: IdentifiedArrayOf<SyncUp> = []
    for (index, syncUp) in decoded.enumerated() {
      do {
        syncUps.append(try syncUp.validated())
      } catch {
        throw SyncUpsDatabaseError.importFailed(
          url: url, reason: "sync-up \(index + 1) of the file: \(error)")
      }
    }
    return try write { db in try Self.merge(syncUps, db) }
  }

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
