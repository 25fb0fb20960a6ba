import Foundation
import Glibc
import SyncUpsFeatures

/// Crash safety for a recording: every final utterance is appended (and fsynced) to a journal in
/// the data directory as it arrives. A normal save deletes the journal; if the process dies
/// instead, the next `syncups` command turns the journal back into a meeting.
///
/// The journal is JSON lines in `journal/<sync-up id>.jsonl`: a header, then one segment a line.
public final class MeetingJournal: @unchecked Sendable {
  struct Header: Codable {
    var syncUpID: SyncUp.ID
    var started: Date
  }

  public let url: URL
  private let handle: FileHandle
  private let lock = NSLock()
  /// How many of the meeting's segments are on disk.
  private var written = 0

  /// Starts the journal of a meeting of `syncUp` that starts now, in the data directory.
  public static func start(for syncUp: SyncUp.ID) throws(CLIError) -> MeetingJournal {
    @Dependency(\.date.now) var now
    do {
      return try MeetingJournal(directory: SyncUpsStore.journalDirectory, syncUp: syncUp, started: now)
    } catch {
      throw (error as? CLIError) ?? CLIError("cannot start the meeting journal: \(error)")
    }
  }

  /// Starts a journal for a meeting of `syncUp` that started at `started`.
  public init(directory: URL, syncUp: SyncUp.ID, started: Date) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    url = directory.appendingPathComponent("\(syncUp.rawValue.uuidString.lowercased()).jsonl")
    let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CLIError("cannot write the meeting journal \(url.path): \(String(cString: strerror(errno)))")
    }
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    // Held while recording: a journal that can be locked belongs to a process that died.
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      throw CLIError("a meeting of this sync-up is already being recorded by another syncups")
    }
    ftruncate(descriptor, 0)
    try write(Header(syncUpID: syncUp, started: started))
  }

  deinit { try? handle.close() }

  /// Appends the final utterances of `segments` not written yet; on disk when this returns.
  public func record(_ segments: [Meeting.Segment]) throws(CLIError) {
    while written < segments.count {
      do {
        try write(segments[written])
      } catch {
        throw CLIError("cannot write the meeting journal \(url.path): \(error)")
      }
      written += 1
    }
  }

  /// The meeting was saved normally: the journal is no longer needed.
  public func remove() {
    try? handle.close()
    try? FileManager.default.removeItem(at: url)
  }

  private func write(_ value: some Encodable) throws {
    var line = try Self.encoder.encode(value)
    line.append(UInt8(ascii: "\n"))
    try lock.withLock {
      try handle.write(contentsOf: line)
      try handle.synchronize()
    }
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  /// The journals left in `directory` by recordings that never finished (not locked by a
  /// running recording).
  public static func unfinished(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted()
      .map { directory.appendingPathComponent($0) }
      .filter { !isInUse($0) }
  }

  private static func isInUse(_ url: URL) -> Bool {
    let descriptor = Glibc.open(url.path, O_RDONLY)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) != 0
  }

  /// A journal read back: the meeting it was recording. A line cut short by the crash is ignored.
  public struct Recovered: Equatable {
    public var syncUpID: SyncUp.ID
    public var started: Date
    public var segments: [Meeting.Segment]
  }

  public static func read(_ url: URL) throws -> Recovered {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let lines = try Data(contentsOf: url).split(separator: UInt8(ascii: "\n"))
    guard let first = lines.first, let header = try? decoder.decode(Header.self, from: first) else {
      throw CLIError("the journal \(url.path) has no readable header")
    }
    let segments = lines.dropFirst().compactMap { try? decoder.decode(Meeting.Segment.self, from: $0) }
    return Recovered(syncUpID: header.syncUpID, started: header.started, segments: segments)
  }
}
