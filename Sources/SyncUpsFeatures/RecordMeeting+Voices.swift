import Architecture
import AudioCore
import VoiceProfiles
import WorkerThreads

// Who said each whole sentence, by voice: the second pass's sentences come with
// their voice features; each goes to the attendee whose voice it is, the slot's owner when
// the voice is unsure, and is split where the voice changes. What the meeting taught about each
// voice is kept once the meeting is saved.

extension RecordMeeting {
  /// The second pass's sentences: attributed by slot at once, then (when they carry voices) by
  /// voice on a thread of their own; the save waits for that.
  func heardSentences(_ utterances: [Utterance], _ state: inout State) -> Effect<Action> {
    let bySlot = utterances.map { state.segment($0) }
    let attendees = Array(state.syncUp.attendees)
    guard !attendees.isEmpty, utterances.contains(where: { $0.voice != nil }) else {
      state.setSecondPass(.told(bySlot, learned: [:]))
      return .none
    }
    state.setSecondPass(.tellingVoices(bySlot: bySlot))
    let slots = utterances.map { state.speaker(atRecordingSeconds: $0.start) }
    return .run { [recordingStore, syncUpID = state.syncUp.id] send in
      // Voices that cannot be read are as if never heard: the slots decide.
      let known = (try? await recordingStore.voices(syncUpID)) ?? [:]
      let told = try? await VoiceAttribution.tell(
        utterances, slots: slots, attendees: attendees, known: known)
      await send(.voicesTold(told?.segments, learned: told?.learned ?? [:]))
    }
    .cancellable(id: CancelID.recording)
  }

  /// The sentences told apart by voice (nil: they could not be; the slots stand); the save
  /// goes on if it waited.
  func toldVoices(
    _ segments: [Meeting.Segment]?, learned: [Attendee.ID: VoiceProfile], _ state: inout State
  ) -> Effect<Action> {
    guard case .tellingVoices(let bySlot) = state.secondPass else { return .none }
    state.setSecondPass(.told(segments ?? bySlot, learned: learned))
    return saveIfReady(&state)
  }
}

/// Sentences told apart by voice, on a thread of their own.
enum VoiceAttribution {
  /// `slots`: the attendee index whose slot each utterance started in; `known`: the
  /// attendees' profiles so far. Returns the segments and the refined profiles.
  static func tell(
    _ utterances: [Utterance], slots: [Int], attendees: [Attendee],
    known: [Attendee.ID: VoiceProfile]
  ) async throws -> (segments: [Meeting.Segment], learned: [Attendee.ID: VoiceProfile]) {
    var byIndex: [Int: VoiceProfile] = [:]
    for (index, attendee) in attendees.enumerated() { byIndex[index] = known[attendee.id] }
    let profiles = byIndex
    let sentences = zip(utterances, slots).map { utterance, slot in
      SpeakerLabels.Sentence(
        voice: utterance.voice, slot: slot,
        words: utterance.words.map { $0.start...max($0.start, $0.end) })
    }
    let told = try await WorkerThread.run(name: "syncups-voices") {
      SpeakerLabels.label(sentences, attendees: attendees.count, profiles: profiles)
    }
    let names = attendees.map(\.name)
    // Voices not known before are renamed when the names said in the meeting say so.
    let renamed = renamedBySpeech(
      utterances, told.parts, names: names,
      movable: Set(attendees.indices.filter { profiles[$0] == nil }))
    let parts = told.parts.map { parts in
      parts.map {
        SpeakerLabels.Part(speaker: renamed[safe: $0.speaker] ?? $0.speaker, words: $0.words)
      }
    }
    var learned: [Attendee.ID: VoiceProfile] = [:]
    for (index, profile) in told.learned {
      learned[attendees[renamed[safe: index] ?? index].id] = profile
    }
    let segments = zip(utterances, parts).flatMap { utterance, parts in
      voicedSegments(utterance, parts, names: names)
    }
    return (segments, learned)
  }

  /// Per attendee index, the index their voice goes to (`SpeakerLabels.renamedBySpeech`), from
  /// each part's speaker and words in the order said.
  static func renamedBySpeech(
    _ utterances: [Utterance], _ parts: [[SpeakerLabels.Part]], names: [String],
    movable: Set<Int>
  ) -> [Int] {
    var speakers: [Int] = []
    var texts: [String] = []
    for (utterance, parts) in zip(utterances, parts) {
      for part in parts {
        speakers.append(part.speaker)
        texts.append(
          parts.count == 1
            ? utterance.text
            : utterance.words[part.words.clamped(to: utterance.words.indices)].map(\.word)
              .joined(separator: " "))
      }
    }
    return SpeakerLabels.renamedBySpeech(
      speakers: speakers, texts: texts, names: names, movable: movable)
  }
}

/// An utterance as one segment per part (a run of its words said by one attendee).
func voicedSegments(
  _ utterance: Utterance, _ parts: [SpeakerLabels.Part], names: [String]
) -> [Meeting.Segment] {
  guard parts.count > 1 else {
    return [
      Meeting.Segment(
        speaker: names[safe: parts.first?.speaker ?? 0] ?? "Unknown", start: utterance.start,
        end: utterance.end, text: utterance.text, words: utterance.words)
    ]
  }
  return parts.map { part in
    let words = Array(utterance.words[part.words])
    return Meeting.Segment(
      speaker: names[safe: part.speaker] ?? "Unknown", start: words.first?.start ?? utterance.start,
      end: words.last?.end ?? utterance.end, text: words.map(\.word).joined(separator: " "),
      words: words)
  }
}
