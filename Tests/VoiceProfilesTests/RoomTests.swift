import AudioCore
import Foundation
import Testing
import VoiceProfiles

/// `frames` as heard in another room: every cepstrum moved and squeezed alike (the room's
/// reverb and noise), plus a little noise of its own.
private func inRoom(_ frames: VoiceFrames, voices: inout Voices, scale: Float, shift: Float)
  -> VoiceFrames
{
  var moved = frames
  for index in moved.values.indices where index % frames.dimension != 0 {
    moved.values[index] =
      moved.values[index] * scale + shift + Float(0.2 * voices.normal())
  }
  return moved
}

@Suite struct RoomTests {
  @Test("warping gives each coefficient the meeting's ranks as standard normal values")
  func warpingKeepsOrderAndStandardises() throws {
    var voices = Voices()
    let speech = (0..<4).map { SpeechFrames(voices.frames($0, seconds: 5, start: 0), keeping: 1) }
    let warped = RoomNormalisation.warped(speech).compactMap { $0 }
    #expect(warped.map(\.count) == speech.map(\.count))
    let all = FrameSet.joined(warped.map(\.frames), dimension: 12)
    for d in 0..<12 {
      let values = (0..<all.count).map { Double(all[$0][all[$0].startIndex + d]) }
      let mean = values.reduce(0, +) / Double(values.count)
      let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
      #expect(abs(mean) < 1e-3)
      #expect(abs(variance - 1) < 0.02)
    }
    // The order of the values of a coefficient is kept.
    let before = speech[1].frames
    let after = warped[1].frames
    for index in 1..<before.count {
      #expect(
        (before[index - 1].first! < before[index].first!)
          == (after[index - 1].first! < after[index].first!))
    }
  }

  /// Voices learned in a quiet room, heard in another that moves and squeezes every cepstrum:
  /// each sentence still goes to its speaker, though none is in its slot.
  @Test("a voice learned in one room is recognised in another")
  func aVoiceLearnedInOneRoomIsRecognisedInAnother() {
    var voices = Voices(state: 7)
    var first: [SpeakerLabels.Sentence] = []
    for voice in 0..<3 {
      for turn in 0..<2 {
        let start = Double(voice * 12 + turn * 6)
        first.append(voices.sentence(voice, slot: voice, seconds: 5, start: start))
      }
    }
    let learned = SpeakerLabels.label(first, attendees: 3, profiles: [:]).learned
    #expect(learned.count == 3)
    let said = [2, 0, 1, 2, 1, 0]
    let second = said.enumerated().map { index, voice in
      let start = Double(index) * 5
      return SpeakerLabels.Sentence(
        voice: inRoom(
          voices.frames(voice, seconds: 4, start: start), voices: &voices, scale: 0.6, shift: 1.5),
        slot: index / 2, words: voices.words(from: start, seconds: 4))
    }
    let outcome = SpeakerLabels.label(second, attendees: 3, profiles: learned)
    #expect(outcome.parts.map { $0.map(\.speaker) } == said.map { [$0] })
  }

  /// A first meeting in which all three speak in the first slot (a round of hellos, Ana twice)
  /// and then take turns in any order: the voices are grouped and named in the order the
  /// attendees first speak, not after the slots.
  @Test("a first meeting whose turns ignore the slots names each voice")
  func aFirstMeetingWhoseTurnsIgnoreTheSlotsNamesEachVoice() {
    var voices = Voices(state: 99)
    let said: [(voice: Int, slot: Int, seconds: Double)] = [
      (0, 0, 2), (1, 0, 2), (0, 0, 2), (2, 0, 2), (2, 0, 5), (2, 1, 4), (0, 1, 6), (1, 2, 3),
      (2, 2, 5), (0, 2, 4),
    ]
    var time = 0.0
    let sentences = said.map { voice, slot, seconds in
      defer { time += seconds + 0.5 }
      return voices.sentence(voice, slot: slot, seconds: seconds, start: time)
    }
    let outcome = SpeakerLabels.label(sentences, attendees: 3, profiles: [:])
    #expect(outcome.parts.map { $0.map(\.speaker) } == said.map { [$0.voice] })
  }

  /// A profile learned from other features (before the rooms were warped) is as if never
  /// learned; one taught by a corrected segment reads the frames as its meeting's room made them.
  @Test("a profile of other features is not read, and a taught one is")
  func aProfileOfOtherFeaturesIsNotRead() throws {
    let model = #"{"dimension":1,"weights":[1],"means":[0],"variances":[1],"counts":[1]}"#
    let old = Data(#"{"model":\#(model),"meetings":1,"seconds":2}"#.utf8)
    #expect(throws: DecodingError.self) { try VoiceProfile.decoded(old) }
    var voices = Voices()
    var meeting = voices.frames(0, seconds: 6, start: 0)
    meeting.values += voices.frames(1, seconds: 6, start: 6).values
    let taught = try #require(
      VoiceProfile.taught(nil, by: voices.frames(1, seconds: 3, start: 0), in: meeting))
    #expect(try VoiceProfile.decoded(taught.encoded()) == taught)
    #expect(taught.meetings == 1 && taught.seconds > 1)
  }

  /// A noisy room where the recogniser heard no pause between turns: the whole meeting came as
  /// one sentence. It is told apart in pieces cut at its pauses, each turn to its speaker.
  @Test("a meeting heard as one long sentence is told apart at its pauses")
  func aMeetingHeardAsOneSentenceIsToldApartAtItsPauses() {
    var voices = Voices(state: 5)
    let turns = [0, 1, 2, 0, 1]
    var frames = VoiceFrames(dimension: 13, start: 0)
    var words: [ClosedRange<Double>] = []
    for (turn, voice) in turns.enumerated() {
      frames.values += voices.frames(voice, seconds: 5, start: 0).values
      var turnWords = voices.words(from: Double(turn) * 5, seconds: 5)
      // A short pause before the next turn.
      let last = turnWords.removeLast()
      turnWords.append(last.lowerBound...(last.lowerBound + 0.15))
      words += turnWords
    }
    let sentence = SpeakerLabels.Sentence(voice: frames, slot: 0, words: words)
    let outcome = SpeakerLabels.label([sentence], attendees: 3, profiles: [:])
    let perTurn = words.count / turns.count
    #expect(
      outcome.parts[0]
        == turns.enumerated().map { turn, voice in
          SpeakerLabels.Part(speaker: voice, words: (turn * perTurn)..<((turn + 1) * perTurn))
        })
  }
}
