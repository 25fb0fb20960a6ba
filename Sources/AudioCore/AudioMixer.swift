/// Mixes several sources recorded at once (a microphone and the monitor of the output a call
/// plays through) into one stream. Sources are aligned by their sample counts from the moment
/// they all started; samples are added and held at the 16-bit limits, never wrapped around. A
/// source that delivers nothing for `maxLag` samples while another does is silence in the mix,
/// so one stalled source never holds the meeting up; a source that ended is silence from then on.
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
  private var position = 0
  public let maxLag: Int

  /// A mixer of `sources` sources; `maxLag` defaults to one second of audio.
  public init(sources: Int, maxLag: Int = AudioFormat.sampleRate) {
    pending = Array(repeating: [], count: sources)
    ended = Array(repeating: false, count: sources)
    self.maxLag = maxLag
  }

  /// Samples source `index` delivered, after those it delivered before.
  public mutating func append(_ samples: [Int16], from index: Int) {
    guard !ended[index] else { return }
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
