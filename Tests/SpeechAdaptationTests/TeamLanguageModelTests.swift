import AudioCore
import AudioFilesClientLive
import Foundation
import SpeechAdaptation
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// The ARPA text's n-grams: log10 probability and back-off weight by words.
struct ParsedARPA {
  var grams: [[String]: (probability: Double, backoff: Double)] = [:]

  init(_ text: String) {
    var order = 0
    for line in text.split(separator: "\n") {
      if line.hasPrefix("\\") && line.hasSuffix("-grams:") {
        order = Int(line.dropFirst().prefix { $0.isNumber }) ?? 0
        continue
      }
      let fields = line.split(separator: " ")
      guard order > 0, fields.count >= order + 1, let probability = Double(fields[0]) else {
        continue
      }
      let words = fields[1...order].map(String.init)
      let backoff = fields.count > order + 1 ? Double(fields[order + 1]) ?? 0 : 0
      grams[words] = (probability, backoff)
    }
  }

  /// P(word | context) as a back-off model reads it.
  func probability(_ word: String, after context: [String]) -> Double {
    if let seen = grams[context + [word]] { return pow(10, seen.probability) }
    guard !context.isEmpty else { return 0 }
    let backoff = grams[context].map { pow(10, $0.backoff) } ?? 1
    return backoff * probability(word, after: Array(context.dropFirst()))
  }
}

@Suite("The team's words: an n-gram model of a sync-up's transcripts")
struct TeamLanguageModelTests {
  let sentences: [TeamLanguageModel.Sentence] = [
    .init(text: "Yesterday I fixed the Zorbex alerts.", weight: 1),
    .init(text: "today i fixed the build", weight: 1),
    .init(text: "the zorbex alerts are green", weight: 0.3),
  ]

  @Test("Words are counted as the decoder spells them, weighted by sentence")
  func counting() {
    #expect(
      SpokenSpan.words(of: "Bob's on-call: Zorbex, k8s!") == [
        "bob's", "on", "call", "zorbex", "k", "s",
      ])
    let model = TeamLanguageModel(sentences)
    #expect(model.words.prefix(2) == ["<s>", "</s>"])
    #expect(model.words.contains("zorbex") && model.words.filter { $0 == "zorbex" }.count == 1)
    #expect(abs(model.wordCount - (6 + 5 + 0.3 * 5)) < 1e-9)
  }

  @Test("Every context's probabilities add up to one, and what followed it most is likeliest")
  func smoothing() {
    let arpa = ParsedARPA(TeamLanguageModel(sentences).arpa())
    let vocabulary = TeamLanguageModel(sentences).words.dropFirst()
    for context in [[], ["<s>"], ["the"], ["fixed", "the"], ["the", "zorbex"], ["build"]] {
      let total = vocabulary.reduce(0) { $0 + arpa.probability($1, after: context) }
      #expect(abs(total - 1) < 1e-3, "after \(context): \(total)")
    }
    // After "fixed the": "zorbex" and "build" were seen once each; "alerts" never.
    #expect(arpa.probability("zorbex", after: ["fixed", "the"]) > 0.2)
    #expect(
      arpa.probability("alerts", after: ["fixed", "the"])
        < arpa.probability("build", after: ["fixed", "the"]))
    // A corrected sentence counts more than one nobody checked.
    #expect(arpa.probability("alerts", after: ["zorbex"]) > 0.6)
  }

  @Test("Its weight grows with the text it learned from, up to a bound")
  func weight() {
    let small = TeamWords(path: "", wordCount: 50, words: [])
    let large = TeamWords(path: "", wordCount: 50_000, words: [])
    #expect(small.weight > 0 && small.weight < large.weight)
    #expect(large.weight <= TeamWords.maximumWeight)
  }

  @Test("A weight chosen by held-out text is kept in the header and used")
  func chosenWeight() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.url.appendingPathComponent("team.lm").path
    try TeamWords.write(TeamLanguageModel(sentences), signature: "abc", weight: 0.37, to: path)
    #expect(TeamWords.signature(at: path) == "abc")
    #expect(TeamWords.load(path: path)?.weight == 0.37)
    // A header spoiled by hand: out of bounds is bounded, not a number is no choice.
    for (text, weight) in [("1e300", TeamWordsWeight.range.upperBound), ("-1", 0.02), ("nan", nil)]
    {
      try TeamWords.write(TeamLanguageModel(sentences), signature: "abc", weight: 0.5, to: path)
      let spoiled = try String(contentsOfFile: path, encoding: .utf8)
        .replacingOccurrences(of: " 0.5000\n", with: " \(text)\n")
      try spoiled.write(toFile: path, atomically: true, encoding: .utf8)
      #expect(TeamWords.load(path: path)?.chosenWeight == weight)
    }
    try TeamWords.write(TeamLanguageModel(sentences), signature: "abc", to: path)
    let grown = try #require(TeamWords.load(path: path))
    #expect(grown.chosenWeight == nil)
    #expect(grown.weight == TeamWords(path: "", wordCount: grown.wordCount, words: []).weight)
  }

  @Test("The held-out share makes the held-out words likeliest, within its bounds")
  func heldOutShare() {
    typealias Word = TeamWordsWeight.Word
    // One word only the team predicts, one only the general model: half each.
    let even = TeamWordsWeight.best([Word(team: 0.2, general: 0), Word(team: 0, general: 0.2)])
    #expect(abs((even ?? 0) - 0.5) < 1e-6)
    // Three of five words the team predicts better: the likeliest share (0.653) is above a half.
    let team = [0.3, 0.3, 0.3, 0.001, 0.001].map { Word(team: $0, general: 0.01) }
    let share = try? #require(TeamWordsWeight.best(team))
    func likelihood(_ share: Double) -> Double {
      team.reduce(0) { $0 + Foundation.log(share * $1.team + (1 - share) * $1.general) }
    }
    #expect((share ?? 0) > 0.5)
    #expect(likelihood(share ?? 0) >= likelihood((share ?? 0) + 0.02))
    #expect(likelihood(share ?? 0) >= likelihood((share ?? 0) - 0.02))
    // Never all or nothing; nothing to go by, no share.
    #expect(TeamWordsWeight.best([Word(team: 1, general: 0)]) == TeamWordsWeight.range.upperBound)
    #expect(TeamWordsWeight.best([Word(team: 0, general: 1)]) == TeamWordsWeight.range.lowerBound)
    #expect(TeamWordsWeight.best([]) == nil)
  }

  @Test("The written model keeps its signature and words; a rewrite replaces it whole")
  func writing() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.url.appendingPathComponent("words/team.lm").path
    try TeamWords.write(TeamLanguageModel(sentences), signature: "abc", to: path)
    #expect(TeamWords.signature(at: path) == "abc")
    let loaded = try #require(TeamWords.load(path: path))
    #expect(loaded.words.contains("zorbex") && !loaded.words.contains("<s>"))
    try TeamWords.write(
      TeamLanguageModel([.init(text: "only this", weight: 1)]), signature: "d", to: path)
    #expect(TeamWords.load(path: path)?.words == ["only", "this"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/words") == ["team.lm"]
    )
  }
}

/// The model in a real decoder (on a thread of its own: decoding blocks).
@Suite("The team's words in the decoder", .ownThread)
struct TeamWordsDecoderTests {
  @Test("A corrected word no dictionary has gets a pronunciation and is heard")
  func aCorrectedNewWordIsHeard() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.url.appendingPathComponent("team.lm").path
    let model = TeamLanguageModel(
      [
        "yesterday the zorbex team moved the alerts", "the zorbex team is on call",
        "we paired with the zorbex team",
      ].map { .init(text: $0, weight: 1) })
    try TeamWords.write(model, signature: "s", to: path)
    let sample = try flite("Yesterday the Zorbex team moved our alerts.")
    defer { unlink(sample) }

    let plain = try SpeechDecoder(options: DecoderOptions(partials: false))
    let learned = try SpeechDecoder(options: DecoderOptions(partials: false, teamModel: path))
    // "zorbex" is in no dictionary: it entered with its letter-to-sound pronunciation.
    #expect(try learned.transcribe(AudioFileReader(path: sample)).text.contains("zorbex team"))
    #expect(!(try plain.transcribe(AudioFileReader(path: sample)).text.contains("zorbex")))
  }
}
