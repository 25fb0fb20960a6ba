import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import TranscriptionClient
import TranscriptionClientLive
import WorkerThreads

/// Transcribes many files on `jobs` worker threads (never the cooperative pool), each with its
/// own warm decoder, and hands the results back in input order as soon as each is next in line.
/// The longest files are decoded first, so no worker sits idle at the end while another decodes
/// the one long file that was taken last.
public struct BatchTranscriber: Sendable {
  public var jobs: Int
  public var options: DecoderOptions

  public init(
    jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    options: DecoderOptions = DecoderOptions(partials: false)
  ) {
    self.jobs = max(1, jobs)
    self.options = options
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
    let state = BatchState(order: Self.longestFirst(files))
    let options = self.options
    let group = DispatchGroup()
    for number in 1...workers {
      // Each worker's thread keeps running its one job after this value is gone.
      let worker = WorkerThread(name: "syncups.batch-\(number)", stackSize: SpeechDecoder.stackSize)
      group.enter()
      worker.submit {
        defer { group.leave() }
        let transcriber: FileTranscriber
        do throws(TranscriptionError) {
          transcriber = try FileTranscriber(options: options)
        } catch {
          state.fail(error)
          return
        }
        while let index = state.take() {
          let file = files[index]
          let outcome: Swift.Result<Transcript, FileFailure>
          do throws(AudioFileError) {
            outcome = .success(try transcriber.transcribe(path: file))
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

  /// The files' indices, longest audio first (by its header; a file whose length is unknown or
  /// that cannot be opened by its size, at 16-bit 16 kHz), ties in input order.
  static func longestFirst(_ files: [String]) -> [Int] {
    let seconds = files.map { file -> Double in
      if let info = try? AudioFileReader(path: file).info, info.duration > 0 {
        return info.duration
      }
      let bytes = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0
      return Double(bytes) / Double(2 * AudioFormat.sampleRate)
    }
    return files.indices.sorted {
      seconds[$0] > seconds[$1] || (seconds[$0] == seconds[$1] && $0 < $1)
    }
  }
}

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
