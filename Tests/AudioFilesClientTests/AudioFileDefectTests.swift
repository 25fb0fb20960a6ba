import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// Files that are easy to misjudge, and file operations whose errors must say no Swift internals.
@Suite("Audio files: odd inputs and file operations")
struct AudioFileDefectTests {
  let hello = samples.appendingPathComponent("hello.wav")

  /// A FLAC whose writer was killed (SIGKILL) has 0 in its header's sample count, FLAC's
  /// "unknown length", and may end inside a frame: it is read whole, not called truncated.
  @Test func flacOfUnknownLengthIsReadWhole() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let complete = folder.appendingPathComponent("complete.flac")
    try await sox([hello.path, complete.path])
    let original = try AudioFileReader(path: hello.path).readAll()

    var data = try Data(contentsOf: complete)
    Self.clearSampleCount(&data)
    let unknown = folder.appendingPathComponent("unknown-length.flac")
    try data.write(to: unknown)
    let reader = try AudioFileReader(path: unknown.path)
    #expect(reader.info.frames == 0)
    #expect(try reader.readAll() == original)

    // Killed mid-write: the file ends inside a frame. Every whole frame before it is audio.
    let cut = folder.appendingPathComponent("cut.flac")
    try data.prefix(data.count * 2 / 3).write(to: cut)
    let partial = try AudioFileReader(path: cut.path).readAll()
    #expect(partial.count > original.count / 3)
    #expect(partial == Array(original.prefix(partial.count)))
  }

  /// A FLAC header of unknown length over no audio at all is still an empty file.
  @Test func flacOfUnknownLengthWithNoAudioIsEmpty() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let complete = folder.appendingPathComponent("complete.flac")
    try await sox([hello.path, complete.path])
    var data = try Data(contentsOf: complete)
    Self.clearSampleCount(&data)
    // Only the metadata: "fLaC", then blocks until the one flagged last.
    var end = 4
    while true {
      let header = data[end]
      let length = Int(data[end + 1]) << 16 | Int(data[end + 2]) << 8 | Int(data[end + 3])
      end += 4 + length
      if header & 0x80 != 0 { break }
    }
    let empty = folder.appendingPathComponent("no-audio.flac")
    try data.prefix(end).write(to: empty)
    #expect(throws: AudioFileError.empty(path: empty.path)) {
      _ = try AudioFileReader(path: empty.path).readAll()
    }
  }

  /// A FIFO (which would block the open), /dev/zero and /dev/urandom are not called "empty".
  @Test func nonRegularFilesSayWhatTheyAre() throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("pipe.wav").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let expected: [(String, String)] = [
      (fifo, "a named pipe (FIFO)"), ("/dev/zero", "a character device"),
      ("/dev/urandom", "a character device"),
    ]
    for (path, kind) in expected {
      #expect(throws: AudioFileError.notRegularFile(path: path, kind: kind)) {
        _ = try AudioFileReader(path: path)
      }
      let line = AudioFileError.notRegularFile(path: path, kind: kind).description
      #expect(line == "\(path): not a regular file (it is \(kind)); give a WAV, FLAC or OGG file")
    }
  }

  /// Moves and deletes fail in words: no Foundation error domains or Swift type names.
  @Test func fileOperationErrorsAreWords() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = AudioFilesClient.liveValue
    let recording = folder.appendingPathComponent("recording.flac")
    try await client.write(try AudioFileReader(path: hello.path).readAll(), recording)

    // A file named `audio` where the folder should be.
    let blocker = folder.appendingPathComponent("audio")
    try Data("x".utf8).write(to: blocker)
    let messages = [
      await message { try await client.move(recording, blocker.appendingPathComponent("m.flac")) },
      await message { try await client.move(recording, blocker) },
      await message { try await client.delete(folder.appendingPathComponent("missing.flac")) },
      await message {
        try await client.append([1, 2, 3], blocker.appendingPathComponent("r.flac"))
      },
    ]
    #expect(messages[0] == "\(blocker.path): a file of that name is in the way of a folder")
    #expect(messages[1] == "\(blocker.path): a file of that name already exists")
    #expect(messages[2] == "\(folder.path)/missing.flac: file not found (check the path)")
    #expect(messages[3] == "\(blocker.path): a file of that name is in the way of a folder")
    for line in messages {
      let internals = ["Domain", "Error(", "CocoaError", "\n"]
      #expect(!internals.contains { line.contains($0) }, "\(line)")
    }
    // Nothing was lost on the way: the recording is where it was, whole.
    #expect(try AudioFileReader(path: recording.path).readAll().count > 0)

    let filed = folder.appendingPathComponent("meetings/1.flac")
    try await client.move(recording, filed)
    #expect(FileManager.default.fileExists(atPath: filed.path))
    #expect(!FileManager.default.fileExists(atPath: recording.path))
    try await client.delete(filed)
    #expect(!FileManager.default.fileExists(atPath: filed.path))
  }

  /// A replay-sized read through the client: chunks come from the reader's own thread, one
  /// per request, and a cancelled consumer ends the stream early.
  @Test func readStopsWhenItsConsumerIsCancelled() async throws {
    let client = AudioFilesClient.liveValue
    let total = try AudioFileReader(path: hello.path).readAll().count
    let (firstChunk, firstChunkSeen) = AsyncStream<Void>.makeStream()
    let task = Task {
      var count = 0
      for try await chunk in try await client.read(hello) {
        count += chunk.samples.count
        firstChunkSeen.yield()
        try? await Task.sleep(for: .seconds(3_600))
      }
      return count
    }
    for await _ in firstChunk { break }
    task.cancel()
    let read = try await task.value
    #expect(read == AudioFormat.chunkSamples && read < total)
  }

  private func message(_ body: () async throws -> Void) async -> String {
    do {
      try await body()
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  /// Sets STREAMINFO's 36-bit total sample count (bytes 21...25 of the file) to 0.
  static func clearSampleCount(_ data: inout Data) {
    #expect(data.prefix(4) == Data("fLaC".utf8))
    data[21] &= 0xF0
    for index in 22...25 { data[index] = 0 }
  }
}
