import AudioCore
import AudioFilesClientLive
import Foundation
import TranscriptionClient
import TranscriptionClientLive

// The lag of a 1 s timer in this process while two decoders run as fast as they can, through
// the live transcription client (each decoder on a thread of its own), against two baselines
// measured in the same run: no decoder, and two decoders run on the cooperative pool as they
// were before. Prints one line. `timer-lag [--ticks N] [--audio FILE] [--verbose]`.
// Measured on the machine as it is, in one run: the ratio to the baselines is what counts.

/// The audio every decoder decodes, over and over.
struct Audio: Sendable {
  var chunks: [AudioChunk]
  var seconds: Double

  init(path: String) throws {
    let samples = try AudioFileReader(path: path).readAll()
    seconds = AudioFormat.seconds(samples: samples.count)
    chunks = stride(from: 0, to: samples.count, by: AudioFormat.chunkSamples).map { start in
      AudioChunk(
        samples: Array(samples[start..<min(samples.count, start + AudioFormat.chunkSamples)]),
        startSample: start)
    }
  }
}

/// How late each tick of a 1 s timer came, in milliseconds.
func timerLags(ticks: Int) async throws -> [Double] {
  let clock = ContinuousClock()
  let start = clock.now
  var lags: [Double] = []
  for tick in 1...ticks {
    let deadline = start + .seconds(tick)
    try await clock.sleep(until: deadline, tolerance: nil)
    let lag = clock.now - deadline
    lags.append(Double(lag.components.seconds) * 1_000 + Double(lag.components.attoseconds) / 1e15)
  }
  return lags
}

/// Seconds of audio decoded, shared by the decoding loops.
final class Progress: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds = 0.0
  private var stopped = false
  var audioSeconds: Double { lock.withLock { seconds } }
  var isStopped: Bool { lock.withLock { stopped } }
  func add(_ value: Double) { lock.withLock { seconds += value } }
  func stop() { lock.withLock { stopped = true } }
}

/// Two decoders through the live client: chunks handed across, decoding on their threads.
func decodeWithLiveClient(_ audio: Audio, _ progress: Progress) async throws {
  let client = TranscriptionClient.live(options: DecoderOptions(partials: true))
  try await withThrowingTaskGroup(of: Void.self) { group in
    for _ in 0..<2 {
      group.addTask {
        while !progress.isStopped {
          let (input, feed) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
          for chunk in audio.chunks { feed.yield(chunk) }
          feed.finish()
          for try await _ in try await client.transcribe(input) {}
          progress.add(audio.seconds)
        }
      }
    }
    try await group.waitForAll()
  }
}

/// The baseline: the same decoding done inside tasks of the cooperative pool.
func decodeOnThePool(_ audio: Audio, _ progress: Progress) async throws {
  try await withThrowingTaskGroup(of: Void.self) { group in
    for _ in 0..<2 {
      group.addTask {
        let decoder = try SpeechDecoder(options: DecoderOptions(partials: true))
        while !progress.isStopped {
          decoder.startStream()
          for chunk in audio.chunks { _ = decoder.process(chunk.samples) }
          _ = decoder.finish()
          progress.add(audio.seconds)
          // The old client's task let go of its thread only between streams.
          await Task.yield()
        }
      }
    }
    try await group.waitForAll()
  }
}

/// Measures `ticks` timer ticks while `load` runs, then stops it.
func measure(
  ticks: Int, audio: Audio, while load: (@Sendable (Audio, Progress) async throws -> Void)?
) async throws -> (lags: [Double], speed: Double) {
  let progress = Progress()
  let started = ContinuousClock.now
  let running = load.map { load in Task { try await load(audio, progress) } }
  let lags = try await timerLags(ticks: ticks)
  progress.stop()
  try await running?.value
  let elapsed = ContinuousClock.now - started
  let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return (lags, progress.audioSeconds / wall)
}

func summary(_ lags: [Double]) -> String {
  let sorted = lags.sorted()
  func percentile(_ p: Double) -> Double {
    sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
  }
  func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
  return "p50 \(ms(percentile(0.5))) / p99 \(ms(percentile(0.99))) / max \(ms(sorted.last ?? 0))"
}

func log(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

@main
enum TimerLag {
  static func main() async throws {
    let arguments = CommandLine.arguments
    func option(_ name: String) -> String? {
      arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    let ticks = option("--ticks").flatMap(Int.init) ?? 30
    let audio: Audio
    do {
      audio = try Audio(path: option("--audio") ?? "Samples/standup.wav")
    } catch {
      log("timer-lag: \(error)")
      exit(1)
    }
    let verbose = arguments.contains("--verbose")
    let short = max(3, ticks / 5)
    let idle = try await measure(ticks: short, audio: audio, while: nil)
    let threads = try await measure(ticks: ticks, audio: audio, while: decodeWithLiveClient)
    let pool = try await measure(ticks: short, audio: audio, while: decodeOnThePool)
    if verbose {
      log("timer-lag: lags (ms), idle: \(idle.lags)")
      log("timer-lag: lags (ms), decoders on their threads: \(threads.lags)")
      log("timer-lag: lags (ms), decoders on the pool: \(pool.lags)")
    }
    print(
      "Timer lag (1 s timer, \(ticks) ticks) while two decoders run as fast as they can "
        + String(format: "(%.0fx real time together): ", threads.speed)
        + "\(summary(threads.lags)); idle \(summary(idle.lags)); decoders on the cooperative "
        + String(format: "pool as before (%.0fx): ", pool.speed) + summary(pool.lags))
  }
}
