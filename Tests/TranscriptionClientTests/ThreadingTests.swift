import AudioCaptureClient
import AudioCaptureClientLive
import AudioCore
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Decoders and replays run on threads of their own and stop promptly when cancelled.
@Suite("Decoding off the cooperative pool")
struct ThreadingTests {
  let standup = samples.appendingPathComponent("standup.wav")

  /// As many decoders as the pool has threads, all busy, and another task still runs on the
  /// pool before any of them is done: the decoding happens elsewhere.
  @Test func decodersLeaveThePoolFree() async throws {
    let client = TranscriptionClient.live()
    let decoders = ProcessInfo.processInfo.activeProcessorCount
    let audio = try AudioFileReader(path: standup.path).readAll()
    let order = Events()
    let (started, startedFeed) = AsyncStream<Void>.makeStream()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<decoders {
        group.addTask {
          let (input, feed) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
          // The whole file at once: the decoder has work for a while.
          for start in stride(from: 0, to: audio.count, by: 1_600) {
            let end = min(audio.count, start + 1_600)
            feed.yield(AudioChunk(samples: Array(audio[start..<end]), startSample: start))
          }
          feed.finish()
          var events = try await client.transcribe(input).makeAsyncIterator()
          _ = try await events.next()
          startedFeed.yield()
          while try await events.next() != nil {}
          order.append("decoder done")
        }
      }
      // Every decoder has produced something: all are decoding now.
      var running = 0
      for await _ in started {
        running += 1
        if running == decoders { break }
      }
      group.addTask {
        for _ in 0..<20 { await Task.yield() }
        order.append("pool task done")
      }
      try await group.waitForAll()
    }
    #expect(order.all.first == "pool task done", "\(order.all)")
    #expect(order.all.count == decoders + 1)
  }

  /// A cancelled file transcription stops early (with CancellationError, not a transcript of
  /// the whole file).
  @Test func cancelledFileTranscriptionStops() async throws {
    let long = try await LongFile()
    defer { long.remove() }
    let client = TranscriptionClient.live()
    let task = Task { try await client.transcribeFile(long.url) }
    // Let it load the model and start decoding, then cancel.
    try await Task.sleep(for: .milliseconds(500))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  /// A fast replay feeding a decoder: cancelling the consumer stops both, long before the file
  /// is read (the replay never runs ahead of its consumer).
  @Test func cancelledStreamingStopsTheReplayAndTheDecoder() async throws {
    let long = try await LongFile()
    defer { long.remove() }
    let total = long.samples
    let replay = AudioCaptureClient.replaying(long.url, pace: .asFastAsPossible)
    let source = try await replay.start(nil)
    let delivered = Counter()
    let iterator = Pull(source)
    let counted = AsyncThrowingStream<AudioChunk, any Error> {
      guard let chunk = try await iterator.next() else { return nil }
      delivered.add(chunk.samples.count)
      return chunk
    }
    let (firstFinal, finalSeen) = AsyncStream<Void>.makeStream()
    let consumer = Task {
      for try await event in try await TranscriptionClient.live().transcribe(counted) {
        if case .final = event { finalSeen.yield() }
      }
    }
    for await _ in firstFinal { break }
    consumer.cancel()
    _ = await consumer.result
    let atCancel = delivered.value
    #expect(atCancel < total / 2, "\(atCancel) of \(total) samples delivered")
    // Nothing more is read once the consumer is gone, but the one chunk already asked for.
    try await Task.sleep(for: .milliseconds(500))
    let after = delivered.value
    #expect(after - atCancel <= 800, "\(after - atCancel) samples read after the cancel")
    try await Task.sleep(for: .milliseconds(500))
    #expect(delivered.value == after)
  }

  /// `stop` ends a fast replay at the next chunk.
  @Test func stoppedReplayEnds() async throws {
    let long = try await LongFile()
    defer { long.remove() }
    let total = long.samples
    let replay = AudioCaptureClient.replaying(long.url, pace: .asFastAsPossible)
    var received = 0
    for try await chunk in try await replay.start(nil) {
      received += chunk.samples.count
      if received >= 16_000 { await replay.stop() }
    }
    #expect(received >= 16_000 && received < 16_000 + 1_600)
    #expect(received < total)
  }
}

/// The stand-up six times over (about 3 minutes) in a folder of its own, for runs that must be
/// stopped early.
struct LongFile {
  let folder: URL
  let url: URL
  let samples: Int

  init() async throws {
    folder = try TemporaryDirectory().url
    url = folder.appendingPathComponent("long.wav")
    let standup = SyncUpsTestSupport.samples.appendingPathComponent("standup.wav").path
    try await sox(Array(repeating: standup, count: 6) + [url.path])
    samples = try AudioFileReader(path: url.path).info.frames
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

final class Events: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [String] = []
  var all: [String] { lock.withLock { events } }
  func append(_ event: String) { lock.withLock { events.append(event) } }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func add(_ value: Int) { lock.withLock { count += value } }
}

/// One iterator of a stream, pulled from an unfolding stream's closure (one consumer).
final class Pull: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator
  init(_ stream: AsyncThrowingStream<AudioChunk, any Error>) {
    iterator = stream.makeAsyncIterator()
  }
  func next() async throws -> AudioChunk? { try await iterator.next() }
}
