import AudioCore
import Foundation

/// Who said each sentence of a meeting, by voice, with whose slot it was as the prior.
///
/// A background model is learned from every voice in the meeting. Each attendee's voice starts
/// as their stored profile, or (never heard before) as the background model; it is refined by
/// the sentences currently given to them. In a first meeting those are found by grouping the
/// sentences by voice, bottom up, and naming the groups after the attendees in the order they
/// first speak (the attendees' order), so turns that drifted out of their slots keep their
/// names; otherwise (or when the voices cannot be grouped) they are at first those of each
/// attendee's slot. Every sentence then goes to the voice that explains it best against the
/// background (scored without that sentence in its own voice's model), the slot's owner
/// winning when the voices are unsure; this repeats until nothing moves. A sentence whose voice
/// changes for long enough is split at the word nearest the change.
public enum SpeakerLabels {
  public struct Sentence: Sendable {
    public var voice: VoiceFrames?
    /// Attendee index whose slot it started in.
    public var slot: Int
    /// Its words' start and end times (seconds into the stream).
    public var words: [ClosedRange<Double>]

    public init(voice: VoiceFrames?, slot: Int, words: [ClosedRange<Double>]) {
      self.voice = voice
      self.slot = slot
      self.words = words
    }
  }

  /// A run of a sentence's words said by one attendee.
  public struct Part: Equatable, Sendable {
    public var speaker: Int
    public var words: Range<Int>

    public init(speaker: Int, words: Range<Int>) {
      self.speaker = speaker
      self.words = words
    }
  }

  public struct Outcome: Sendable {
    /// Per sentence, its parts in order (one, unless the voice changed within it).
    public var parts: [[Part]]
    /// Each attendee's profile refined by what they said here (only those heard).
    public var learned: [Int: VoiceProfile]
    /// Whether the sentences were grouped by voice alone (else the slots led).
    var grouped = false
  }

  public struct Settings: Sendable {
    public var components = 16
    /// Pseudo-frames per component behind a voice never heard before.
    public var relevance = 16.0
    /// Weight of one frame's evidence (neighbouring frames say much the same).
    public var frameWeight = 0.1
    /// Frames beyond which a sentence's evidence grows no more.
    public var maximumFrames = 400.0
    /// Evidence (log-odds) that the slot's owner speaks, before the voice is heard.
    public var slotPrior = 3.0
    /// The same, in a first meeting whose voices were grouped without the slots: a tie-break.
    public var groupedSlotPrior = 0.5
    /// Weight of the share of a group's speech in an attendee's slot when known voices name the
    /// groups of a later meeting (against their standardised scores).
    public var slotTieBreak = 0.3
    /// A sentence that every attendee's voice explains worse than the meeting's background by
    /// more than this (nats a frame) is someone unknown: the slot's owner is kept.
    public var unknownVoice = -2.0
    /// Log-odds a voice change within a sentence must win by.
    public var switchPenalty = 12.0
    /// The shortest part a sentence is split into.
    public var minimumPart = 1.2
    /// How much better (nats a frame) another attendee's stored voice must explain a later
    /// meeting's group than the stored voice it was named after, for the group to be theirs
    /// (their voice heard as two groups while someone says nothing).
    public var sameVoiceMargin = 1.0
    /// Frames beyond which a stored profile still listens to new meetings.
    public var maximumProfileFrames = 30_000.0
    public var iterations = 6
    /// How much better (nats a frame, each group's frames under the other's model against the
    /// background, both ways added) the two groups of a first meeting's sentences that explain
    /// each other best must do than the median pair, to be taken for one voice.
    public var sameVoice = 0.5
    /// Frames of speech below which a first meeting's group of sentences is too little to be
    /// named as a voice of its own while every attendee has a group (a fragment of a voice).
    public var fragmentFrames = 150
    /// Frames an attendee's other sentences must hold for a sentence to be scored without
    /// itself.
    public var leaveOneOutFrames = 300.0
    /// The share of a sentence's frames that tell its voice (the loudest).
    public var keptShare = 0.7
    /// A sentence longer than this (seconds) is told apart in pieces, cut at pauses of at
    /// least `piecePause` seconds into pieces of at least `minimumPiece` seconds.
    public var longSentence = 12.0
    public var piecePause = 0.25
    public var minimumPiece = 2.0
    /// A pause within a sentence of at least `turnPause` seconds, with at least `minimumTurn`
    /// seconds of words on either side, may be one person handing over to the next (the
    /// recogniser heard no end of sentence): the sentence is told apart in two pieces there when
    /// the two sides do not sound alike (`sameVoice`, as two sentences of a first meeting).
    public var turnPause = 0.6
    public var minimumTurn = 1.0
    /// The share of a whole meeting's frames that are speech (the loudest; the rest pauses).
    public var meetingShare = 0.5

    public init() {}
  }

  public static func label(
    _ sentences: [Sentence], attendees: Int, profiles: [Int: VoiceProfile],
    settings: Settings = Settings()
  ) -> Outcome {
    let cuts = turnsKept(sentences, settings: settings)
    let outcome = label(sentences, cuts: cuts, attendees: attendees, profiles: profiles, settings)
    // Cuts at turns that leave the voices impossible to group (one person's sentence cut
    // between two recordings of them) are not made.
    guard !outcome.grouped, cuts.contains(where: { $0.contains(where: \.atTurn) }) else {
      return outcome
    }
    let plain = cuts.map { $0.filter { !$0.atTurn } }
    let again = label(sentences, cuts: plain, attendees: attendees, profiles: profiles, settings)
    return again.grouped ? again : outcome
  }

  /// The sentences labelled in pieces cut at `cuts`.
  static func label(
    _ sentences: [Sentence], cuts: [[Cut]], attendees: Int, profiles: [Int: VoiceProfile],
    _ settings: Settings
  ) -> Outcome {
    let (pieces, owners) = Self.pieces(sentences, cuts: cuts)
    guard pieces.count > sentences.count else {
      return labelWhole(sentences, attendees: attendees, profiles: profiles, settings: settings)
    }
    var outcome = labelWhole(pieces, attendees: attendees, profiles: profiles, settings: settings)
    outcome.parts = joined(outcome.parts, owners: owners, sentences: sentences.count)
    return outcome
  }

  static func labelWhole(
    _ sentences: [Sentence], attendees: Int, profiles: [Int: VoiceProfile], settings: Settings
  ) -> Outcome {
    let bySlot = sentences.map { sentence in
      [
        Part(
          speaker: min(max(sentence.slot, 0), max(attendees - 1, 0)),
          words: 0..<sentence.words.count)
      ]
    }
    guard attendees >= 1, let heard = heard(sentences, settings: settings) else {
      return Outcome(parts: bySlot, learned: [:])
    }
    let (speech, background) = heard
    let dimension = background.dimension
    let slots = bySlot.map { $0[0].speaker }
    let known = profiles.filter { $0.value.model.dimension == dimension }
    let meeting = MeetingVoices(
      speech: speech, slots: slots, attendees: attendees, background: background,
      profiles: known, settings: settings)
    // Known voices: the meeting's own voices are grouped in its room, named by the known ones.
    var voices = meeting
    var labels: [Int]
    var grouped = false
    if known.isEmpty {
      (labels, grouped) = meeting.labels()
    } else {
      let fresh = MeetingVoices(
        speech: speech, slots: slots, attendees: attendees, background: background,
        profiles: [:], settings: settings)
      if let groups = fresh.groups() {
        voices = fresh
        labels = fresh.refined(
          meeting.namedByProfiles(groups), slotPrior: settings.groupedSlotPrior)
        grouped = true
      } else {
        labels = meeting.labels().labels
      }
    }
    var parts: [[Part]] = []
    for (index, sentence) in sentences.enumerated() {
      parts.append(
        voices.split(index, label: labels[index], words: sentence.words, labels: labels))
    }
    return Outcome(parts: parts, learned: meeting.learned(parts, sentences), grouped: grouped)
  }

  /// The sentences' speech, warped over the meeting (the room's reverb and noise taken out
  /// alike), and the meeting's background model learned from it; nil when too little is heard.
  static func heard(_ sentences: [Sentence], settings: Settings)
    -> (speech: [SpeechFrames?], background: GaussianMixture)?
  {
    let speech = RoomNormalisation.warped(
      sentences.map { $0.voice.map { SpeechFrames($0, keeping: settings.keptShare) } })
    guard let dimension = speech.compactMap({ $0?.frames.dimension }).first else { return nil }
    let all = FrameSet.joined(speech.compactMap { $0?.frames }, dimension: dimension)
    guard all.count >= 200,
      let background = GaussianMixture.trained(on: all, components: settings.components)
    else { return nil }
    return (speech, background)
  }
}
