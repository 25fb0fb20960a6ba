import Foundation

extension SpeakerLabels {
  /// A first meeting's groups of voices (`groups`, per sentence), named after the attendees
  /// whose slots they fill.
  ///
  /// A group of less than `fragment` frames of speech (a short sentence or two, heard apart
  /// from the rest of its speaker's) is too little to stand for a voice while every attendee
  /// has a group: it is named after no one, and its sentences go on the turn they are heard in
  /// (the name of the sentence before them; the voices then decide). Otherwise one voice heard as two groups, with an attendee who says
  /// nothing, would make as many groups as attendees and shift every name after it.
  ///
  /// Groups keep the order they first speak in, and so do the attendees: with a group for each
  /// attendee, the first to speak is the first attendee, and so on, wherever the slots fall (a
  /// meeting whose turns ignore the slots keeps its names). With fewer groups than attendees
  /// they are matched to the attendees' slots in that order, a group gaining the speech it
  /// holds in its attendee's slot and most of what it holds in the next (a turn that runs on,
  /// as it does into the slot of someone who says nothing). An attendee left without a group
  /// either said nothing or was heard in a group with a voice alike: when the group whose
  /// speech fills their slot holds more in its own attendee's slot, it is two voices heard as
  /// one and the slot stands for the attendee left out, as for a voice never heard; when it
  /// holds more in theirs, it is one turn that ran on, and it keeps its name. When the slots so
  /// matched hold less than `slotFit` of the speech, the turns ignored the slots, and the
  /// groups are matched in order by the turn they are first heard in instead (the t-th turn's
  /// new voice is near the t-th attendee); no slot then stands for anyone.
  /// `frames` is each sentence's amount of speech (0: not heard, its group is its slot).
  public static func named(
    groups labels: [Int], slots: [Int], frames: [Int], attendees: Int, fragment: Int = 150
  ) -> [Int] {
    let heard = labels.indices.filter { frames[$0] > 0 }
    var order: [Int] = []
    var size: [Int: Int] = [:]
    for index in heard {
      if !order.contains(labels[index]) { order.append(labels[index]) }
      size[labels[index], default: 0] += frames[index]
    }
    guard !order.isEmpty, order.count <= attendees else { return labels }
    var groups = order
    if order.count == attendees {
      let voices = order.filter { size[$0, default: 0] >= fragment }
      if !voices.isEmpty { groups = voices }
    }
    // Frames of each group in each attendee's slot.
    var filled = [[Double]](
      repeating: [Double](repeating: 0, count: attendees + 1), count: groups.count)
    for index in heard {
      guard let group = groups.firstIndex(of: labels[index]) else { continue }
      filled[group][min(max(slots[index], 0), attendees - 1)] += Double(frames[index])
    }
    var names = Array(groups.indices)
    var slotsLed = false
    if groups.count < attendees {
      names = matched(filled, attendees: attendees)
      slotsLed = fit(filled, names) >= slotFit
      if !slotsLed {
        names = matchedByTurns(firstTurns(labels, heard: heard, groups: groups), attendees)
      }
    }
    // Attendees without a group whose slot stands for them: the group filling it is mostly in
    // its own attendee's slot.
    var standing = Set<Int>()
    for attendee in Set(0..<attendees).subtracting(names) where slotsLed {
      let filling = filled.indices.max { filled[$0][attendee] < filled[$1][attendee] }!
      if filled[filling][names[filling]] >= filled[filling][attendee] { standing.insert(attendee) }
    }
    var named = labels.indices.map { index in
      guard frames[index] > 0, let group = groups.firstIndex(of: labels[index]) else {
        return labels[index]
      }
      return standing.contains(slots[index]) ? slots[index] : names[group]
    }
    // A fragment's sentences go on the turn they are heard in: the name before them (or after).
    let fragments = heard.filter { !groups.contains(labels[$0]) }
    let kept = heard.filter { groups.contains(labels[$0]) }
    for index in fragments {
      let near = kept.last { $0 < index } ?? kept.first { $0 > index }
      named[index] = near.map { named[$0] } ?? slots[index]
    }
    return named
  }

  /// A later meeting's groups as named by the stored voices (`names`: per group, its attendee),
  /// with one voice heard as two groups set right. The groups are as many as the attendees, so
  /// when someone says nothing a voice is heard as two, and its second group is named after
  /// the attendee left (each stored voice's scores are standardised over the groups, so even a
  /// voice not heard explains one group best). `perFrame[g][a]`: group g's frames under attendee
  /// a's stored voice against the meeting's background, in nats a frame (nil: a voice never
  /// heard). A group goes to the attendee whose stored voice explains it best when that attendee
  /// names another group here and their voice explains it better than the stored voice of its
  /// own name by more than `margin`; or, named after a voice never heard, when their voice
  /// explains it within `margin` as well as it explains their own group (a new voice sounds
  /// unlike every stored one).
  public static func reunited(_ names: [Int?], perFrame: [[Double?]], margin: Double) -> [Int?] {
    names.indices.map { group in
      guard let own = names[group], perFrame.indices.contains(group),
        perFrame[group].indices.contains(own)
      else { return names[group] }
      var best: (attendee: Int, score: Double)?
      for (attendee, score) in perFrame[group].enumerated() {
        guard let score, score > best?.score ?? -.infinity else { continue }
        best = (attendee, score)
      }
      guard let best, best.attendee != own else { return names[group] }
      // Their own group: the one of theirs their voice explains best.
      let theirs = names.indices.compactMap { other -> Double? in
        guard other != group, names[other] == best.attendee,
          perFrame.indices.contains(other), perFrame[other].indices.contains(best.attendee)
        else { return nil }
        return perFrame[other][best.attendee]
      }.max()
      guard let theirs else { return names[group] }
      if let ownScore = perFrame[group][own] {
        return best.score - ownScore > margin ? best.attendee : own
      }
      return best.score >= theirs - margin ? best.attendee : own
    }
  }

  /// The share of a group's speech in the slot after its attendee's that counts as theirs.
  static let runOn = 0.75

  /// The share of the speech that must fall in the slots (and `runOn` of the next) of the
  /// attendees its groups are matched to, for the slots to name the groups; below it the turns
  /// did not keep to the slots (someone spoke three times as long as their slot, a few words
  /// each from others), and the groups are named by their turn.
  static let slotFit = 0.7

  /// The speech of group `group` that naming it after `attendee` holds in their slot (and
  /// `runOn` of what it holds in the next: a turn that runs on).
  static func slotGain(_ filled: [[Double]], _ group: Int, _ attendee: Int) -> Double {
    filled[group][attendee] + filled[group][attendee + 1] * runOn
  }

  /// The share of all speech in `filled` that the groups' matched slots hold.
  static func fit(_ filled: [[Double]], _ names: [Int]) -> Double {
    let total = filled.joined().reduce(0, +)
    guard total > 0 else { return 1 }
    return names.indices.map { slotGain(filled, $0, names[$0]) }.reduce(0, +) / total
  }

  /// Per group (in `groups`' order), the turn in which it is first heard: turns are counted
  /// over the heard sentences, a new one wherever the group changes (a fragment's sentences
  /// too: someone spoke).
  static func firstTurns(_ labels: [Int], heard: [Int], groups: [Int]) -> [Int] {
    var first: [Int: Int] = [:]
    var turn = -1
    var previous: Int?
    for index in heard {
      if labels[index] != previous { turn += 1 }
      previous = labels[index]
      if first[labels[index]] == nil { first[labels[index]] = turn }
    }
    return groups.map { first[$0] ?? 0 }
  }

  /// Groups (first heard in `turns`) matched to attendees in order, each group to one, the
  /// group first heard in turn t nearest the t-th attendee (the attendees are listed in the
  /// order they first speak; those left out said nothing, or were heard with another voice).
  static func matchedByTurns(_ turns: [Int], _ attendees: Int) -> [Int] {
    inOrder(groups: turns.count, attendees: attendees) { -Double(abs(turns[$0] - $1)) }
  }

  /// Groups (in the order they first speak; `filled[g][a]`: frames of group g in attendee a's
  /// slot) matched to attendees in order, each group to one, the most speech in their slots
  /// (and `runOn` of that in the next): per group, its attendee.
  static func matched(_ filled: [[Double]], attendees: Int) -> [Int] {
    inOrder(groups: filled.count, attendees: attendees) { slotGain(filled, $0, $1) }
  }

  /// `groups` matched to `attendees` in order, each group to one attendee and no two to the
  /// same, the most `gain(group, attendee)` in all: per group, its attendee.
  static func inOrder(groups count: Int, attendees: Int, gain: (Int, Int) -> Double) -> [Int] {
    // best[g][a]: the most the first g groups can gain named after the first a attendees.
    var best = [[Double]](
      repeating: [Double](repeating: -.infinity, count: attendees + 1), count: count + 1)
    for attendee in 0...attendees { best[0][attendee] = 0 }
    for group in stride(from: 1, through: count, by: 1) {
      for attendee in stride(from: 1, through: attendees, by: 1) {
        best[group][attendee] = max(
          best[group][attendee - 1],
          best[group - 1][attendee - 1] + gain(group - 1, attendee - 1))
      }
    }
    var names = [Int](repeating: 0, count: count)
    var group = count
    var attendee = attendees
    while group > 0 {
      if best[group][attendee] == best[group - 1][attendee - 1] + gain(group - 1, attendee - 1) {
        names[group - 1] = attendee - 1
        group -= 1
      }
      attendee -= 1
    }
    return names
  }
}
