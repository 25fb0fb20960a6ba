import AudioCore
import Testing

/// Everything a mixer gives until it has nothing more.
private func drain(_ mixer: inout AudioMixer) -> [AudioMixer.Mix] {
  var mixes: [AudioMixer.Mix] = []
  while let mix = mixer.next() { mixes.append(mix) }
  return mixes
}

private func samples(_ mixes: [AudioMixer.Mix]) -> [Int16] { mixes.flatMap(\.chunk.samples) }

struct AudioMixerTests {
  @Test func oneSourceComesOutAsItWentIn() {
    var mixer = AudioMixer(sources: 1)
    mixer.append([1, -2, 3], from: 0)
    let mixes = drain(&mixer)
    #expect(
      mixes == [
        .init(
          chunk: AudioChunk(samples: [1, -2, 3], startSample: 0),
          parts: [AudioChunk(samples: [1, -2, 3], startSample: 0)])
      ])
    mixer.append([4], from: 0)
    #expect(drain(&mixer).map(\.chunk) == [AudioChunk(samples: [4], startSample: 3)])
  }

  /// Sources line up by their sample counts, whatever the sizes their chunks come in; a source
  /// ahead waits for the others.
  @Test func sourcesAreAddedSampleBySampleAsTheyLineUp() {
    var mixer = AudioMixer(sources: 2)
    mixer.append([10, 20, 30], from: 0)
    #expect(mixer.next() == nil)
    mixer.append([1], from: 1)
    let first = drain(&mixer)
    #expect(first.map(\.chunk) == [AudioChunk(samples: [11], startSample: 0)])
    #expect(first.first?.parts.map(\.samples) == [[10], [1]])
    mixer.append([2, 3, 4], from: 1)
    #expect(samples(drain(&mixer)) == [22, 33])
    mixer.append([5], from: 0)
    #expect(drain(&mixer).map(\.chunk) == [AudioChunk(samples: [9], startSample: 3)])
  }

  /// The mixing rule: a sum past the 16-bit range holds at its limit, never wrapping around
  /// to the other sign.
  @Test func loudSumsClipInsteadOfWrappingAround() {
    #expect(
      AudioMixer.mix([[32_000, -32_000, 30_000], [32_000, -32_000, -10_000]])
        == [32_767, -32_768, 20_000])
    #expect(AudioMixer.mix([[20_000], [20_000], [-5_000]]) == [32_767])
    #expect(AudioMixer.mix([[Int16.max, Int16.min]]) == [Int16.max, Int16.min])
  }

  /// A source that delivers nothing does not hold the others up for more than `maxLag`: past
  /// it, the stalled source is silence in the mix.
  @Test func aStalledSourceIsSilenceOnceItLagsTooFar() {
    var mixer = AudioMixer(sources: 2, maxLag: 4)
    mixer.append([1, 1, 1, 1], from: 0)
    #expect(mixer.next() == nil)
    mixer.append([2, 2], from: 0)
    let mixes = drain(&mixer)
    #expect(mixes.map(\.chunk) == [AudioChunk(samples: [1, 1], startSample: 0)])
    #expect(mixes.first?.parts.map(\.samples) == [[1, 1], [0, 0]])
  }

  /// A source that comes back after a stall lines up with the newest samples of the others, so
  /// the others running a little ahead now and then (chunks arrive in either order) never cut
  /// its speech with silence; before, it came back a whole `maxLag` behind, and any such jitter
  /// put silence between its chunks (a virtual microphone that started late came out choppy).
  @Test func aSourceBackFromAStallLinesUpWithTheOthers() {
    var mixer = AudioMixer(sources: 2, maxLag: 4)
    mixer.append([1, 1, 1, 1, 1, 1], from: 0)
    var mixes = drain(&mixer)
    #expect(mixes.flatMap { $0.parts[1].samples } == [0, 0])
    mixer.append([5, 5], from: 1)
    for _ in 0..<3 {
      mixer.append([1, 1], from: 0)
      mixer.append([1, 1], from: 0)
      mixes += drain(&mixer)
      mixer.append([5, 5], from: 1)
      mixer.append([5, 5], from: 1)
      mixes += drain(&mixer)
    }
    mixer.end(0)
    mixer.end(1)
    mixes += drain(&mixer)
    #expect(mixes.flatMap { $0.parts[1].samples } == [0, 0, 0, 0] + Array(repeating: 5, count: 14))
    #expect(samples(mixes) == [1, 1, 1, 1, 6, 6] + Array(repeating: 6, count: 12))
  }

  /// A source that ended is silence from then on; once all have ended, what is left comes out.
  @Test func anEndedSourceIsSilenceAndTheRestComesOut() {
    var mixer = AudioMixer(sources: 2)
    mixer.append([1, 2], from: 0)
    mixer.append([5], from: 1)
    mixer.end(1)
    mixer.append([7], from: 1)
    #expect(samples(drain(&mixer)) == [6, 2])
    #expect(!mixer.isFinished)
    mixer.append([3], from: 0)
    mixer.end(0)
    #expect(mixer.isFinished)
    #expect(drain(&mixer).map(\.chunk) == [AudioChunk(samples: [3], startSample: 2)])
  }
}
