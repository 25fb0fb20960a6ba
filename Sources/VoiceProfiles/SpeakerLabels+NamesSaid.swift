import Foundation

extension SpeakerLabels {
  /// Voices renamed after the names said in the meeting, when those say the names given by
  /// voice and order are wrong (attendees listed in another order than they speak, a first
  /// meeting's voices named in turn). Per attendee index, the index their sentences go to.
  ///
  /// Evidence, per turn (a run of sentences `speakers` gives one attendee), by the words of a
  /// name of one attendee alone:
  /// - said introducing oneself ("i'm Cleo", "this is Cleo", "Cleo here"): that voice is Cleo
  ///   (`introduction`);
  /// - said addressing someone at the end of a turn (the first word of its last sentence, or
  ///   after "okay", "so", "over"...: "Ana, you're next"; or its last word, not after a
  ///   preposition or a verb of asking: "who wants to start? Gus"): the next turn is theirs
  ///   (`address`);
  /// - said thanking at the start of a turn ("thanks Ben"): the turn before is Ben's
  ///   (`address`);
  /// - said any other way ("I need Eli to confirm"): that voice is not Eli's (`mention`, once a
  ///   sentence, at most twice a voice and name).
  /// The names change only among `movable` attendees (whose voices were not known before the
  /// meeting), to the renaming the evidence supports best, and only when it does better than
  /// keeping the names by more than `margin`, and with at least two more hand-overs or thanks
  /// (or an introduction) for it than for the names as given: one name misheard at a turn's
  /// end renames no one. More than `maximumMovable` movable attendees:
  /// names kept (the renamings are tried one by one).
  public static func renamedBySpeech(
    speakers: [Int], texts: [String], names: [String], movable: Set<Int>
  ) -> [Int] {
    let count = names.count
    let identity = Array(0..<count)
    let movable = movable.filter { (0..<count).contains($0) }.sorted()
    guard movable.count >= 2, movable.count <= maximumMovable, speakers.count == texts.count,
      speakers.allSatisfy({ (0..<count).contains($0) })
    else { return identity }
    let evidence = NameEvidence(names: names).weights(speakers: speakers, texts: texts)
    func score(_ mapping: [Int], _ weights: [[Double]]) -> Double {
      mapping.indices.reduce(0) { $0 + weights[$1][mapping[$1]] }
    }
    func score(_ mapping: [Int]) -> Double {
      score(mapping, evidence.said) + score(mapping, evidence.passing)
        + Double(mapping.indices.filter { mapping[$0] == $0 }.count) * keepingBonus
    }
    // A name said in passing only speaks against a voice: on its own it renames none (a word
    // heard as a name would).
    let handedOver = score(identity, evidence.said) + 2 * address
    var best = identity
    var bestScore = score(identity) + margin
    for order in permutations(movable) {
      var mapping = identity
      for (from, to) in zip(movable, order) { mapping[from] = to }
      let value = score(mapping)
      if value > bestScore, score(mapping, evidence.said) >= handedOver {
        best = mapping
        bestScore = value
      }
    }
    return best
  }

  static let maximumMovable = 7
  static let introduction = 2.0
  static let address = 1.0
  static let mention = -0.5
  /// How much better than the names as given a renaming must explain what was said.
  static let margin = 0.5
  /// Per name kept: of two renamings as good, the one that moves fewer.
  static let keepingBonus = 0.01

  static func permutations(_ items: [Int]) -> [[Int]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index -> [[Int]] in
      var rest = items
      let first = rest.remove(at: index)
      return permutations(rest).map { [first] + $0 }
    }
  }
}

/// The names said in a meeting's sentences, read as evidence of who speaks.
struct NameEvidence {
  /// Each word of a name that belongs to one attendee alone, and theirs.
  let owners: [String: Int]
  let attendees: Int

  init(names: [String]) {
    var seen: [String: [Int]] = [:]
    for (index, name) in names.enumerated() {
      for word in Set(Self.words(name)) { seen[word, default: []].append(index) }
    }
    owners = seen.compactMapValues { $0.count == 1 ? $0[0] : nil }
    attendees = names.count
  }

  static func words(_ text: String) -> [String] {
    text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
  }

  /// Words after which a name at the start of a sentence still addresses someone.
  static let openers: Set<String> = [
    "okay", "ok", "so", "alright", "right", "now", "well", "um", "uh", "and", "then", "over",
    "next", "go",
  ]
  /// Words before a name at a turn's end that make it part of what was said ("with Lea").
  static let binding: Set<String> = [
    "with", "for", "to", "from", "by", "on", "of", "at", "and", "about", "than", "as", "ask",
    "asked", "need", "needs", "tell", "told", "help", "like", "me", "in", "pair", "pairing",
    "thank", "thanks",
  ]
  /// Words after a name that opens a sentence and hands the turn over ("Ana, do you ...").
  static let asking: Set<String> = [
    "you", "you're", "your", "do", "can", "could", "would", "will", "please", "go", "next",
    "what", "how", "anything", "over", "want", "are", "first",
  ]
  /// Words after a name at a turn's end that hand the turn over ("Kai, please").
  static let handing: Set<String> = ["please", "first", "next", "go"]

  /// said[v][a]: how much the names handed over, thanked and introduced support voice v (as
  /// `speakers` names it) being attendee a; passing[v][a]: how much names said in passing speak
  /// against it (zero or less).
  func weights(speakers: [Int], texts: [String]) -> (said: [[Double]], passing: [[Double]]) {
    var weights = [[Double]](repeating: [Double](repeating: 0, count: attendees), count: attendees)
    var mentions = [[Double]](repeating: [Double](repeating: 0, count: attendees), count: attendees)
    var turns: [(speaker: Int, sentences: [[String]])] = []
    for (speaker, text) in zip(speakers, texts) {
      let words = Array(Self.words(text).prefix(200))
      if turns.last?.speaker == speaker {
        turns[turns.count - 1].sentences.append(words)
      } else {
        turns.append((speaker, [words]))
      }
    }
    for (turn, (speaker, sentences)) in turns.enumerated() {
      for (position, words) in sentences.enumerated() {
        var mentioned = Set<Int>()
        for (index, word) in words.enumerated() {
          guard let named = owners[word] else { continue }
          if introduces(words, at: index) {
            weights[speaker][named] += SpeakerLabels.introduction
            continue
          }
          mentioned.insert(named)
          if position == sentences.count - 1, turn + 1 < turns.count, addresses(words, at: index) {
            weights[turns[turn + 1].speaker][named] += SpeakerLabels.address
          }
          if position == 0, turn > 0, thanks(words, at: index) {
            weights[turns[turn - 1].speaker][named] += SpeakerLabels.address
          }
        }
        for named in mentioned {
          mentions[speaker][named] = max(mentions[speaker][named] + SpeakerLabels.mention, -1)
        }
      }
    }
    return (weights, mentions)
  }

  /// "i'm Cleo", "i am Cleo", "this is Cleo", "it's Cleo", "my name is Cleo", "Cleo here".
  func introduces(_ words: [String], at index: Int) -> Bool {
    let before = index > 0 ? words[index - 1] : ""
    let twoBefore = index > 1 ? words[index - 2] : ""
    if ["i'm", "it's"].contains(before) { return true }
    if before == "am", twoBefore == "i" { return true }
    if before == "is", ["this", "name"].contains(twoBefore) { return true }
    return index == 0 && words.count > 1 && words[1] == "here"
  }

  /// "Ana, you're next", "okay Ben do you want to go first", "who wants to start Gus", "Kai
  /// please".
  func addresses(_ words: [String], at index: Int) -> Bool {
    let before = index > 0 ? words[index - 1] : ""
    if index == 0 || (index == 1 && Self.openers.contains(before)) {
      // "Ben, you're next", "Gus?", not "pia ticket is ready" ("the ticket" misheard).
      return index + 1 >= words.count || Self.asking.contains(words[index + 1])
    }
    guard !Self.binding.contains(before) else { return false }
    if index == words.count - 1 { return true }
    return index == words.count - 2 && Self.handing.contains(words[index + 1])
  }

  /// "thanks Ben", "thank you Ben", "okay thanks Ben" at the start of a turn.
  func thanks(_ words: [String], at index: Int) -> Bool {
    guard index <= 3 else { return false }
    return words[max(0, index - 2)..<index].contains { $0 == "thanks" || $0 == "thank" }
  }
}
