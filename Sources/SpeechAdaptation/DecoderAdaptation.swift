import CPocketSphinx
import Foundation
import SpeechVocabulary

/// What a decoder knows beyond the general en-us model: the stand-up model and a team's
/// vocabulary, and how much each counts.
public struct LanguageModelMix: Sendable, Equatable {
  /// The stand-up model; nil uses the general model alone (plus the vocabulary).
  public var standup: StandupModel?
  /// The stand-up model's share of the interpolated probability (0 leaves it out).
  public var standupWeight: Double
  public var vocabulary: Vocabulary
  /// The vocabulary model's share: enough to make its words likely, little enough that they do
  /// not replace ordinary words.
  public var vocabularyWeight: Double
  /// The sync-up's own model (its transcripts, see `TeamWords`); its weight is taken from the
  /// others in proportion.
  public var team: TeamWords?

  public init(
    standup: StandupModel?, standupWeight: Double, vocabulary: Vocabulary, vocabularyWeight: Double,
    team: TeamWords? = nil
  ) {
    self.standup = standup
    self.standupWeight = standupWeight
    self.vocabulary = vocabulary
    self.vocabularyWeight = vocabularyWeight
    self.team = team
  }

  /// True when the decoder needs nothing beyond its general model.
  public var isPlain: Bool {
    (standup == nil || standupWeight <= 0) && vocabulary.isEmpty && team == nil
  }
}

/// Why a decoder could not be adapted; one line, what to do.
public struct AdaptationError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Adapts a started PocketSphinx decoder that has no search yet (before its first utterance):
/// words missing from its dictionary enter through `ps_add_word` (pronunciations from the
/// stand-up dictionary or flite's letter-to-sound rules), then its search is made once, over an
/// interpolated set (`ngram_model_set_init`) of the general model, the stand-up model and the
/// vocabulary's model.
public enum DecoderAdaptation {
  /// Words added to the dictionary and the models in the set, for logs and tests.
  public struct Report: Sendable, Equatable {
    public var addedWords: [String: String] = [:]
    public var unpronounceable: [String] = []
    public var models: [String] = []
  }

  static let searchName = "syncups"

  /// `generalModel` is the general model's file; a plain mix leaves the decoder as it is (it was
  /// started with that model).
  @discardableResult
  public static func apply(
    _ mix: LanguageModelMix, generalModel: String, to decoder: OpaquePointer
  ) throws(AdaptationError) -> Report {
    var report = Report()
    guard !mix.isPlain else { return report }
    guard ps_get_search(decoder) == nil else {
      throw AdaptationError("the decoder already has a search; start it without a language model")
    }
    let config = ps_get_config(decoder)
    guard let general = ngram_model_read(config, generalModel, NGRAM_AUTO, ps_get_logmath(decoder))
    else {
      throw AdaptationError(
        "cannot load the general language model \(generalModel); reinstall pocketsphinx-en-us")
    }
    defer { ngram_model_free(general) }
    try addWords(mix, to: decoder, &report)
    report.models = try combineModels(mix, decoder: decoder, general: general)
    return report
  }

  /// 2. The language model set, interpolated, made the decoder's search; returns the models' names.
  private static func combineModels(
    _ mix: LanguageModelMix, decoder: OpaquePointer, general: OpaquePointer
  ) throws(AdaptationError) -> [String] {
    let config = ps_get_config(decoder)
    let logmath = ps_get_logmath(decoder)
    var models: [OpaquePointer?] = [ngram_model_retain(general)]
    var names = ["general"]
    var weights: [Float] = []
    defer { for model in models { ngram_model_free(model) } }
    var rest = 1.0
    if let standup = mix.standup, mix.standupWeight > 0 {
      guard let model = ngram_model_read(config, standup.languageModel, NGRAM_AUTO, logmath) else {
        throw AdaptationError(
          "cannot load the stand-up language model \(standup.languageModel); rebuild it with "
            + "Models/standup/build")
      }
      models.append(model)
      names.append("standup")
      weights.append(Float(mix.standupWeight))
      rest -= mix.standupWeight
    }
    if !mix.vocabulary.isEmpty {
      // Always in the set (if only with a tiny weight), so its words are known before they enter
      // the dictionary (see 2).
      let weight = max(mix.vocabularyWeight, 0.001)
      let model = try readVocabularyModel(mix.vocabulary, config: config, logmath: logmath)
      models.append(model)
      names.append("vocabulary")
      weights.append(Float(weight))
      rest -= weight
    }
    guard rest > 0 else {
      throw AdaptationError("the stand-up and vocabulary weights must add up to less than 1")
    }
    weights.insert(Float(rest), at: 0)
    if let team = mix.team, team.weight > 0 {
      models.append(try team.read(config: config, logmath: logmath))
      names.append("team")
      weights = weights.map { $0 * Float(1 - team.weight) } + [Float(team.weight)]
    }
    // sphinxbase interpolates the submodels' scores after its language weight (-lw, 6.5) has
    // scaled them: sum of w * p^lw, so the model with the higher probability wins whatever its
    // weight. Weights raised to lw make each term (weight * p)^lw: the larger of the weighted
    // probabilities counts, as in a mixture. (Measured on read speech: with plain weights, a
    // stand-up model at 0.1 cost 6 points of word error rate.)
    let languageWeight = Float(cmd_ln_float_r(config, "-lw"))
    weights = weights.map { pow($0, languageWeight) }

    var cNames: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
    defer { for name in cNames { free(name) } }
    guard let set = ngram_model_set_init(config, &models, &cNames, weights, Int32(models.count))
    else {
      throw AdaptationError("the language models could not be combined (different log bases)")
    }
    defer { ngram_model_free(set) }
    guard ps_set_lm(decoder, searchName, set) == 0, ps_set_search(decoder, searchName) == 0 else {
      throw AdaptationError(
        "PocketSphinx could not start a search with the combined language model")
    }
    return names
  }

  /// 1. The dictionary: the stand-up model's extra words, then the vocabulary's and the team's,
  /// added before there is a search (so nothing is rebuilt per word, and nothing is added to a
  /// model: adding unigrams to a trie model corrupts memory in this sphinxbase). The combined
  /// model holds every one of them, so the search made after finds them in both.
  private static func addWords(
    _ mix: LanguageModelMix, to decoder: OpaquePointer, _ report: inout Report
  ) throws(AdaptationError) {
    var newWords: [(String, String)] = []
    var seen = Set<String>()
    if let standup = mix.standup, mix.standupWeight > 0, let path = standup.dictionary {
      for (word, phones) in try readDictionary(path) where !known(word, decoder) {
        if seen.insert(word).inserted { newWords.append((word, phones)) }
      }
    }
    let teamWords = mix.team.map { $0.words } ?? []
    for word in mix.vocabulary.words + teamWords where !known(word, decoder) && !seen.contains(word)
    {
      let phones = LetterToSound.phones(for: word).joined(separator: " ")
      if phones.isEmpty {
        report.unpronounceable.append(word)
      } else {
        seen.insert(word)
        newWords.append((word, phones))
      }
    }
    for (word, phones) in newWords {
      if ps_add_word(decoder, word, phones, 0) >= 0 {
        report.addedWords[word] = phones
      } else {
        report.unpronounceable.append(word)
      }
    }
  }

  static func known(_ word: String, _ decoder: OpaquePointer) -> Bool {
    guard let phones = ps_lookup_word(decoder, word) else { return false }
    free(phones)
    return true
  }

  /// `word PHONE PHONE...` lines.
  static func readDictionary(_ path: String) throws(AdaptationError) -> [(String, String)] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw AdaptationError("cannot read \(path); rebuild it with Models/standup/build")
    }
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count >= 2 else { return nil }
      return (String(fields[0]), fields.dropFirst().joined(separator: " "))
    }
  }

  /// Writes the vocabulary's ARPA model to a temporary file and reads it (sphinxbase reads models
  /// from files only).
  static func readVocabularyModel(
    _ vocabulary: Vocabulary, config: OpaquePointer?, logmath: OpaquePointer?
  ) throws(AdaptationError) -> OpaquePointer {
    let path = (NSTemporaryDirectory() as NSString)
      .appendingPathComponent("syncups-vocabulary-\(getpid())-\(UUID().uuidString).lm")
    defer { unlink(path) }
    do {
      try VocabularyLanguageModel.arpa(vocabulary)
        .write(toFile: path, atomically: false, encoding: .utf8)
    } catch {
      throw AdaptationError(
        "cannot write the vocabulary model in \(NSTemporaryDirectory()); check TMPDIR")
    }
    guard let model = ngram_model_read(config, path, NGRAM_ARPA, logmath) else {
      throw AdaptationError(
        "PocketSphinx rejected the vocabulary model (\(vocabulary.terms.count) terms)")
    }
    return model
  }
}
