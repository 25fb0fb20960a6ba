import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import TranscriptionClient
import TranscriptionClientLive
import WorkerThreads

/// Transcribes many files on `jobs` worker threads (never the cooperative pool), each with its
/// own warm decoder, and hands the results back in input order as soon as each is next in line.
/// The longest files are decoded first and a worker takes the next file as soon as it is done,
/// so every worker stays busy until no file is left to start: none sits idle at the end while
/// another decodes one long file that was taken last.
public struct BatchTranscriber: Sendable {
  public var jobs: Int
  /// Makes one worker's decoder, on that worker's thread, before it takes a file.
  var makeDecoder: @Sendable () throws(TranscriptionError) -> any FileDecoder
  /// A file's length in seconds, which orders the work.
  var seconds: @Sendable (String) -> Double

  /// The real decoder (`FileTranscriber`), files ordered by the length their header gives.
  public init(
    jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    options: DecoderOptions = DecoderOptions(partials: false),
    meanSeconds: Int = 0,
    bySentence: Bool = false
  ) {
    self.init(jobs: jobs, seconds: Self.audioSeconds) { () throws(TranscriptionError) in
      try FileTranscriber(options: options, meanSeconds: meanSeconds, bySentence: bySentence)
    }
  }

  /// Any decoder and any lengths (tests).
  init(
    jobs: Int,
    seconds: @escaping @Sendable (String) -> Double,
    makeDecoder: @escaping @Sendable () throws(TranscriptionError) -> any FileDecoder
  ) {
    self.jobs = max(1, jobs)
    self.seconds = seconds
    self.makeDecoder = makeDecoder
  }

  /// One file's outcome.
  public struct Result: Sendable {
    public var index: Int
    public var file: String
    /// The transcript, or the one-line reason it failed.
    public var outcome: Swift.Result<Transcript, FileFailure>
  }

  public struct FileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// Runs the batch. `emit` gets results in input order (called on worker threads, one at a
  /// time); `progress` gets (finished, total) after each file. Throws only when no decoder could
  /// be made (e.g. the model is missing), before any file is decoded.
  public func run(
    files: [String],
    progress: (@Sendable (Int, Int) -> Void)? = nil,
    emit: @escaping @Sendable (Result) -> Void
  ) throws(TranscriptionError) {
    guard !files.isEmpty else { return }
    let workers = min(jobs, files.count)
    let state = BatchState(order: Self.longestFirst(files.map(seconds)))
    let makeDecoder = self.makeDecoder
    let group = DispatchGroup()
    for number in 1...workers {
      // Each worker's thread keeps running its one job after this value is gone.
      let worker = WorkerThread(name: "syncups.batch-\(number)", stackSize: SpeechDecoder.stackSize)
      group.enter()
      worker.submit {
        defer { group.leave() }
        let decoder: any FileDecoder
        do throws(TranscriptionError) {
          decoder = try makeDecoder()
        } catch {
          state.fail(error)
          return
        }
        while let index = state.take() {
          let file = files[index]
          let outcome: Swift.Result<Transcript, FileFailure>
          do throws(AudioFileError) {
            outcome = .success(try decoder.transcribe(path: file))
          } catch {
            outcome = .failure(FileFailure(error.description))
          }
          state.finish(
            Result(index: index, file: file, outcome: outcome), emit: emit, progress: progress)
        }
      }
    }
    group.wait()
    if let error = state.setupError, state.finished < files.count { throw error }
  }

  /// Indices by `seconds`, longest first, ties in input order.
  static func longestFirst(_ seconds: [Double]) -> [Int] {
    seconds.indices.sorted {
      seconds[$0] > seconds[$1] || (seconds[$0] == seconds[$1] && $0 < $1)
    }
  }

  /// A file's length from its header; for a file whose length is unknown or that cannot be
  /// opened, its size as 16-bit 16 kHz audio (it still gets its turn, and its one-line error).
  static func audioSeconds(_ file: String) -> Double {
    if let info = try? AudioFileReader(path: file).info, info.duration > 0 {
      return info.duration
    }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0
    return Double(bytes) / Double(2 * AudioFormat.sampleRate)
  }
}

/// What a batch worker decodes its files with: one per worker, used on that worker's thread only.
protocol FileDecoder {
  func transcribe(path: String) throws(AudioFileError) -> Transcript
}

extension FileTranscriber: FileDecoder {}

/// The work queue (in `order`) and the in-order output buffer shared by the workers.
private final class BatchState: @unchecked Sendable {
  private let lock = NSLock()
  private let order: [Int]
  private var total: Int { order.count }
  private var nextToTake = 0
  private var nextToEmit = 0
  private var done: [Int: BatchTranscriber.Result] = [:]
  private(set) var finished = 0
  private(set) var setupError: TranscriptionError?

  init(order: [Int]) { self.order = order }

  func take() -> Int? {
    lock.withLock {
      guard setupError == nil, nextToTake < total else { return nil }
      defer { nextToTake += 1 }
      return order[nextToTake]
    }
  }

  func fail(_ error: TranscriptionError) {
    lock.withLock { if setupError == nil { setupError = error } }
  }

  func finish(
    _ result: BatchTranscriber.Result,
    emit: @Sendable (BatchTranscriber.Result) -> Void,
    progress: (@Sendable (Int, Int) -> Void)?
  ) {
    lock.withLock {
      done[result.index] = result
      finished += 1
      while let next = done.removeValue(forKey: nextToEmit) {
        emit(next)
        nextToEmit += 1
      }
      progress?(finished, total)
    }
  }
}
