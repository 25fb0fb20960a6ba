import AudioCore
import CPocketSphinx
import Foundation

/// Where the sentences of a stream are, found as a decoder finds its utterances (its front end's
/// voice activity detection, same settings) but without decoding them: each comes out as the
/// range of the stream's samples to decode on its own, from a quarter second before its speech
/// to a quarter second after. Under noise (other voices talking) the detector may hear speech
/// throughout: a pause half a second longer than the one that ends a sentence in silence, 12 dB
/// below the sentence's loudest, ends it too. A sentence still going after 30 s is cut at its
/// quietest 10 ms of the last 2 s, so no sentence keeps more than that waiting. Not thread-safe.
final class SentenceFinder {
  private let frontEnd: MFCCFrontEnd
  /// Samples from the start of a sentence's speech to the moment the detector says it began
  /// (speech must last `-vad_startspeech` frames), and from its end to the moment the detector
  /// says it ended (`-vad_postspeech` frames of silence).
  private let startDelay: Int
  private let endDelay: Int
  /// Samples taken in so far (whole 10 ms blocks).
  private(set) var seen = 0
  private var pending: [Int16] = []
  /// The sentence being heard: its range's first sample, and the energy of each 10 ms block
  /// from sample `blocksFrom` on.
  private var first: Int?
  private var energies: [Double] = []
  private var blocksFrom = 0
  /// Loudness (dB, over the last `smoothing` blocks), the sentence's loudest, and how long it
  /// has been `dip` below that (from sample `quietFrom`); `afterDip`: a sentence ended at such
  /// a pause while the detector still hears speech (noise), and the next starts when it is
  /// loud again.
  private var recent: [Double] = []
  private var level = 0.0
  private var quiet = 0
  private var quietFrom = 0
  private var afterDip = false
  static let smoothing = 5
  static let dip = 12.0
  /// Half a second more than the detector's silence: measured over eight clean stand-ups, as
  /// long gave 21.0 % word errors (pauses between sentences of a turn were taken for a turn's
  /// end), 0.2 s more 20.2 %, 0.5 s more 19.4 %, as without; babble rooms stayed at 94-100 %
  /// of words to the right person.
  static let longerUnderNoise = AudioFormat.sampleRate / 2

  static let margin = AudioFormat.sampleRate / 4
  static let longest = 30 * AudioFormat.sampleRate
  static let cutWindow = 2 * AudioFormat.sampleRate
  private static let block = AudioFormat.sampleRate / 100

  /// A finder with `config`'s front-end and detection settings (a decoder's).
  init?(config: OpaquePointer) {
    guard let frontEnd = MFCCFrontEnd(config: config) else { return nil }
    self.frontEnd = frontEnd
    startDelay = Int(cmd_ln_int_r(config, "-vad_startspeech")) * Self.block
    endDelay = Int(cmd_ln_int_r(config, "-vad_postspeech")) * Self.block
    frontEnd.startUtterance()
  }

  /// Starts a new stream: samples count from zero again.
  func startStream() {
    frontEnd.startStream()
    seen = 0
    pending = []
    first = nil
    recent = []
    afterDip = false
  }

  /// The first sample a sentence may still need: what comes before it can be let go.
  var firstNeeded: Int { first ?? max(seen - startDelay - Self.margin, 0) }

  /// The first sample of the sentence being heard, if one is.
  var openSince: Int? { first }

  /// Feeds samples; returns the sentences that ended, in order.
  func process(_ samples: [Int16]) -> [Range<Int>] {
    pending.append(contentsOf: samples)
    var found: [Range<Int>] = []
    var offset = 0
    while pending.count - offset >= Self.block {
      let block = Array(pending[offset..<offset + Self.block])
      offset += Self.block
      frontEnd.process(block) { _ in }
      seen += Self.block
      if let sentence = step(block) { found.append(sentence) }
    }
    pending.removeFirst(offset)
    return found
  }

  /// The stream ended: the sentence still being heard, if any.
  func finish() -> [Range<Int>] {
    defer { first = nil }
    guard let first else { return [] }
    return [first..<seen]
  }

  private func step(_ block: [Int16]) -> Range<Int>? {
    let speech = frontEnd.inSpeech
    let power = block.reduce(0) { $0 + Double($1) * Double($1) }
    recent.append(10 * log10(power / Double(Self.block) + 1))
    if recent.count > Self.smoothing { recent.removeFirst() }
    let loudness = recent.reduce(0, +) / Double(recent.count)
    guard let begun = first else {
      if !speech {
        afterDip = false
      } else if !afterDip || loudness > level - Self.dip {
        first = max(seen - (afterDip ? Self.block : startDelay) - Self.margin, 0)
        afterDip = false
        level = loudness
        quiet = 0
        energies = []
        blocksFrom = seen
      }
      return nil
    }
    if !speech {
      first = nil
      return begun..<max(seen - endDelay + Self.margin, begun)
    }
    // A pause under noise: longer than the detector's, `dip` below the sentence's loudest.
    level = max(level, loudness)
    if loudness < level - Self.dip {
      if quiet == 0 { quietFrom = seen - Self.block }
      quiet += Self.block
    } else {
      quiet = 0
    }
    if quiet >= endDelay + Self.longerUnderNoise {
      first = nil
      afterDip = true
      return begun..<max(quietFrom + Self.margin, begun)
    }
    energies.append(power)
    guard seen - begun >= Self.longest else { return nil }
    // Cut in the middle of the quietest block of the last 2 s; the next sentence starts there.
    let window = energies.suffix(Self.cutWindow / Self.block)
    let quietest = window.indices.min { window[$0] < window[$1] } ?? energies.count - 1
    let cut = blocksFrom + quietest * Self.block + Self.block / 2
    energies.removeFirst(quietest + 1)
    blocksFrom += (quietest + 1) * Self.block
    first = cut
    return begun..<cut
  }
}
