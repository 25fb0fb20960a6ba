import Foundation

extension SpeakerLabels {
  /// A first meeting's groups of voices (`groups`, per sentence), named after the attendees
  /// whose slots they fill.
  ///
  /// Groups keep the order they first speak in, and so do the attendees: with a group for each
  /// attendee, the first to speak is the first attendee, and so on, wherever the slots fall (a
  /// meeting whose turns ignore the slots keeps its names). With fewer groups than attendees
  /// they are matched to the attendees' slots in that order (a turn that drifted by a slot
  /// keeps its name), and (two voices alike heard as one), the attendee
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
    if groups.count == attendees {
      return labels.indices.map { frames[$0] > 0 ? groups.firstIndex(of: labels[$0])! : labels[$0] }
    }
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
