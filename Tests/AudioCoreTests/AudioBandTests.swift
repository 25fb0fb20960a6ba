import AudioCore
import Foundation
import Testing

/// Generated 16 kHz audio: tones and seeded noise at a level well above the speech floor.
private enum Generated {
  static func tones(_ frequencies: [Double], seconds: Double, amplitude: Double = 8_000)
    -> [Int16]
  {
    let count = Int(seconds * 16_000)
    return (0..<count).map { index in
      let t = Double(index) / 16_000
      let value = frequencies.reduce(0) { $0 + sin(2 * Double.pi * $1 * t) }
      return Int16(amplitude * value / Double(frequencies.count))
    }
  }

  /// White noise from a fixed seed (a linear congruential generator).
  static func noise(seconds: Double, amplitude: Double = 8_000) -> [Int16] {
    var state: UInt64 = 44
    return (0..<Int(seconds * 16_000)).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let unit: Double = Double(state >> 11) / 9_007_199_254_740_992  // 2^53: in 0..<1
      return Int16(amplitude * (unit * 2 - 1))
    }
  }
}

@Suite("Audio band")
struct AudioBandTests {
  @Test("Silence has no band to tell")
  func silenceTellsNothing() {
    let band = AudioBand(of: [Int16](repeating: 0, count: 16_000))
    #expect(band.speechFrames == 0)
    #expect(band.highShare == nil)
    #expect(band.isNarrowband() == nil)
  }

  @Test("White noise has three eighths of its energy above 5 kHz: wideband")
  func whiteNoiseIsWideband() throws {
    let band = AudioBand(of: Generated.noise(seconds: 2))
    let share = try #require(band.highShare)
    #expect(share > 0.3 && share < 0.45)
    #expect(band.isNarrowband() == false)
    #expect(band.speechFrames == 99)
  }

  @Test("Tones inside the telephone band are narrowband; a 6 kHz tone is all high band")
  func telephoneTonesAreNarrowband() throws {
    let narrow = AudioBand(of: Generated.tones([440, 1_000, 3_000], seconds: 1))
    #expect(try #require(narrow.highShare) < AudioBand.narrowbandShare / 10)
    #expect(narrow.isNarrowband() == true)
    let high = AudioBand(of: Generated.tones([6_000], seconds: 1))
    #expect(try #require(high.highShare) > 0.95)
    #expect(high.isNarrowband() == false)
  }

  @Test("A 3.4 kHz tone, the telephone band's edge, is narrowband; a 5.5 kHz one is not")
  func bandEdgeIsNarrowband() {
    #expect(AudioBand(of: Generated.tones([3_400], seconds: 1)).isNarrowband() == true)
    #expect(AudioBand(of: Generated.tones([5_500], seconds: 1)).isNarrowband() == false)
  }

  @Test("Frames under the speech floor are not counted")
  func quietFramesAreNotSpeech() {
    let quiet = Generated.noise(seconds: 1, amplitude: 50)
    #expect(AudioBand(of: quiet).speechFrames == 0)
    // Quiet wideband noise between narrowband speech does not make it wideband.
    let speech = Generated.tones([500, 2_000], seconds: 1)
    let band = AudioBand(of: speech + quiet + speech)
    #expect(band.speechFrames == 99)
    #expect(band.isNarrowband() == true)
  }

  @Test("Fed in pieces of any size, it measures what it measures in one piece")
  func piecesMeasureTheSame() {
    let audio = Generated.noise(seconds: 0.5) + Generated.tones([1_000], seconds: 0.5)
    var pieces = AudioBand()
    var start = 0
    for size in [1, 7, 320, 999, 3, 5_000] where start < audio.count {
      pieces.add(audio[start..<min(start + size, audio.count)])
      start += size
    }
    pieces.add(audio[min(start, audio.count)...])
    #expect(pieces == AudioBand(of: audio))
  }

  @Test("Too little speech tells nothing when more is asked for")
  func minimumFramesAreKept() {
    let band = AudioBand(of: Generated.tones([1_000], seconds: 0.5))
    #expect(band.speechFrames == 24)
    #expect(band.isNarrowband(minimumFrames: 50) == nil)
    #expect(band.isNarrowband(minimumFrames: 24) == true)
  }
}
