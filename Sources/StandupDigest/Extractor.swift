import Foundation

/// The items of one speaker's turn: each clause read in order, a time cue ("yesterday",
/// "today") holding for the clauses after it until the turn ends.
struct Extractor {
  var turn: Turn
  var attendees: [String]

  /// The words of the other attendees' names, as the rules compare them.
  var names: Set<String> {
    let others: [String] = attendees.filter {
      $0.caseInsensitiveCompare(turn.speaker) != .orderedSame
    }
    let words: [String] = others.flatMap { name in
      name.lowercased().split(separator: " ").map(String.init)
    }
    return Set(words.filter { $0.count >= 2 })
  }

  func items() -> [DigestItem] {
    var items: [DigestItem] = []
    var section: (question: DigestQuestion, word: String)?
    var previous: DigestQuestion?
    // The clause before, and its item's place in `items` if it gave one.
    var before: (reading: Reading, clause: Clause, words: SegmentWords, segment: DigestSegment)?
    var beforeItem: Int?
    let names = self.names
    for segment in turn.segments {
      let words = SegmentWords(segment.text)
      for clause in Clauses.split(words.tokens) {
        let reading = Reading(tokens: clause.tokens.map(\.word), names: names)
        // "still no review from design, so that's my blocker": the clause before is the blocker.
        if reading.pointsToBlocker, let said = before {
          let decision = Reading.Decision(
            question: .blockers, reason: "blocker cue 'that is my blocker'")
          if let range = said.reading.phrase(for: .blockers),
            let item = makeItem(decision, range, said.clause, said.words, said.segment)
          {
            if let beforeItem { items[beforeItem] = item } else { items.append(item) }
          }
          before = nil
          beforeItem = nil
          continue
        }
        before = (reading, clause, words, segment)
        beforeItem = nil
        if let cue = reading.timeCue { section = cue }
        let joinedTo = clause.joined ? previous : nil
        guard let decision = reading.decide(section: section, joinedTo: joinedTo),
          let range = reading.phrase(for: decision.question),
          let item = makeItem(decision, range, clause, words, segment)
        else {
          if !clause.joined { previous = nil }
          continue
        }
        beforeItem = items.count
        items.append(item)
        previous = decision.question
      }
    }
    return items
  }

  private func makeItem(
    _ decision: Reading.Decision, _ range: ClosedRange<Int>, _ clause: Clause,
    _ words: SegmentWords, _ segment: DigestSegment
  ) -> DigestItem? {
    let first = clause.tokens[range.lowerBound].source
    let last = max(first, clause.tokens[range.upperBound].source)
    guard last < words.surface.count else { return nil }
    let text = words.surface[first...last].joined(separator: " ")
    let person =
      decision.question == .blockers ? named(in: clause.tokens.map(\.word)) : nil
    return DigestItem(
      question: decision.question, text: text, segment: segment.number, time: segment.start,
      person: person, reason: decision.reason)
  }

  /// The first attendee other than the speaker whose name (any of its words) the clause says.
  private func named(in words: [String]) -> String? {
    let names = self.names
    // A name heard as a word alike only where a need names someone ("need li to").
    let alike = words.indices.dropFirst().compactMap { index in
      ["need", "needs", "needed", "to"].contains(words[index - 1])
        ? Misheard.name(words[index], in: names) : nil
    }
    let said = Set(words + alike)
    return attendees.first { name in
      name.caseInsensitiveCompare(turn.speaker) != .orderedSame
        && name.lowercased().split(separator: " ").contains { said.contains(String($0)) }
    }
  }
}

/// One clause as the rules read it.
struct Reading {
  var tokens: [String]
  /// The other attendees' names (their words, lower case).
  var names: Set<String> = []

  struct Decision: Equatable {
    var question: DigestQuestion
    var reason: String
  }

  /// Where the clause's own words start: after connectors, time cues and its subject.
  var contentStart: Int {
    var index = 0
    while index < tokens.count {
      let word = tokens[index]
      if Words.connectors.contains(word) || Words.subjects.contains(word)
        || Words.timeCues[word] != nil
      {
        index += 1
      } else if Clauses.isPairCue(at: index, in: tokens) {
        index += 2
      } else {
        break
      }
    }
    return index
  }

  var hasSubject: Bool { tokens.prefix(contentStart).contains { Words.subjects.contains($0) } }

  /// "working on the billing export today", "mostly debugging yesterday": an item said as a
  /// verb in "-ing" with no subject.
  var opensWithIng: Bool {
    let verb = tokens[verbIndex]
    return !hasSubject && verb.count > 4 && verb.hasSuffix("ing") && !Words.empty.contains(verb)
  }

  /// "same as yesterday, cleaning up certificates": yesterday's work goes on today; where the
  /// words of what goes on start.
  var goesOnFromYesterday: Int? {
    let start = contentStart
    guard start + 3 < tokens.count, tokens[start] == "same", tokens[start + 1] == "as",
      tokens[start + 2] == "yesterday"
    else { return nil }
    return start + 3
  }

  /// "that's my blocker", "that is what's blocking me": the clause before is the blocker.
  var pointsToBlocker: Bool {
    guard contentStart < tokens.count, Words.remarkSubjects.contains(tokens[contentStart]),
      tokens.contains(where: Words.blockerWords.contains)
    else { return false }
    return tokens[contentStart...].allSatisfy {
      Words.pointers.contains($0) || Words.blockerWords.contains($0)
    }
  }

  /// The clause's own time cue, if it says one.
  var timeCue: (question: DigestQuestion, word: String)? {
    for index in tokens.indices {
      if Clauses.isPairCue(at: index, in: tokens) {
        let pair = tokens[index] + " " + tokens[index + 1]
        return Words.timePairs[pair].map { ($0, pair) }
      }
      if let question = Words.timeCues[tokens[index]] { return (question, tokens[index]) }
    }
    return nil
  }

  /// What the clause answers, and why; nil when it answers nothing (chatter, a remark, "no
  /// blockers"). First a blocker, then the tense, then the clause's time cue, then the clause it
  /// joins ("and fixed ..."), then the turn's last cue.
  func decide(section: (question: DigestQuestion, word: String)?, joinedTo: DigestQuestion?)
    -> Decision?
  {
    guard contentStart < tokens.count, !isChatter else { return nil }
    if isNegatedBlocker { return nil }
    if let cue = blockerCue { return Decision(question: .blockers, reason: "blocker cue '\(cue)'") }
    let starts = contentStart
    let subject = hasSubject || joinedTo != nil
    if goesOnFromYesterday != nil { return Decision(question: .today, reason: "same as yesterday") }
    if isRemark || addressesSomeone { return nil }
    if let marker = futureMarker { return Decision(question: .today, reason: marker) }
    if let past = pastMarker(subject: subject) {
      return Decision(question: .yesterday, reason: past)
    }
    if let cue = timeCue, hasSubject || cueLeads || opensWithIng {
      return Decision(question: cue.question, reason: "cue '\(cue.word)'")
    }
    if let joinedTo { return Decision(question: joinedTo, reason: "joined by 'and'") }
    if let section, hasSubject || opensWithIng, starts < tokens.count {
      return Decision(question: section.question, reason: "after the cue '\(section.word)'")
    }
    if hasSubject, Words.commonVerbs.contains(tokens[verbIndex]) {
      return Decision(question: .today, reason: "present tense '\(tokens[verbIndex])'")
    }
    return nil
  }

  private var isChatter: Bool {
    let first = tokens[contentStart]
    return Words.chatter.contains(first) || first == "good" || first == "over"
      || (first == "that" && tokens.dropFirst(contentStart + 1).first == "is"
        && tokens.count - contentStart <= 4)
  }

  /// The clause opens with a time cue ("yesterday mostly meetings").
  private var cueLeads: Bool {
    tokens.prefix(contentStart).contains { Words.timeCues[$0] != nil }
      || (0..<contentStart).contains { Clauses.isPairCue(at: $0, in: tokens) }
  }

  /// "it is almost done", "that took a day": about the thing just said (unless a cue leads
  /// it: "today it is mostly reviews").
  private var isRemark: Bool {
    !hasSubject && !cueLeads && Words.remarkSubjects.contains(tokens[contentStart])
  }

  /// "do you want to go first", "can you look at it": asking someone, not answering.
  private var addressesSomeone: Bool {
    !hasSubject && tokens[contentStart..<min(tokens.count, contentStart + 4)].contains("you")
  }

  /// "no blockers", "nothing blocking me", "not blocked", "don't have any blockers".
  var isNegatedBlocker: Bool {
    for (index, word) in tokens.enumerated()
    where Words.blockerWords.contains(word) || word == "block" {
      let before = tokens[max(0, index - 3)..<index]
      if before.contains(where: Words.negations.contains) { return true }
      if index + 1 < tokens.count, ["none", "nothing"].contains(tokens[index + 1]) { return true }
    }
    return false
  }
}
