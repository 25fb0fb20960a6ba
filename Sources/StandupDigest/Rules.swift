/// The rules that name a clause's question (blocker cues, tense) and cut its phrase.
extension Reading {
  /// The first verb: after the subject and its adverbs ("i also finally fixed").
  var verbIndex: Int {
    var index = contentStart
    while index + 1 < tokens.count, Words.adverbs.contains(tokens[index]) { index += 1 }
    return min(index, tokens.count - 1)
  }

  /// A blocker cue ("blocked", "waiting for", "stuck", "i need Ben to", "need access", "can't
  /// ... until"), as said.
  var blockerCue: String? {
    for (index, word) in tokens.enumerated() {
      let next = index + 1 < tokens.count ? tokens[index + 1] : ""
      if Words.blockerWords.contains(word) {
        // "was blocked", "were waiting": what was, said among what was done.
        if index > 0, ["was", "were"].contains(tokens[index - 1]) { return nil }
        return ["on", "by", "for"].contains(next) ? word + " " + next : word
      }
      if ["block", "wait"].contains(word), ["on", "by", "for"].contains(next) {
        return word + " " + next
      }
      if word == "held", next == "up" { return "held up" }
      // "the domain transfer is still pending": what waits on others.
      if word == "pending", index > 0, ["is", "are", "still"].contains(tokens[index - 1]) {
        return "pending"
      }
      // "can someone give me access to the warehouse": asking the team for help.
      if asksTheTeam(at: index) { return "asks '\(word) \(next)'" }
      // "i ran into an issue with the certificates".
      if ["ran", "run", "running"].contains(word), next == "into",
        tokens[index...].prefix(6).contains(where: Words.trouble.contains)
      {
        return word + " into"
      }
      // "needed": the recogniser often hears "need a" so.
      if ["need", "needs", "needed"].contains(word), let cue = need(at: index) { return cue }
      if word == "until" || word == "till", names.contains(next) { return word + " " + next }
      if word == "not", index > 0, ["can", "could"].contains(tokens[index - 1]),
        tokens[index...].contains("until")
      {
        return "can't ... until"
      }
    }
    return nil
  }

  /// "can someone give me ...", "could anyone ...": a request to the team at `index`, with
  /// something asked after it.
  private func asksTheTeam(at index: Int) -> Bool {
    index + 2 < tokens.count && ["can", "could"].contains(tokens[index])
      && Words.anyone.contains(tokens[index + 1])
  }

  /// "need Ben to", "need someone to", "need a review from", "need access": a need of someone
  /// else, not "need to".
  private func need(at index: Int) -> String? {
    guard index + 1 < tokens.count else { return nil }
    let next = tokens[index + 1]
    // "need to finish" is a plan; "need to eli to confirm" is "need Eli to" misheard.
    if next == "to", index + 2 >= tokens.count || Misheard.name(tokens[index + 2], in: names) == nil
    {
      return nil
    }
    // "i need li to fix": a name heard a little wrong, then "to".
    if index + 2 < tokens.count, tokens[index + 2] == "to",
      let name = Misheard.name(next, in: names)
    {
      return "need \(name) to"
    }
    let window = tokens[(index + 1)..<min(tokens.count, index + 4)]
    if let thing = window.first(where: { Words.neededThings.contains($0) || names.contains($0) }) {
      return "need \(thing)"
    }
    let people = Words.anyone.union(["you", "them", "the", "him", "her"])
    if people.contains(next), tokens[(index + 2)..<min(tokens.count, index + 5)].contains("to") {
      return "need \(next) ... to"
    }
    return nil
  }

  /// "will", "going to", "want to", "am working": what the clause says will be done.
  var futureMarker: String? {
    let end = min(tokens.count, contentStart + 6)
    guard contentStart < end else { return nil }
    for index in contentStart..<end {
      let word = tokens[index]
      let next = index + 1 < tokens.count ? tokens[index + 1] : ""
      let before = index > 0 ? tokens[index - 1] : ""
      if Words.isPast(word), index == verbIndex, word != "got" { return nil }
      if ["will", "shall", "should"].contains(word) { return "future '\(word)'" }
      // "i can give you access after this", "i can pause them at eight": an offer for today,
      // a verb right after "i can" (not "can't", not "can be").
      if word == "can",
        Words.commonVerbs.contains(next)
          || (index == contentStart && hasSubject && !Words.empty.contains(next)
            && !Words.negations.contains(next) && next != "be")
      {
        return "offer 'can \(next)'"
      }
      if Words.futureWithTo.contains(word), next == "to",
        !["was", "were", "had", "did"].contains(before)
      {
        return "future '\(word) to'"
      }
      if ["am", "are"].contains(word), next != "going", next.count > 4, next.hasSuffix("ing") {
        return "present '\(word) \(next)'"
      }
      if ["next", "tomorrow", "later"].contains(word) { return "future '\(word)'" }
      // "the plan for today is to triage ...", "my goal is to ship ...".
      if Words.aims.contains(word), aimVerbStart(after: index) != nil { return "aim '\(word)'" }
      // "same as yesterday, still on the billing export": what goes on today.
      if word == "still", Words.ongoing.contains(next) { return "ongoing 'still \(next)'" }
    }
    return nil
  }

  /// "finished", "was working", "have merged": what the clause says was done.
  func pastMarker(subject: Bool) -> String? {
    let index = verbIndex
    let word = tokens[index]
    let next = index + 1 < tokens.count ? tokens[index + 1] : ""
    let participles: Set<String> = ["been", "done", "gone", "seen", "taken", "written", "begun"]
    if ["have", "has", "had"].contains(word), Words.isPast(next) || participles.contains(next) {
      return "present perfect '\(word) \(next)'"
    }
    if ["am", "are"].contains(word), ["done", "finished"].contains(next) {
      return "done '\(word) \(next)'"
    }
    guard Words.isPast(word), subject || index == contentStart else { return nil }
    return "past tense '\(word)'"
  }

  /// The words of the clause that make its item: its own words after the cue, the subject and
  /// the words that only say the tense ("will", "going to"); at most `maximumWords`, without
  /// the fillers at its end. Nil when nothing of substance is left.
  func phrase(for question: DigestQuestion) -> ClosedRange<Int>? {
    var start = contentStart
    switch question {
    case .blockers: start = blockerStart(from: start)
    case .today: start = todayStart(from: start)
    case .yesterday: start = yesterdayStart(from: start)
    }
    while start < tokens.count, Words.adverbs.contains(tokens[start]) { start += 1 }
    var end = min(tokens.count - 1, start + Self.maximumWords - 1)
    while end >= start, Words.trailing.contains(tokens[end]) { end -= 1 }
    // "i'll do that today": doing what was just asked is an item of its own.
    let doesWhatWasAsked =
      question == .today && start + 1 < tokens.count && tokens[start] == "do"
      && ["that", "it", "this", "them"].contains(tokens[start + 1])
    if doesWhatWasAsked { end = max(end, start + 1) }
    // "november blockers" ("no other blockers" misheard): a cue alone says nothing; nor does a
    // name alone ("yesterday Wendy and I shipped ...": the clause before "and i").
    guard start <= end, !tokens[start...end].allSatisfy(names.contains),
      doesWhatWasAsked
        || tokens[start...end].contains(where: {
          !Words.empty.contains($0) && !Words.blockerWords.contains($0)
        }),
      !tokens[start...end].allSatisfy(Words.turnTaking.contains)
    else { return nil }
    return start...end
  }

  static let maximumWords = 14

  private func blockerStart(from start: Int) -> Int {
    var index = start
    let skipped: Set<String> = [
      "am", "are", "is", "still", "currently", "also", "just", "really", "my", "our", "only",
      "main", "biggest", "one", "the", "a",
    ]
    while index < tokens.count, skipped.contains(tokens[index]) { index += 1 }
    // "can someone give me access": what is asked for.
    if asksTheTeam(at: index) { return index + 2 }
    // "i'm going to need a hand from ...": the need, without the tense.
    if index + 2 < tokens.count, tokens[index] == "going", tokens[index + 1] == "to" {
      index += 2
    }
    // "my only blocker is the staging database": what blocks, without the cue.
    if index + 1 < tokens.count, ["blocker", "blockers"].contains(tokens[index]),
      ["is", "are", "was"].contains(tokens[index + 1])
    {
      return index + 2
    }
    return index < tokens.count ? index : start
  }

  /// After "plan", "goal" ...: where the aimed-at verb starts ("... for today is to triage",
  /// "... is shipping"), if the words say one within a few words.
  func aimVerbStart(after index: Int) -> Int? {
    let window = tokens[(index + 1)..<min(tokens.count, index + 5)]
    guard let be = window.firstIndex(where: { $0 == "is" }), be + 1 < tokens.count else {
      return nil
    }
    if tokens[be + 1] == "to", be + 2 < tokens.count { return be + 2 }
    return Words.isVerb(tokens[be + 1]) ? be + 1 : nil
  }

  private func todayStart(from start: Int) -> Int {
    if let goesOn = goesOnFromYesterday { return goesOn }
    let end = min(tokens.count, start + 6)
    var index = start
    while index < end {
      let word = tokens[index]
      let next = index + 1 < tokens.count ? tokens[index + 1] : ""
      if Words.aims.contains(word), let verb = aimVerbStart(after: index) { return verb }
      if word == "still", Words.ongoing.contains(next) { return index + 1 }
      if ["will", "shall", "should", "can"].contains(word) {
        return next == "be" ? index + 2 : index + 1
      }
      if Words.futureWithTo.contains(word), next == "to" { return index + 2 }
      if ["am", "are"].contains(word), next != "going", next.hasSuffix("ing") { return index + 1 }
      index += 1
    }
    return start
  }

  private func yesterdayStart(from start: Int) -> Int {
    var index = start
    while index + 1 < tokens.count, Words.adverbs.contains(tokens[index]) { index += 1 }
    guard index + 1 < tokens.count else { return index }
    let word = tokens[index]
    let next = tokens[index + 1]
    if ["have", "has", "had"].contains(word), Words.isPast(next) || next == "been" {
      return next == "been" && index + 2 < tokens.count ? index + 2 : index + 1
    }
    if ["was", "were"].contains(word), next.hasSuffix("ing") { return index + 1 }
    return index
  }
}
