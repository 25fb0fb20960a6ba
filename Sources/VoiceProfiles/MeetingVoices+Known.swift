import Foundation

extension MeetingVoices {
  /// A later meeting's groups of voices (found in this meeting's room alone, per sentence)
  /// named after the attendees whose stored voices explain them best: each group's frames are
  /// scored under each stored voice against the meeting's background, and each voice's scores
  /// standardised over the groups (a room that makes every group sound less like a stored
  /// voice shifts them all alike). The best group and attendee are paired first, then the best
  /// of the rest, and so on; an attendee never heard scores as a typical group, and the share
  /// of a group's speech in an attendee's slot breaks ties. One voice heard as two groups
  /// (someone said nothing) keeps its name on both (`SpeakerLabels.reunited`).
  func namedByProfiles(_ groups: [Int]) -> [Int] {
    let heard = speech.indices.filter { (speech[$0]?.count ?? 0) > 0 }
    var ids: [Int] = []
    for index in heard where !ids.contains(groups[index]) { ids.append(groups[index]) }
    var ratios = [[Double]](
      repeating: [Double](repeating: 0, count: attendees), count: ids.count)
    var inSlot = ratios
    var frames = [Double](repeating: 0, count: ids.count)
    for index in heard {
      let group = ids.firstIndex(of: groups[index])!
      let sentence = speech[index]!.frames
      frames[group] += Double(sentence.count)
      inSlot[group][slots[index]] += Double(sentence.count)
      for attendee in 0..<attendees where profiles[attendee] != nil {
        ratios[group][attendee] += zip(
          priors[attendee].logLikelihoods(sentence), backgroundScores[index]
        ).reduce(0) { $0 + $1.0 - $1.1 }
      }
    }
    var scores = inSlot.indices.map { group in
      inSlot[group].map { settings.slotTieBreak * $0 / max(frames[group], 1) }
    }
    for attendee in 0..<attendees where profiles[attendee] != nil && ids.count > 1 {
      let perFrame = ids.indices.map { ratios[$0][attendee] / max(frames[$0], 1) }
      let mean = perFrame.reduce(0, +) / Double(perFrame.count)
      let spread = perFrame.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(perFrame.count)
      for group in ids.indices {
        scores[group][attendee] += (perFrame[group] - mean) / max(spread.squareRoot(), 1e-6)
      }
    }
    var names: [Int: Int] = [:]
    var free = Set(0..<attendees)
    while names.count < ids.count, !free.isEmpty {
      var best: (group: Int, attendee: Int, score: Double) = (0, 0, -.infinity)
      for group in ids.indices where names[group] == nil {
        for attendee in free where scores[group][attendee] > best.score {
          best = (group, attendee, scores[group][attendee])
        }
      }
      names[best.group] = best.attendee
      free.remove(best.attendee)
    }
    // Raw scores (nats a frame against the background) tell one voice heard as two groups.
    let perFrame = ids.indices.map { group in
      (0..<attendees).map { attendee in
        profiles[attendee] == nil ? nil : ratios[group][attendee] / max(frames[group], 1)
      }
    }
    let reunited = SpeakerLabels.reunited(
      ids.indices.map { names[$0] }, perFrame: perFrame, margin: settings.sameVoiceMargin)
    for (group, attendee) in reunited.enumerated() { names[group] = attendee }
    return groups.indices.map { index in
      guard (speech[index]?.count ?? 0) > 0 else { return slots[index] }
      return names[ids.firstIndex(of: groups[index])!] ?? slots[index]
    }
  }
}
