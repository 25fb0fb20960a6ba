import Foundation
import Glibc
import WorkerThreads

extension RecordingStore {
  /// Keeps each recording as JSON lines in `directory/<meeting id>.jsonl`: the recording first,
  /// then one segment a line, each fsynced before `append` returns. A running recording holds a
  /// lock on its file, so `unfinished` only sees files whose process died. Blocking work runs on
  /// a thread of its own.
  public static func journal(in directory: URL) -> RecordingStore {
    let journal = Journal(directory: directory)
    let worker = WorkerThread(name: "syncups-journal")
    return RecordingStore(
      begin: { recording in try await worker.run { try journal.begin(recording) } },
      append: { segment, id in try await worker.run { try journal.append(segment, to: id) } },
      finish: { id in try await worker.run { journal.remove(id) } },
      discard: { id in try await worker.run { journal.remove(id) } },
      unfinished: { try await worker.run { journal.unfinished() } }
    )
  }
}

/// The journal files; used only from its worker thread.
private final class Journal: @unchecked Sendable {
  let directory: URL
  /// The open files of the recordings this process runs, locked.
  private var open: [Meeting.ID: FileHandle] = [:]

  init(directory: URL) { self.directory = directory }

  func url(_ id: Meeting.ID) -> URL {
    directory.appendingPathComponent("\(id.rawValue.uuidString.lowercased()).jsonl")
  }

  func begin(_ recording: MeetingRecording) throws {
    let url = url(recording.meetingID)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw JournalError("cannot create \(directory.path)", errno: (error as NSError).posixCode)
    }
    let flags = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC
    let descriptor = Glibc.open(url.path, flags, 0o644)
    guard descriptor >= 0 else { throw JournalError("cannot write \(url.path)", errno: errno) }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    // Held while recording: a journal that can be locked belongs to a process that died.
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      throw JournalError("\(url.path) is in use by another syncups", errno: errno)
    }
    open[recording.meetingID] = handle
    try write(recording, to: handle, url: url)
    // The new file's name is durable too.
    let folder = Glibc.open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }

  func append(_ segment: Meeting.Segment, to id: Meeting.ID) throws {
    // A recording already finished or discarded keeps nothing more.
    guard let handle = open[id] else { return }
    try write(segment, to: handle, url: url(id))
  }

  func remove(_ id: Meeting.ID) {
    if let handle = open.removeValue(forKey: id) { try? handle.close() }
    try? FileManager.default.removeItem(at: url(id))
  }

  func unfinished() -> [UnfinishedRecording] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted()
      .map { directory.appendingPathComponent($0) }
      .filter { !isInUse($0) }
      .compactMap(read)
  }

  private func isInUse(_ url: URL) -> Bool {
    let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) != 0
  }

  /// A journal read back. A line cut short by the crash is ignored; a file without a readable
  /// first line (the crash came before it was written) holds nothing and is removed.
  private func read(_ url: URL) -> UnfinishedRecording? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let lines = ((try? Data(contentsOf: url)) ?? Data()).split(separator: UInt8(ascii: "\n"))
    guard let first = lines.first,
      var recording = try? decoder.decode(MeetingRecording.self, from: first)
    else {
      try? FileManager.default.removeItem(at: url)
      return nil
    }
    // The audio lives beside the journal folder, in the data directory.
    if let audio = recording.audioFile,
      !FileManager.default.fileExists(
        atPath: directory.deletingLastPathComponent().appendingPathComponent(audio).path)
    {
      recording.audioFile = nil
    }
    // Appends are separate effects: keep the meeting's order whatever order they landed in.
    let segments = lines.dropFirst()
      .compactMap { try? decoder.decode(Meeting.Segment.self, from: $0) }
      .sorted { $0.start < $1.start }
    return UnfinishedRecording(recording: recording, segments: segments, location: url.path)
  }

  private func write(_ value: some Encodable, to handle: FileHandle, url: URL) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    var line = try encoder.encode(value)
    line.append(UInt8(ascii: "\n"))
    do {
      try handle.write(contentsOf: line)
      try handle.synchronize()
    } catch {
      throw JournalError("cannot write \(url.path)", errno: (error as NSError).posixCode)
    }
  }
}

/// A journal failure in words: what could not be done and the system's reason.
struct JournalError: Error, CustomStringConvertible {
  var description: String

  init(_ what: String, errno code: Int32?) {
    let reason = code.map { String(cString: strerror($0)).lowercased() } ?? "unknown error"
    description = "\(what): \(reason)"
  }
}

extension NSError {
  /// The POSIX error behind a Foundation error, when there is one.
  var posixCode: Int32? {
    if domain == NSPOSIXErrorDomain { return Int32(code) }
    return (userInfo[NSUnderlyingErrorKey] as? NSError)?.posixCode
  }
}
