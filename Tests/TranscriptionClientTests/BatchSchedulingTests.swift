import AudioCore
import AudioFilesClient
import Foundation
import TestSupport
import Testing

@testable import BatchTranscriber

/// The batch's scheduling, with a stand-in decoder that finishes a file only when the test says
/// so: the test decides the order in which files end and checks what each worker does next.
@Suite("Batch scheduling")
struct BatchSchedulingTests {
  static let seconds: [String: Double] = ["a": 1, "b": 9, "c": 3, "d": 5, "e": 2, "f": 4]
  static let files = ["a", "b", "c", "d", "e", "f"]

  /// The two longest files start at once, one on each worker; each time a file ends, its worker
  /// takes the longest file left straight away, so both workers are busy while files remain;
  /// the results still come in input order.
  @Test func workersStayBusyOnTheLongestFilesFirst() async throws {
    let decoding = Decoding()
    defer { decoding.releaseAll() }
    let seconds = Self.seconds
    let batch = BatchTranscriber(
      jobs: 2, seconds: { seconds[$0] ?? 0 }, makeDecoder: decoding.makeDecoder)
    let results = Results()
    let done = OneShot<Bool>()
    Thread {
      let ran = (try? batch.run(files: Self.files) { results.append($0) }) != nil
      done.happen(ran)
    }.start()

    #expect(await waitUntil { decoding.started.count == 2 })
    #expect(Set(decoding.started.map(\.file)) == ["b", "d"])
    #expect(Set(decoding.started.map(\.worker)).count == 2)
    for (ending, next) in [("d", "f"), ("b", "c"), ("f", "e"), ("c", "a")] {
      let worker = try #require(decoding.worker(decoding: ending))
      let before = decoding.started.count
      decoding.release(ending)
      #expect(await waitUntil { decoding.started.count > before || decoding.workersEnded > 0 })
      #expect(decoding.workersEnded == 0, "a worker stopped while \(next) was left")
      #expect(decoding.started.last?.file == next)
      #expect(decoding.started.last?.worker == worker)
      #expect(decoding.running == 2)
    }
    // Nothing is left to start: each worker ends with its last file.
    decoding.release("e")
    decoding.release("a")
    #expect(await done.wait() == true)
    #expect(decoding.workersEnded == 2)
    #expect(decoding.started.map(\.file) == ["b", "d", "f", "c", "e", "a"])
    let all = results.all
    #expect(all.map(\.index) == Array(Self.files.indices))
    #expect(all.map { (try? $0.outcome.get())?.text } == Self.files)
  }

  /// With more workers than files, every file starts at once and no extra decoder is made.
  @Test func noMoreWorkersThanFiles() async throws {
    let decoding = Decoding()
    defer { decoding.releaseAll() }
    let batch = BatchTranscriber(
      jobs: 8, seconds: { _ in 1 }, makeDecoder: decoding.makeDecoder)
    let done = OneShot<Bool>()
    Thread {
      done.happen((try? batch.run(files: ["x", "y"]) { _ in }) != nil)
    }.start()
    #expect(await waitUntil { decoding.started.count == 2 })
    decoding.releaseAll()
    #expect(await done.wait() == true)
    #expect(decoding.decodersMade == 2)
  }
}

/// The stand-in decoders' shared record: which worker started which file, which files may end.
private final class Decoding: @unchecked Sendable {
  struct Start: Equatable {
    var file: String
    var worker: Int
  }
  private let condition = NSCondition()
  private var starts: [Start] = []
  private var released: Set<String> = []
  private var releasedAll = false
  private var made = 0
  private var ended = 0

  var started: [Start] { locked { starts } }
  var workersEnded: Int { locked { ended } }
  var decodersMade: Int { locked { made } }
  /// Files started and not yet allowed to end.
  var running: Int { locked { starts.filter { !released.contains($0.file) }.count } }

  func worker(decoding file: String) -> Int? {
    locked { starts.first { $0.file == file }?.worker }
  }

  func makeDecoder() -> any FileDecoder {
    locked {
      made += 1
      return StandInDecoder(worker: made, decoding: self)
    }
  }

  func release(_ file: String) {
    locked { released.insert(file) }
    condition.broadcast()
  }

  func releaseAll() {
    locked { releasedAll = true }
    condition.broadcast()
  }

  /// Called on a worker's thread: blocks it until the test lets `file` end.
  func decode(_ file: String, worker: Int) {
    condition.lock()
    defer { condition.unlock() }
    starts.append(Start(file: file, worker: worker))
    while !releasedAll && !released.contains(file) { condition.wait() }
  }

  func workerEnded() { locked { ended += 1 } }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}

/// Decodes a file into a transcript that is its name, once the test allows it; says when its
/// worker is done with it.
private final class StandInDecoder: FileDecoder {
  let worker: Int
  let decoding: Decoding

  init(worker: Int, decoding: Decoding) {
    self.worker = worker
    self.decoding = decoding
  }

  deinit { decoding.workerEnded() }

  func transcribe(path: String) throws(AudioFileError) -> Transcript {
    decoding.decode(path, worker: worker)
    return Transcript(
      duration: 1, utterances: [Utterance(start: 0, end: 1, text: path, words: [])])
  }
}
