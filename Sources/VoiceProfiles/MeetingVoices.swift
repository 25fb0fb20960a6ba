import AudioCore
import Foundation

/// One meeting's voices being told apart.
struct MeetingVoices {
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

  /// Each sentence's speaker: a first meeting's voices grouped and named in the order the
  /// attendees first speak, or (when they cannot be grouped, or the voices are known) started
  /// from the slots; refined until nothing moves. `grouped`: whether they were grouped.
  func labels() -> (labels: [Int], grouped: Bool) {
    guard profiles.isEmpty else { return (refined(slots, slotPrior: settings.slotPrior), false) }
    guard let groups = groups() else {
      return (named(refined(slots, slotPrior: settings.slotPrior)), false)
    }
    // Voices grouped without the slots: the slots only break ties.
    return (named(refined(named(groups), slotPrior: settings.groupedSlotPrior)), true)
  }

  /// Groups (per sentence) named after the attendees in the order they first speak.
  func named(_ groups: [Int]) -> [Int] {
    SpeakerLabels.named(
      groups: groups, slots: slots, frames: speech.map { $0?.count ?? 0 }, attendees: attendees,
      fragment: settings.fragmentFrames)
  }

  /// `labels` refined until nothing moves: every sentence goes to the voice that explains it
  /// best, the slot's owner gaining `slotPrior`.
  /// Only voices heard (given a sentence in `start`) or known compete: an attendee who said
  /// nothing in a first meeting is no voice, and gets no sentence by their slot alone.
  func refined(_ start: [Int], slotPrior: Double) -> [Int] {
    var labels = start
    let voices = self.voices(start)
    for _ in 0..<settings.iterations {
      let models = self.models(labels)
      var changed = false
      for index in speech.indices {
        let best = self.best(
          index, labels: labels, models: models, slotPrior: slotPrior, voices: voices)
        if best != labels[index] {
          labels[index] = best
          changed = true
        }
      }
      if !changed { break }
    }
    return labels
  }

  /// A meeting's sentences grouped by voice, bottom up (per sentence, its group): each heard sentence
  /// starts as a group of its own, and the two groups whose voices explain each other best
  /// (each group's frames scored under the other's model against the background, per frame)
  /// merge, until there are as many groups as attendees. No slot decides a group, so a turn
  /// that ran into the next slot does not pull the next voice into its own. When the closest
  /// two stand out no more than `sameVoice` from a typical pair, the voices cannot be told
  /// apart this way (nil).
  func groups() -> [Int]? {
    let heard = speech.indices.filter { (speech[$0]?.count ?? 0) > 0 }
    guard heard.count > attendees, !priors.isEmpty else { return nil }
    /// Each heard sentence's frames' log-likelihood ratio, summed, under the model of a group (the
    /// positions in `heard` of its sentences).
    func scores(_ group: [Int]) -> [Double] {
      let model = voice(of: group.map { heard[$0] })
      return heard.map { ratio(of: $0, under: model) }
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
      guard best - all[all.count / 2] > settings.sameVoice else { return nil }
      groups[pair.0] += groups[pair.1]
      groups.remove(at: pair.1)
      ratios.remove(at: pair.1)
      ratios[pair.0] = scores(groups[pair.0])
    }
    var labels = slots
    for (group, positions) in groups.enumerated() {
      for position in positions { labels[heard[position]] = group }
    }
    return labels
  }

  /// The voice of `sentences`: the first attendee's prior (a voice never heard, when no
  /// profile is known) adapted to their frames.
  func voice(of sentences: [Int]) -> GaussianMixture {
    var total = GaussianMixture.Statistics(
      components: priors[0].components, dimension: priors[0].dimension)
    for index in sentences { total += statistics[index][0] }
    return priors[0].adapted(to: total)
  }

  /// Sentence `index`'s frames' log-likelihood under `model` against the background, summed.
  func ratio(of index: Int, under model: GaussianMixture) -> Double {
    zip(model.logLikelihoods(speech[index]!.frames), backgroundScores[index])
      .reduce(0) { $0 + $1.0 - $1.1 }
  }

  /// How much more alike heard sentences `a` and `b` sound (each one's frames under the
  /// other's voice against the background, nats a frame, both ways added) than each sounds to
  /// the meeting's typical sentence (the median of the others under its voice); nil when one
  /// is not heard or there are no others.
  func alikeness(_ a: Int, _ b: Int) -> Double? {
    func frames(_ index: Int) -> Double { Double(speech[index]?.count ?? 0) }
    let others = speech.indices.filter { $0 != a && $0 != b && frames($0) > 0 }
    guard frames(a) > 0, frames(b) > 0, !others.isEmpty else { return nil }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let (voiceA, voiceB) = (voice(of: [a]), voice(of: [b]))
    let typical =
      median(others.map { ratio(of: $0, under: voiceA) / frames($0) })
      + median(others.map { ratio(of: $0, under: voiceB) / frames($0) })
    return ratio(of: b, under: voiceA) / frames(b) + ratio(of: a, under: voiceB) / frames(a)
      - typical
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

  /// The attendees with a voice here: given a heard sentence in `labels`, or known.
  func voices(_ labels: [Int]) -> Set<Int> {
    var voices = Set(profiles.keys)
    for index in speech.indices where (speech[index]?.count ?? 0) > 0 {
      voices.insert(labels[index])
    }
    return voices
  }

  /// The attendee among `voices` whose voice (and slot) best explain sentence `index`.
  func best(
    _ index: Int, labels: [Int], models: [GaussianMixture], slotPrior: Double, voices: Set<Int>
  ) -> Int {
    guard let frames = speech[index]?.frames, frames.count > 0 else { return slots[index] }
    var scores: [Double] = []
    var means: [Double] = []
    for attendee in 0..<attendees {
      guard voices.contains(attendee) else {
        scores.append(-.infinity)
        means.append(-.infinity)
        continue
      }
      let model = self.model(attendee, without: index, labels: labels, models: models)
      let ratio = zip(model.logLikelihoods(frames), backgroundScores[index]).map { $0 - $1 }
      let mean = ratio.reduce(0, +) / Double(ratio.count)
      let weight = min(Double(ratio.count), settings.maximumFrames) * settings.frameWeight
      means.append(mean)
      scores.append(mean * weight + (attendee == slots[index] ? slotPrior : 0))
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
    let voices = self.voices(labels).union([label])
    let scores: [[Double]] = (0..<attendees).map { attendee in
      guard voices.contains(attendee) else {
        return [Double](repeating: -.infinity, count: sentence.count)
      }
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
