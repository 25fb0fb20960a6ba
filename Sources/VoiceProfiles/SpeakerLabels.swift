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
    /// A sentence that every attendee's voice explains worse than the meeting's background by
    /// more than this (nats a frame) is someone unknown: the slot's owner is kept.
    public var unknownVoice = -2.0
    /// Log-odds a voice change within a sentence must win by.
    public var switchPenalty = 12.0
    /// The shortest part a sentence is split into.
    public var minimumPart = 1.2
    /// Frames beyond which a stored profile still listens to new meetings.
    public var maximumProfileFrames = 30_000.0
    public var iterations = 6
    /// How much better (nats a frame, each group's frames under the other's model against the
    /// background, both ways added) the two groups of a first meeting's sentences that explain
    /// each other best must do than the median pair, to be taken for one voice.
    public var sameVoice = 0.5
    /// Frames an attendee's other sentences must hold for a sentence to be scored without
    /// itself.
    public var leaveOneOutFrames = 300.0

    public init() {}
  }

  public static func label(
    _ sentences: [Sentence], attendees: Int, profiles: [Int: VoiceProfile],
    settings: Settings = Settings()
  ) -> Outcome {
    let bySlot = sentences.map { sentence in
      [
        Part(
          speaker: min(max(sentence.slot, 0), max(attendees - 1, 0)),
          words: 0..<sentence.words.count)
      ]
    }
    let speech = sentences.map { $0.voice.map { SpeechFrames($0) } }
    guard let dimension = speech.compactMap({ $0?.frames.dimension }).first else {
      return Outcome(parts: bySlot, learned: [:])
    }
    let all = FrameSet.joined(speech.compactMap { $0?.frames }, dimension: dimension)
    guard attendees >= 1, all.count >= 200,
      let background = GaussianMixture.trained(on: all, components: settings.components)
    else { return Outcome(parts: bySlot, learned: [:]) }
    let meeting = Meeting(
      speech: speech, slots: bySlot.map { $0[0].speaker }, attendees: attendees,
      background: background, profiles: profiles, settings: settings)
    let labels = meeting.labels()
    var parts: [[Part]] = []
    for (index, sentence) in sentences.enumerated() {
      parts.append(
        meeting.split(index, label: labels[index], words: sentence.words, labels: labels))
    }
    return Outcome(parts: parts, learned: meeting.learned(parts, sentences))
  }
}

/// One meeting's voices being told apart.
private struct Meeting {
  let speech: [SpeechFrames?]
  let slots: [Int]
  let attendees: Int
  let background: GaussianMixture
  let profiles: [Int: VoiceProfile]
  let settings: SpeakerLabels.Settings
  /// Each attendee's starting model.
  let priors: [GaussianMixture]
  /// Per sentence, per attendee: its frames' statistics under that attendee's prior.
  let statistics: [[GaussianMixture.Statistics]]
  /// Per sentence: each frame's log-likelihood under the background.
  let backgroundScores: [[Double]]

  init(
    speech: [SpeechFrames?], slots: [Int], attendees: Int, background: GaussianMixture,
    profiles: [Int: VoiceProfile], settings: SpeakerLabels.Settings
  ) {
    self.speech = speech
    self.slots = slots
    self.attendees = attendees
    self.background = background
    self.profiles = profiles
    self.settings = settings
    let unknown = background.withCounts(settings.relevance)
    let priors = (0..<attendees).map { profiles[$0]?.model ?? unknown }
    self.priors = priors
    // Attendees never heard share the background prior: their statistics are gathered once.
    statistics = speech.map { sentence in
      guard let frames = sentence?.frames, frames.count > 0 else {
        return priors.map {
          GaussianMixture.Statistics(components: $0.components, dimension: $0.dimension)
        }
      }
      let shared = unknown.statistics(of: frames)
      return (0..<attendees).map {
        profiles[$0] == nil ? shared : priors[$0].statistics(of: frames)
      }
    }
    backgroundScores = speech.map { $0.map { background.logLikelihoods($0.frames) } ?? [] }
  }

  /// Each sentence's speaker, refined until nothing moves.
  func labels() -> [Int] {
    var labels = profiles.isEmpty ? grouped() : slots
    for _ in 0..<settings.iterations {
      let models = self.models(labels)
      var changed = false
      for index in speech.indices {
        let best = self.best(index, labels: labels, models: models)
        if best != labels[index] {
          labels[index] = best
          changed = true
        }
      }
      if !changed { break }
    }
    guard profiles.isEmpty else { return labels }
    return SpeakerLabels.named(
      groups: labels, slots: slots, frames: speech.map { $0?.count ?? 0 }, attendees: attendees)
  }

  /// A first meeting's sentences grouped by voice, bottom up, and named: each heard sentence
  /// starts as a group of its own, and the two groups whose voices explain each other best
  /// (each group's frames scored under the other's model against the background, per frame)
  /// merge, until there are as many groups as attendees. No slot decides a group, so a turn
  /// that ran into the next slot does not pull the next voice into its own. When the closest
  /// two stand out no more than `sameVoice` from a typical pair, the voices cannot be told
  /// apart this way, and the sentences start from their slots.
  func grouped() -> [Int] {
    let heard = speech.indices.filter { (speech[$0]?.count ?? 0) > 0 }
    guard heard.count > attendees, let unknown = priors.first else { return slots }
    /// Each heard sentence's frames' log-likelihood ratio, summed, under the model of a group (the
    /// positions in `heard` of its sentences).
    func scores(_ group: [Int]) -> [Double] {
      var total = GaussianMixture.Statistics(
        components: unknown.components, dimension: unknown.dimension)
      for position in group { total += statistics[heard[position]][0] }
      let model = unknown.adapted(to: total)
      return heard.map { index in
        zip(model.logLikelihoods(speech[index]!.frames), backgroundScores[index])
          .reduce(0) { $0 + $1.0 - $1.1 }
      }
    }
    // groups[g]: positions in `heard`; ratios[g][p]: the heard sentence at p under g's model.
    var groups = heard.indices.map { [$0] }
    var ratios = groups.map { scores($0) }
    let frames = heard.map { Double(speech[$0]!.count) }
    func closeness(_ a: Int, _ b: Int) -> Double {
      func across(_ from: Int, _ to: Int) -> Double {
        groups[from].reduce(0) { $0 + ratios[to][$1] }
          / groups[from].reduce(0) { $0 + frames[$1] }
      }
      return across(a, b) + across(b, a)
    }
    while groups.count > attendees {
      var pair = (0, 1)
      var best = -Double.infinity
      var all: [Double] = []
      for a in groups.indices {
        for b in (a + 1)..<groups.count {
          let value = closeness(a, b)
          all.append(value)
          if value > best { (best, pair) = (value, (a, b)) }
        }
      }
      // No pair stands out from the rest (voices alike, or one voice): the sentences cannot be
      // grouped by voice alone, and they start from their slots.
      all.sort()
      guard best - all[all.count / 2] > settings.sameVoice else { return slots }
      groups[pair.0] += groups[pair.1]
      groups.remove(at: pair.1)
      ratios.remove(at: pair.1)
      ratios[pair.0] = scores(groups[pair.0])
    }
    var labels = slots
    for (group, positions) in groups.enumerated() {
      for position in positions { labels[heard[position]] = group }
    }
    return SpeakerLabels.named(
      groups: labels, slots: slots, frames: speech.map { $0?.count ?? 0 }, attendees: attendees)
  }

  /// Each attendee's model refined by the sentences given to them.
  func models(_ labels: [Int]) -> [GaussianMixture] {
    (0..<attendees).map { attendee in
      var total = GaussianMixture.Statistics(
        components: priors[attendee].components, dimension: priors[attendee].dimension)
      for index in speech.indices where labels[index] == attendee {
        total += statistics[index][attendee]
      }
      return priors[attendee].adapted(to: total)
    }
  }

  /// The model of `attendee` as it would be without sentence `index`, so a sentence does not
  /// vouch for itself; unless the voice is new and too little would be left (then two
  /// attendees who sound alike, each with one sentence, would trade them).
  func model(_ attendee: Int, without index: Int, labels: [Int], models: [GaussianMixture])
    -> GaussianMixture
  {
    guard labels[index] == attendee else { return models[attendee] }
    var total = GaussianMixture.Statistics(
      components: priors[attendee].components, dimension: priors[attendee].dimension)
    for other in speech.indices where other != index && labels[other] == attendee {
      total += statistics[other][attendee]
    }
    guard profiles[attendee] != nil || total.occupancy.reduce(0, +) >= settings.leaveOneOutFrames
    else { return models[attendee] }
    return priors[attendee].adapted(to: total)
  }

  /// The attendee whose voice (and slot) best explain sentence `index`.
  func best(_ index: Int, labels: [Int], models: [GaussianMixture]) -> Int {
    guard let frames = speech[index]?.frames, frames.count > 0 else { return slots[index] }
    var scores: [Double] = []
    var means: [Double] = []
    for attendee in 0..<attendees {
      let model = self.model(attendee, without: index, labels: labels, models: models)
      let ratio = zip(model.logLikelihoods(frames), backgroundScores[index]).map { $0 - $1 }
      let mean = ratio.reduce(0, +) / Double(ratio.count)
      let weight = min(Double(ratio.count), settings.maximumFrames) * settings.frameWeight
      means.append(mean)
      scores.append(mean * weight + (attendee == slots[index] ? settings.slotPrior : 0))
    }
    // No attendee's voice comes near it: someone else, or a noise; the slot stands.
    guard let top = means.max(), top >= settings.unknownVoice else { return slots[index] }
    return scores.indices.max { scores[$0] < scores[$1] } ?? slots[index]
  }

  /// Sentence `index` as runs of words, split where the voice changes for at least
  /// `minimumPart` seconds (a best path through the attendees' frame scores, each change
  /// costing `switchPenalty`).
  func split(_ index: Int, label: Int, words: [ClosedRange<Double>], labels: [Int])
    -> [SpeakerLabels.Part]
  {
    let whole = [SpeakerLabels.Part(speaker: label, words: 0..<words.count)]
    guard let sentence = speech[index], words.count >= 2,
      let first = words.first?.lowerBound, let last = words.last?.upperBound,
      last - first >= 2 * settings.minimumPart, sentence.count > 0
    else { return whole }
    let models = self.models(labels)
    let scores: [[Double]] = (0..<attendees).map { attendee in
      let model = self.model(attendee, without: index, labels: labels, models: models)
      return zip(model.logLikelihoods(sentence.frames), backgroundScores[index]).map {
        ($0 - $1) * settings.frameWeight
      }
    }
    let path = bestPath(scores, frames: sentence.count)
    // Runs of one speaker, as time spans; runs too short join the one before (or after).
    var runs: [(speaker: Int, from: Double, to: Double)] = []
    for (frame, speaker) in path.enumerated() {
      let time = sentence.times[frame]
      if let lastRun = runs.last, lastRun.speaker == speaker {
        runs[runs.count - 1].to = time
      } else {
        runs.append((speaker, time, time))
      }
    }
    runs = merged(runs)
    guard runs.count > 1 else { return whole }
    // Each word goes to the run its middle falls in (or the nearest one).
    var parts: [SpeakerLabels.Part] = []
    for (wordIndex, word) in words.enumerated() {
      let middle = (word.lowerBound + word.upperBound) / 2
      let run =
        runs.firstIndex { middle <= $0.to }
        ?? runs.count - 1
      let speaker = runs[run].speaker
      if let lastPart = parts.last, lastPart.speaker == speaker {
        parts[parts.count - 1].words = lastPart.words.lowerBound..<(wordIndex + 1)
      } else {
        parts.append(SpeakerLabels.Part(speaker: speaker, words: wordIndex..<(wordIndex + 1)))
      }
    }
    // A part's words must still last long enough; otherwise the sentence stays whole.
    for part in parts {
      let span =
        words[part.words.upperBound - 1].upperBound - words[part.words.lowerBound].lowerBound
      if span < settings.minimumPart / 2 { return whole }
    }
    return parts.count > 1 ? parts : whole
  }

  /// Runs shorter than `minimumPart` join a neighbour, until none is.
  private func merged(_ input: [(speaker: Int, from: Double, to: Double)]) -> [(
    speaker: Int, from: Double, to: Double
  )] {
    var runs = input
    while runs.count > 1,
      let shortest = runs.indices.min(by: {
        runs[$0].to - runs[$0].from < runs[$1].to - runs[$1].from
      }),
      runs[shortest].to - runs[shortest].from < settings.minimumPart
    {
      let into = shortest == 0 ? 1 : shortest - 1
      runs[into].from = min(runs[into].from, runs[shortest].from)
      runs[into].to = max(runs[into].to, runs[shortest].to)
      runs.remove(at: shortest)
      // Neighbours of one speaker become one run.
      var index = 1
      while index < runs.count {
        if runs[index].speaker == runs[index - 1].speaker {
          runs[index - 1].to = runs[index].to
          runs.remove(at: index)
        } else {
          index += 1
        }
      }
    }
    return runs
  }

  /// The most likely speaker of each frame (Viterbi over the attendees).
  private func bestPath(_ scores: [[Double]], frames: Int) -> [Int] {
    var total = (0..<attendees).map { scores[$0][0] }
    var back: [[Int]] = []
    back.reserveCapacity(frames)
    back.append(Array(0..<attendees))
    for frame in 1..<max(frames, 1) {
      let leader = total.indices.max { total[$0] < total[$1] }!
      var next = total
      var from = Array(0..<attendees)
      for attendee in 0..<attendees {
        let switched = total[leader] - settings.switchPenalty
        if switched > total[attendee] {
          next[attendee] = switched
          from[attendee] = leader
        }
        next[attendee] += scores[attendee][frame]
      }
      total = next
      back.append(from)
    }
    var path = [Int](repeating: 0, count: frames)
    var current = total.indices.max { total[$0] < total[$1] }!
    for frame in stride(from: frames - 1, through: 0, by: -1) {
      path[frame] = current
      current = back[frame][current]
    }
    return path
  }

  /// Each heard attendee's profile refined by the frames of their parts.
  func learned(_ parts: [[SpeakerLabels.Part]], _ sentences: [SpeakerLabels.Sentence])
    -> [Int: VoiceProfile]
  {
    var frames: [Int: [FrameSet]] = [:]
    for (index, sentenceParts) in parts.enumerated() {
      guard let sentence = speech[index] else { continue }
      for part in sentenceParts {
        let words = sentences[index].words
        let set =
          sentenceParts.count == 1
          ? sentence.frames
          : sentence.between(
            words[part.words.lowerBound].lowerBound,
            part.words.upperBound < words.count
              ? words[part.words.upperBound].lowerBound : .infinity)
        frames[part.speaker, default: []].append(set)
      }
    }
    var learned: [Int: VoiceProfile] = [:]
    for (attendee, sets) in frames {
      let set = FrameSet.joined(sets, dimension: background.dimension)
      // A second of speech says too little to keep.
      guard set.count >= 100 else { continue }
      let model = priors[attendee].adapted(
        to: priors[attendee].statistics(of: set), maximumCount: settings.maximumProfileFrames)
      let old = profiles[attendee]
      learned[attendee] = VoiceProfile(
        model: model, meetings: (old?.meetings ?? 0) + 1,
        seconds: (old?.seconds ?? 0) + Double(set.count) / VoiceFrames.framesPerSecond)
    }
    return learned
  }
}

extension SpeakerLabels {
  /// A first meeting's groups of voices (`groups`, per sentence), named after the attendees
  /// whose slots they fill.
  ///
  /// Groups keep the order they first speak in, and so do the attendees' slots: the groups are
  /// matched to attendees in that order (a turn that drifted by a slot keeps its name), and
  /// where there are fewer groups than attendees (two voices alike heard as one), the attendee
  /// left without a group is the one whose slot the groups fill least, so the names after it
  /// do not shift. That attendee's slot then stands for them, as for a voice never heard.
  /// `frames` is each sentence's amount of speech (0: not heard, its group is its slot).
  public static func named(groups labels: [Int], slots: [Int], frames: [Int], attendees: Int)
    -> [Int]
  {
    let heard = labels.indices.filter { frames[$0] > 0 }
    var groups: [Int] = []
    for index in heard where !groups.contains(labels[index]) { groups.append(labels[index]) }
    guard !groups.isEmpty, groups.count <= attendees else { return labels }
    // Frames of each group in each attendee's slot.
    var filled = [[Double]](
      repeating: [Double](repeating: 0, count: attendees + 1), count: groups.count)
    for index in heard {
      filled[groups.firstIndex(of: labels[index])!][slots[index]] += Double(frames[index])
    }
    // A group named after `attendee` gains the frames it holds in their slot, and half those in
    // the next slot (where a long turn runs on).
    func gain(_ group: Int, _ attendee: Int) -> Double {
      filled[group][attendee] + filled[group][attendee + 1] / 2
    }
    // best[g][a]: the most frames the first g groups can gain named after the first a attendees.
    var best = [[Double]](
      repeating: [Double](repeating: -.infinity, count: attendees + 1), count: groups.count + 1)
    for attendee in 0...attendees { best[0][attendee] = 0 }
    for group in stride(from: 1, through: groups.count, by: 1) {
      for attendee in stride(from: 1, through: attendees, by: 1) {
        best[group][attendee] = max(
          best[group][attendee - 1],
          best[group - 1][attendee - 1] + gain(group - 1, attendee - 1))
      }
    }
    var names: [Int: Int] = [:]
    var group = groups.count
    var attendee = attendees
    while group > 0 {
      if best[group][attendee] == best[group - 1][attendee - 1] + gain(group - 1, attendee - 1) {
        names[groups[group - 1]] = attendee - 1
        group -= 1
      }
      attendee -= 1
    }
    let unmatched = Set(0..<attendees).subtracting(names.values)
    return labels.indices.map { index in
      guard frames[index] > 0 else { return labels[index] }
      return unmatched.contains(slots[index]) ? slots[index] : names[labels[index]]!
    }
  }
}
