import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Dependencies
import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

@Suite("Audio files client")
struct AudioFilesClientTests {
  let hello = samples.appendingPathComponent("hello.wav")

  @Test func reads16kMonoWAVExactlyInChunks() async throws {
    let info = try AudioFileReader(path: hello.path).info
    #expect(info.sampleRate == 16_000 && info.channels == 1)
    let client = AudioFilesClient.liveValue
    var chunks: [AudioChunk] = []
    for try await chunk in try await client.read(hello) { chunks.append(chunk) }
    #expect(chunks.dropLast().allSatisfy { $0.samples.count == AudioFormat.chunkSamples })
    #expect(chunks.map(\.samples.count).reduce(0, +) == info.frames)
    // Each chunk starts where the previous one ended.
    #expect(
      zip(chunks, chunks.dropFirst()).allSatisfy {
        $0.startSample + $0.samples.count == $1.startSample
      })
    // The samples are the file's own: compare with the raw data sox extracts.
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let raw = folder.appendingPathComponent("hello.raw")
    try await sox([hello.path, "-t", "raw", raw.path])
    let bytes = try Data(contentsOf: raw)
    let expected = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    #expect(chunks.flatMap(\.samples) == expected)
  }

  @Test(arguments: [
    (["-b", "8", "-e", "unsigned-integer"], "wav"),
    (["-b", "24"], "wav"),
    (["-b", "32"], "wav"),
    (["-e", "floating-point", "-b", "32"], "wav"),
    (["-b", "16"], "flac"),
    ([String](), "ogg"),
  ])
  func readsOtherEncodingsAsTheSameAudio(options: [String], ext: String) async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let variant = folder.appendingPathComponent("variant.\(ext)")
    try await sox([hello.path] + options + [variant.path])
    let original = try AudioFileReader(path: hello.path).readAll()
    let converted = try AudioFileReader(path: variant.path).readAll()
    #expect(abs(converted.count - original.count) <= 160)
    // Lossless 16-bit or better encodings give back the very samples; lossy ones come close.
    let n = min(original.count, converted.count)
    let error = zip(original.prefix(n), converted.prefix(n)).map { abs(Double($0) - Double($1)) }
    let meanError = error.reduce(0, +) / Double(n)
    let tolerance: Double =
      switch (options.first, ext) {
      case ("-b", "wav") where options.contains("8"): 200
      case (_, "ogg"): 400
      default: 0.5
      }
    #expect(meanError <= tolerance, "mean error \(meanError)")
  }

  @Test func resamplesAndDownMixes() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let stereo = folder.appendingPathComponent("stereo44.wav")
    let float48 = folder.appendingPathComponent("float48.wav")
    try await sox([hello.path, "-r", "44100", "-c", "2", stereo.path])
    try await sox([hello.path, "-r", "48000", "-e", "floating-point", "-b", "32", float48.path])
    let original = try AudioFileReader(path: hello.path).readAll()
    for url in [stereo, float48] {
      let reader = try AudioFileReader(path: url.path)
      #expect(reader.info.sampleRate != 16_000)
      let converted = try reader.readAll()
      #expect(
        abs(converted.count - original.count) <= 16,
        "\(url.lastPathComponent): \(converted.count) vs \(original.count)")
      // Same signal: the normalised correlation with the original is close to 1.
      let n = min(original.count, converted.count)
      var dot = 0.0
      var a = 0.0
      var b = 0.0
      for i in 0..<n {
        let x = Double(original[i])
        let y = Double(converted[i])
        dot += x * y
        a += x * x
        b += y * y
      }
      #expect(dot / (a * b).squareRoot() > 0.98, "\(url.lastPathComponent)")
    }
  }

  @Test func writesFLACAndWAVThatReadBackIdentically() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = try AudioFileReader(path: hello.path).readAll()
    let client = AudioFilesClient.liveValue
    for ext in ["flac", "wav"] {
      let whole = folder.appendingPathComponent("whole.\(ext)")
      try await client.write(original, whole)
      #expect(try AudioFileReader(path: whole.path).readAll() == original)

      // Appended a chunk at a time, as the meeting recorder does.
      let appended = folder.appendingPathComponent("appended.\(ext)")
      var offset = 0
      while offset < original.count {
        let end = min(original.count, offset + 799)
        try await client.append(Array(original[offset..<end]), appended)
        offset = end
      }
      try await client.close(appended)
      #expect(try AudioFileReader(path: appended.path).readAll() == original)
    }
    await #expect(
      throws: AudioFileError.unsupportedFormat(path: folder.appendingPathComponent("x.mp3").path)
    ) {
      try await client.write(original, folder.appendingPathComponent("x.mp3"))
    }
  }

  @Test func badInputsGiveOneClearLine() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.wav").path
    let empty = folder.appendingPathComponent("empty.wav").path
    let text = folder.appendingPathComponent("notes.wav").path
    let truncated = folder.appendingPathComponent("truncated.wav").path
    let truncatedFLAC = folder.appendingPathComponent("truncated.flac").path
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    try Data("these are meeting notes, not audio\n".utf8).write(to: URL(fileURLWithPath: text))
    let wav = try Data(contentsOf: hello)
    try wav.prefix(wav.count / 2).write(to: URL(fileURLWithPath: truncated))
    let flac = folder.appendingPathComponent("full.flac")
    try await sox([hello.path, flac.path])
    let flacData = try Data(contentsOf: flac)
    try flacData.prefix(flacData.count / 2).write(to: URL(fileURLWithPath: truncatedFLAC))

    func error(_ path: String) -> AudioFileError? {
      do {
        _ = try AudioFileReader(path: path).readAll()
        return nil
      } catch {
        return error
      }
    }
    #expect(error(missing) == .notFound(path: missing))
    #expect(error(empty) == .empty(path: empty))
    #expect({ if case .notAudio(text, _) = error(text) { true } else { false } }())
    #expect(error(truncated) == .truncated(path: truncated))
    #expect(error(truncatedFLAC) == .truncated(path: truncatedFLAC))
    for path in [missing, empty, text, truncated, truncatedFLAC] {
      let line = try #require(error(path)).description
      #expect(line.hasPrefix(path + ": ") && !line.contains("\n"), "\(line)")
    }
  }
}
