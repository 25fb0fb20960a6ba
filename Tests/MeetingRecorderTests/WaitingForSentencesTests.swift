import AudioCore
import Clocks
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import Testing
import TranscriptionClient

/// The second pass of a file read as fast as it decodes, over the fake clients of
/// `MeetingRecorderTests`.
struct WaitingForSentencesTests {
  /// A file read as fast as it decodes (`waitsForSentences`): nobody waits on a microphone, so
  /// the second pass is never stopped at the bound; the recording waits for its sentences,
  /// saying how far it is, and finishes with them.
  @Test func aFileThatWaitsForItsSentencesIsNeverStoppedAtTheBound() async {
    let clock = TestClock()
    let said = Utterance(start: 0.2, end: 1.8, text: "the zorbex team", words: [])
    let release = AsyncStream.makeStream(of: Void.self)
    let drained = LockIsolated(false)
    let fakes = FakeClients()
    var waiting = request()
    waiting.waitsForSentences = true
    let recording = Task { [waiting] in
      await record(waiting) {
        fakes.install(&$0)
        $0.continuousClock = clock
        // A decoder that takes every chunk, then needs longer than the bound to finish.
        $0.transcription.transcribeSentences = { chunks, _ in
          for try await _ in chunks {}
          drained.setValue(true)
          for await _ in release.stream { break }
          return [said]
        }
      }
    }
    while !drained.value { await Task.megaYield() }
    // Far past the bound (a second): the pass goes on.
    for _ in 0..<10 {
      await clock.advance(by: .seconds(1))
      await Task.megaYield()
    }
    release.continuation.yield()
    let events = await recording.value
    #expect(!events.contains(.sentencesLate))
    #expect(events.contains(.sentencesProgress(1)))
    #expect(events.suffix(2) == [.sentences([said]), .finished(keptAudio: true)])
  }
}
