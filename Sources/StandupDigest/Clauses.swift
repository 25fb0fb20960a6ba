/// A clause of a segment: the words between two cues. `joined`: it began with "and" (or "then")
/// and a verb ("... and fixed two bugs"), so without a cue of its own it answers what the
/// clause before it answered.
struct Clause: Equatable, Sendable {
  var tokens: [Token]
  var joined = false
}

/// Where clauses start. The recogniser writes no punctuation, so a turn is cut before:
/// - a subject ("i", "we"), with the connectors before it ("and then i"), unless a word binds it
///   to the clause before ("until i", "because we");
/// - a time cue that leads ("yesterday i ...", not "... for today");
/// - "and" or "then" before a verb ("... and fixed two bugs"), and "but";
/// - a remark on what was just said ("it is almost done", "that took a day");
/// - a blocker cue that follows other words ("... no blockers", "... waiting for Ben");
/// - the chatter of whoever runs the meeting ("thanks", "good morning", "let's", "over to").
/// A full stop, question mark or semicolon (typed corrections) always ends a clause.
enum Clauses {
  static func split(_ tokens: [Token]) -> [Clause] {
    var clauses: [Clause] = []
    var current = Clause(tokens: [])
    let words = tokens.map(\.word)
    var ledByCue = -1
    func close() {
      if !current.tokens.isEmpty { clauses.append(current) }
      current = Clause(tokens: [])
    }
    for index in tokens.indices {
      let word = words[index]
      if word == SegmentWords.breakMark {
        close()
        continue
      }
      if !current.tokens.isEmpty, let opening = start(at: index, in: words, ledByCue: ledByCue) {
        // The connectors at the end of the clause so far belong to the new one.
        var moved: [Token] = []
        if opening.absorbsConnectors {
          while let last = current.tokens.last, Words.connectors.contains(last.word) {
            moved.insert(current.tokens.removeLast(), at: 0)
          }
        }
        close()
        current.tokens = moved
        current.joined = opening.joined
        if opening.isCue { ledByCue = index }
        if opening.dropsWord { continue }
      } else if isLeadingCue(at: index, in: words),
        current.tokens.allSatisfy({
          Words.connectors.contains($0.word)
        })
      {
        ledByCue = index
      }
      current.tokens.append(tokens[index])
    }
    close()
    return clauses
  }

  struct Start {
    var absorbsConnectors = true
    var joined = false
    var isCue = false
    /// The word stands for "and" heard wrong: it is in neither clause.
    var dropsWord = false
  }

  /// Whether a clause starts at `index` (the clause so far is not empty), and how.
  static func start(at index: Int, in words: [String], ledByCue: Int) -> Start? {
    let word = words[index]
    let previous = words[index - 1]
    let next = index + 1 < words.count ? words[index + 1] : nil
    if Words.subjects.contains(word) {
      // "yesterday i": the cue began this clause.
      if ledByCue == index - 1 || (ledByCue == index - 2 && isPairCue(at: index - 2, in: words)) {
        return nil
      }
      return Words.binders.contains(previous) ? nil : Start()
    }
    if isLeadingCue(at: index, in: words) { return Start(isCue: true) }
    // "i profiled but checkout page": "the" heard as "but" after a verb, not a second clause.
    if word == "but", !(Words.isVerb(previous) && next.map(isPlainWord) == true) {
      return Start(absorbsConnectors: false)
    }
    // "today and pairing with ivo": "and" for "i'm" after a leading cue, no new clause.
    let afterCue =
      ledByCue == index - 1 || (ledByCue == index - 2 && isPairCue(at: ledByCue, in: words))
    if ["and", "then", "plus"].contains(word), !afterCue, startsVerb(at: index + 1, in: words) {
      return Start(absorbsConnectors: false, joined: true)
    }
    // "the incident report him shared it": "and" heard wrong before a second thing done.
    if Misheard.and.contains(word), index + 1 < words.count, Words.isPast(words[index + 1]),
      saidPastBefore(index, in: words)
    {
      return Start(absorbsConnectors: false, joined: true, dropsWord: true)
    }
    // "i finished this could change": the object of a verb, not a remark after it.
    if Words.remarkSubjects.contains(word), let next, Words.remarkVerbs.contains(next),
      !Words.binders.contains(previous), !Words.isVerb(previous)
    {
      return Start()
    }
    if let start = blockerStart(at: index, in: words) { return start }
    // "this morning i'll verify": a time cue, not a greeting.
    let greets = Words.chatter.contains(word) && !isPairCue(at: index - 1, in: words)
    if greets || (word == "good" && next == "morning") || (word == "over" && next == "to") {
      return Start()
    }
    return nil
  }

  /// A word of a thing's name: no subject, verb, function word or connector.
  static func isPlainWord(_ word: String) -> Bool {
    !Words.subjects.contains(word) && !Words.isVerb(word) && !Words.empty.contains(word)
      && !Words.connectors.contains(word) && !Words.adverbs.contains(word)
      && !Words.remarkSubjects.contains(word) && word != SegmentWords.breakMark
  }

  /// A past verb ("wrote") at least three words before `index`, after the clause's subject.
  static func saidPastBefore(_ index: Int, in words: [String]) -> Bool {
    guard index >= 4 else { return false }
    let before = words[max(0, index - 8)..<(index - 3)]
    guard let verb = before.lastIndex(where: Words.isPast) else { return false }
    return verb > 0 && Words.subjects.contains(words[verb - 1])
  }

  /// A verb, or an adverb and a verb ("and also fixed").
  static func startsVerb(at index: Int, in words: [String]) -> Bool {
    guard index < words.count else { return false }
    if Words.isVerb(words[index]) || words[index] == "will" { return true }
    return Words.adverbs.contains(words[index]) && index + 1 < words.count
      && Words.isVerb(words[index + 1])
  }

  static func isPairCue(at index: Int, in words: [String]) -> Bool {
    index >= 0 && index + 1 < words.count
      && Words.timePairs[words[index] + " " + words[index + 1]] != nil
  }

  /// A time cue that opens what follows ("yesterday i fixed"), not one that ends a clause
  /// ("... for today", "... yesterday" before another cue or the end).
  static func isLeadingCue(at index: Int, in words: [String]) -> Bool {
    let single = Words.timeCues[words[index]] != nil
    let pair = isPairCue(at: index, in: words)
    guard single || pair else { return false }
    // "... for today", "i spent yesterday on ...": inside the clause.
    if index > 0,
      ["for", "by", "until", "till", "of", "than", "from", "later", "as", "since"]
        .contains(words[index - 1]) || Words.isVerb(words[index - 1])
    {
      return false
    }
    let after = index + (pair ? 2 : 1)
    guard after < words.count else { return false }
    let next = words[after]
    return next != SegmentWords.breakMark && Words.timeCues[next] == nil
      && !isPairCue(at: after, in: words) && !Words.chatter.contains(next)
  }

  /// Words between the start of a blocker's clause and its cue ("my only blocker", "no
  /// blockers", "still waiting"): a clause that starts with them starts at the first.
  private static let leadIns: Set<String> = [
    "my", "the", "a", "one", "only", "main", "biggest", "our", "no", "any", "big", "real",
    "nothing", "not", "still", "currently", "also", "just", "kind", "of", "little", "bit",
    "some", "two", "major", "really", "totally", "completely", "slightly", "pretty", "again",
    "other", "more", "mine",
  ]
  /// Words that make a blocker cue part of the clause before ("i am blocked", "the deploy is
  /// blocked", "i have no blockers").
  private static let auxiliaries: Set<String> = [
    "is", "am", "are", "was", "were", "been", "being", "be", "get", "got", "getting", "have",
    "has", "had", "me", "it", "there", "i", "we",
  ]

  /// A blocker cue after other words of a clause starts a clause of its own ("... no
  /// blockers", "... waiting for Ben"), unless its subject comes first ("the deploy is blocked").
  static func blockerStart(at index: Int, in words: [String]) -> Start? {
    var cue = index
    while cue < words.count, cue - index < 4, leadIns.contains(words[cue]) { cue += 1 }
    guard cue < words.count, Words.blockerWords.contains(words[cue]) else { return nil }
    let previous = words[index - 1]
    guard !leadIns.contains(previous), !auxiliaries.contains(previous),
      !Words.binders.contains(previous)
    else { return nil }
    return Start()
  }
}
