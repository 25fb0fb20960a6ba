import Foundation

/// Which band a recording actually has: the share of its speech's energy above 5 kHz. A
/// telephone line, a call bridge or a cheap headset carries 300-3400 Hz at 8 kHz, so once
/// resampled to 16 kHz nothing is left above 4 kHz; a wideband microphone keeps the fricatives
/// and breath there. Measured with a 12th-order Butterworth high-pass at 5 kHz (clear of the
/// telephone band's edge: a 3.4 kHz tone leaks 2e-7 of its energy) over 20 ms frames louder than
/// -50 dBFS: the human-speech clips as recorded 0.08-22 %, flite's voices 0.0015-6 %, the same
/// clips through the telephone band (sox, 8 kHz, `sinc 300-3400`) and Asterisk's 8 kHz prompts
/// at most 0.00015 %. Feed it samples in order; it keeps the filter's state between calls (the
/// first 20 ms only settle it). Not thread-safe.
public struct AudioBand: Sendable, Equatable {
  /// Below this share of energy above 5 kHz the speech is narrowband (-53 dB; the measured gap
  /// is 1.5e-6 to 1.5e-5).
  public static let narrowbandShare = 5e-6
  /// Frames quieter than this mean square (an RMS of 100, -50 dBFS) are not speech and are not
  /// counted.
  static let floor = 100.0 * 100.0
  static let frameSamples = 320

  /// Energy above 5 kHz and in all, summed over the speech frames so far.
  public private(set) var highEnergy = 0.0
  public private(set) var totalEnergy = 0.0
  /// Speech frames (20 ms each) counted so far.
  public private(set) var speechFrames = 0
  private var sections = HighPass.butterworth12
  private var frameHigh = 0.0
  private var frameTotal = 0.0
  private var frameCount = 0
  /// Samples still to go through the filter before frames count: it starts from silence, and a
  /// first sample far from it would ring above 5 kHz.
  private var settling = AudioBand.frameSamples

  public init() {}

  /// The band of `samples` (16 kHz) on their own.
  public init(of samples: some Collection<Int16>) {
    self.init()
    add(samples)
  }

  /// The share of the speech's energy above 5 kHz; nil before any speech.
  public var highShare: Double? {
    speechFrames > 0 && totalEnergy > 0 ? highEnergy / totalEnergy : nil
  }

  /// True when the speech has (almost) nothing above 5 kHz, false when it has, nil before any
  /// speech or with fewer than `minimumFrames` of it.
  public func isNarrowband(minimumFrames: Int = 1) -> Bool? {
    guard speechFrames >= max(1, minimumFrames), let share = highShare else { return nil }
    return share < Self.narrowbandShare
  }

  /// Counts `samples` (16 kHz), continuing from the ones before.
  public mutating func add(_ samples: some Collection<Int16>) {
    for sample in samples {
      let x = Double(sample)
      var y = x
      for index in sections.indices { y = sections[index].filter(y) }
      if settling > 0 {
        settling -= 1
        continue
      }
      frameHigh += y * y
      frameTotal += x * x
      frameCount += 1
      if frameCount == Self.frameSamples { endFrame() }
    }
  }

  private mutating func endFrame() {
    let count = Double(frameCount)
    if frameTotal / count >= Self.floor {
      highEnergy += frameHigh
      totalEnergy += frameTotal
      speechFrames += 1
    }
    frameHigh = 0
    frameTotal = 0
    frameCount = 0
  }

  /// One second-order section of the high-pass (direct form II transposed).
  struct HighPass: Sendable, Equatable {
    var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    var z1 = 0.0
    var z2 = 0.0

    mutating func filter(_ x: Double) -> Double {
      let y = b0 * x + z1
      z1 = b1 * x - a1 * y + z2
      z2 = b2 * x - a2 * y
      return y
    }

    /// A Butterworth high-pass section at `cutoff` Hz of 16 kHz audio with quality `q`
    /// (bilinear transform).
    init(cutoff: Double, q: Double) {
      let k = tan(Double.pi * cutoff / Double(AudioFormat.sampleRate))
      let norm = 1 / (1 + k / q + k * k)
      b0 = norm
      b1 = -2 * norm
      b2 = norm
      a1 = 2 * (k * k - 1) * norm
      a2 = (1 - k / q + k * k) * norm
    }

    /// The six sections of a 12th-order Butterworth high-pass at 5 kHz.
    static let butterworth12: [HighPass] = (1...6).map { index in
      HighPass(cutoff: 5_000, q: 1 / (2 * cos(Double(2 * index - 1) * Double.pi / 24)))
    }
  }
}
