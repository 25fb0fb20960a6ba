/// Mixes several sources recorded at once (a microphone and the monitor of the output a call
/// plays through) into one stream. Sources are aligned by their sample counts from the moment
/// they all started; samples are added and held at the 16-bit limits, never wrapped around. A
/// source that delivers nothing for `maxLag` samples while another does is silence in the mix,
/// so one stalled source never holds the meeting up. When it delivers again, its samples are
/// lined up with the newest of the others (they all arrive in real time), not placed right after
/// the silence: left a whole `maxLag` behind, the next few milliseconds of jitter would cut its
/// speech with silence again and again. A source that ended is silence from then on.
public struct AudioMixer: Sendable {
  /// What one step of mixing gives: the mixed chunk, and each source's part of it (silence where
  /// it had nothing), in the sources' order, for a level meter.
  public struct Mix: Sendable, Equatable {
    public var chunk: AudioChunk
    public var parts: [AudioChunk]

    public init(chunk: AudioChunk, parts: [AudioChunk]) {
      self.chunk = chunk
      self.parts = parts
    }
  }

  private var pending: [[Int16]]
  private var ended: [Bool]
  /// Sources the mix went on without (silence in their place) since they last delivered.
  private var stalled: [Bool]
  private var position = 0
  public let maxLag: Int

  /// A mixer of `sources` sources; `maxLag` defaults to one second of audio.
  public init(sources: Int, maxLag: Int = AudioFormat.sampleRate) {
    pending = Array(repeating: [], count: sources)
    ended = Array(repeating: false, count: sources)
    stalled = Array(repeating: false, count: sources)
    self.maxLag = maxLag
  }

  /// Samples source `index` delivered, after those it delivered before.
  public mutating func append(_ samples: [Int16], from index: Int) {
    guard !ended[index] else { return }
    if stalled[index] {
      // Back after a stall: these samples end where the newest of the others' end.
      let newest = pending.indices.filter { $0 != index }.map { pending[$0].count }.max() ?? 0
      pending[index] = Array(repeating: 0, count: max(0, newest - samples.count))
      stalled[index] = false
    }
    pending[index] += samples
  }

  /// Source `index` delivers no more: it is silence from the end of what it delivered.
  public mutating func end(_ index: Int) { ended[index] = true }

  /// Every source has ended.
  public var isFinished: Bool { ended.allSatisfy { $0 } }

  /// The next mixed run: as far as every source still delivering has samples, or further when
  /// one lags by more than `maxLag`, or everything left once all have ended. Nil: nothing yet.
  public mutating func next() -> Mix? {
    let available = pending.map(\.count)
    let waitingFor = available.indices.filter { !ended[$0] }.map { available[$0] }
    let most = available.max() ?? 0
    let count =
      waitingFor.isEmpty ? most : max(waitingFor.min() ?? 0, most - maxLag)
    guard count > 0 else { return nil }
    let parts = pending.indices.map { index in
      let taken = Array(pending[index].prefix(count))
      if taken.count < count, !ended[index] { stalled[index] = true }
      pending[index].removeFirst(taken.count)
      return AudioChunk(
        samples: taken + Array(repeating: 0, count: count - taken.count), startSample: position)
    }
    let mix = Mix(
      chunk: AudioChunk(samples: Self.mix(parts.map(\.samples)), startSample: position),
      parts: parts)
    position += count
    return mix
  }

  /// The mixing rule: the samples added, held at the 16-bit limits (a loud sum clips instead of
  /// wrapping around to the other sign). All parts are the same length.
  public static func mix(_ parts: [[Int16]]) -> [Int16] {
    guard let first = parts.first else { return [] }
    guard parts.count > 1 else { return first }
    return first.indices.map { sample in
      let sum = parts.reduce(0) { $0 + Int32($1[sample]) }
      return Int16(clamping: sum)
    }
  }
}
