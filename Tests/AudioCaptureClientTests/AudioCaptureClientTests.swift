import AudioCaptureClient
import AudioCaptureClientLive
import AudioCore
import AudioFilesClientLive
import Dependencies
import Foundation
import SyncUpsTestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

@Suite("Audio capture client", .serialized)
struct AudioCaptureClientTests {
  @Test func noServerGivesOneClearLine() async throws {
    let capture = AudioCaptureClient.live(server: "unix:/nonexistent/syncups-pulse")
    await #expect {
      try await capture.checkAvailability(nil)
    } throws: { error in
      guard let error = error as? AudioCaptureError, case .serverNotRunning = error else {
        return false
      }
      let line = error.description
      return line.hasPrefix("PulseAudio is not running: ") && !line.contains("\n")
    }
    await #expect(throws: AudioCaptureError.self) { _ = try await capture.start(nil) }
    await #expect(throws: AudioCaptureError.self) { _ = try await capture.sources() }
  }

  @Test func listsSourcesAndRefusesUnknownOnes() async throws {
    let microphone = try VirtualMicrophone()
    defer { microphone.remove() }
    let capture = AudioCaptureClient.live()
    let sources = try await capture.sources()
    #expect(sources.contains { $0.name == microphone.name })
    try await capture.checkAvailability(microphone.name)
    await #expect(throws: AudioCaptureError.sourceNotFound(name: "syncups_no_such_source")) {
      try await capture.checkAvailability("syncups_no_such_source")
    }
  }

  /// The replaying test value delivers a file's chunks no faster than a microphone would.
  @Test func replayInRealTimeKeepsPace() async throws {
    let url = samples.appendingPathComponent("hello.wav")
    let expected = try AudioFileReader(path: url.path).readAll()
    let capture = AudioCaptureClient.replaying(url, pace: .realTime, chunkSamples: 800)
    let clock = ContinuousClock()
    let started = clock.now
    var received: [Int16] = []
    for try await chunk in try await capture.start(nil) {
      // A chunk never arrives before the moment its last sample would have been spoken.
      #expect(clock.now - started >= .seconds(chunk.end) - .milliseconds(5))
      #expect(chunk.startSample == received.count)
      received += chunk.samples
    }
    #expect(received == expected)
  }

  /// The stream ends with a clear error when the server goes away mid-recording.
  @Test func serverGoingAwayEndsTheStreamWithAnError() async throws {
    let pulse = DisposablePulse()
    try pulse.start()
    let microphone = try VirtualMicrophone(environment: pulse.environment)
    defer {
      microphone.remove()
      pulse.remove()
    }
    let capture = AudioCaptureClient.live(server: pulse.server)
    let chunks = try await capture.start(microphone.name)
    let feeding = Flag()
    let player = Task { try? await microphone.play([]) { feeding.isSet } }
    var received = 0
    let error: (any Error)? = await {
      do {
        for try await chunk in chunks {
          received += chunk.samples.count
          // Once: chunks already buffered still arrive, and a second kill finds no daemon.
          if received >= 16_000, received - chunk.samples.count < 16_000 { try pulse.kill() }
        }
        return nil
      } catch {
        return error
      }
    }()
    feeding.set()
    _ = await player.value
    let captureError = try #require(error as? AudioCaptureError)
    guard case .connectionLost = captureError else {
      Issue.record("expected connectionLost, got \(captureError)")
      return
    }
    #expect(captureError.description.hasPrefix("PulseAudio stopped while recording: "))
  }

  /// A sample played into a virtual microphone, captured through PulseAudio and transcribed,
  /// gives exactly the file path's transcript; the captured audio holds the played samples.
  @Test func microphoneTranscriptEqualsFileTranscript() async throws {
    let url = samples.appendingPathComponent("standup.wav")
    let played =
      try AudioFileReader(path: url.path).readAll() + [Int16](repeating: 0, count: 16_000)
    let fileTranscript = try await TranscriptionClient.live().transcribeFile(url)

    let microphone = try VirtualMicrophone()
    defer { microphone.remove() }
    let capture = AudioCaptureClient.live()
    let chunks = try await capture.start(microphone.name)
    let captured = Captured()
    let (tap, tapContinuation) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    let forward = Task {
      do {
        for try await chunk in chunks {
          captured.append(chunk.samples)
          tapContinuation.yield(chunk)
        }
        tapContinuation.finish()
      } catch {
        tapContinuation.finish(throwing: error)
      }
    }
    let events = try await TranscriptionClient.live().transcribe(tap)
    let done = Flag()
    let player = Task {
      try await microphone.play(played) { done.isSet }
    }
    // Stop once the played audio (and a second of silence) has been captured.
    let stopper = Task {
      while captured.count < played.count + 16_000 * 2 {
        try await Task.sleep(for: .milliseconds(50))
      }
      await capture.stop()
    }
    let clock = ContinuousClock()
    var finals: [(Utterance, ContinuousClock.Instant)] = []
    for try await event in events {
      if case .final(let utterance) = event { finals.append((utterance, clock.now)) }
    }
    _ = await forward.result
    try await stopper.value
    // Feed silence a little longer so the reading thread's last read returns.
    try await Task.sleep(for: .milliseconds(200))
    done.set()
    let started = try await player.value

    // The microphone delivered the very samples played, after some silence before them.
    let audio = captured.samples
    let lead = try #require(audio.firstIndex { $0 != 0 }) - (played.firstIndex { $0 != 0 } ?? 0)
    #expect(lead >= 0)
    #expect(Array(audio[lead..<min(audio.count, lead + played.count)]) == played)

    #expect(finals.map(\.0.text) == fileTranscript.utterances.map(\.text))

    // Latency: from the end of each utterance in the played audio to its final result.
    let latencies = finals.map { utterance, arrived in
      let endInPlayed = utterance.end - Double(lead) / 16_000
      let spoken = started + .seconds(endInPlayed)
      let latency = arrived - spoken
      return Double(latency.components.seconds) + Double(latency.components.attoseconds) / 1e18
    }
    let report = latencies.map { String(format: "%.3f", $0) }.joined(separator: " ")
    print(
      "microphone latency per utterance (s): \(report); max \(String(format: "%.3f", latencies.max() ?? 0))"
    )
    #expect(!latencies.isEmpty)
  }
}

final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var all: [Int16] = []
  var samples: [Int16] { lock.withLock { all } }
  var count: Int { lock.withLock { all.count } }
  func append(_ samples: [Int16]) { lock.withLock { all += samples } }
}
