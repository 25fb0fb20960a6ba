import AudioCore
import CPocketSphinx
import Foundation

/// The team model's share of the decoder's language model, set by held-out text: a model of a
/// sync-up's transcripts without its newest corrected meeting is weighed against the general
/// model on that meeting's corrected sentences, and the share that makes those sentences most
/// likely (lowest perplexity) is the share the full model gets. A team that repeats itself gets
/// a large share; one whose meetings share few words, a small one.
public enum TeamWordsWeight {
  /// The shares it may choose from.
  public static let range = 0.02...0.8

  /// Each held-out word's probability under the team model and under the general model.
  public struct Word: Equatable, Sendable {
    public var team: Double
    public var general: Double
    public init(team: Double, general: Double) {
      self.team = team
      self.general = general
    }
  }

  /// The share λ (within `range`) that makes `words` most likely under λ·team + (1 − λ)·general:
  /// expectation-maximisation of a two-part mixture, which climbs to the best share from any
  /// start. Nil with no words.
  public static func best(_ words: [Word]) -> Double? {
    guard !words.isEmpty else { return nil }
    var share = 0.5
    for _ in 0..<200 {
      let expected = words.reduce(0.0) { sum, word in
        let team = share * word.team
        let total = team + (1 - share) * word.general
        return sum + (total > 0 ? team / total : 0)
      }
      share = expected / Double(words.count)
    }
    return min(max(share, range.lowerBound), range.upperBound)
  }

  /// The words of `sentences` (and each one's end), each with its probability after the words
  /// before it under the ARPA model at `teamModel` and the model at `generalModel`; a word
  /// neither model knows is left out (it says nothing of their shares).
  public static func words(
    of sentences: [String], teamModel: String, generalModel: String
  ) throws(AdaptationError) -> [Word] {
    SphinxLog.set(verbose: false)
    guard let logmath = logmath_init(1.0001, 0, 0) else {
      throw AdaptationError("cannot start PocketSphinx's arithmetic")
    }
    defer { logmath_free(logmath) }
    guard let general = ngram_model_read(nil, generalModel, NGRAM_AUTO, logmath) else {
      throw AdaptationError(
        "cannot load the general language model \(generalModel); reinstall pocketsphinx-en-us")
    }
    defer { ngram_model_free(general) }
    guard let team = ngram_model_read(nil, teamModel, NGRAM_ARPA, logmath) else {
      throw AdaptationError("cannot load the team's words model \(teamModel)")
    }
    defer { ngram_model_free(team) }
    var found: [Word] = []
    for sentence in sentences {
      let tokens = SpokenSpan.words(of: sentence)
      guard !tokens.isEmpty else { continue }
      let sequence = ["<s>"] + tokens + ["</s>"]
      for index in 1..<sequence.count {
        let history = Array(sequence[max(0, index - 2)..<index].reversed())
        let inTeam = probability(sequence[index], after: history, team, logmath)
        let inGeneral = probability(sequence[index], after: history, general, logmath)
        guard inTeam > 0 || inGeneral > 0 else { continue }
        found.append(Word(team: inTeam, general: inGeneral))
      }
    }
    return found
  }

  /// P(word | history, most recent first) in `model`; 0 for a word it does not know.
  static func probability(
    _ word: String, after history: [String], _ model: OpaquePointer, _ logmath: OpaquePointer
  ) -> Double {
    let id = ngram_wid(model, word)
    guard id != ngram_unknown_wid(model), id >= 0 else { return 0 }
    // The history up to the first word the model does not know (it backs off there).
    var ids = Array(
      history.map { ngram_wid(model, $0) }.prefix { $0 >= 0 && $0 != ngram_unknown_wid(model) })
    var used: Int32 = 0
    let score = ngram_ng_prob(model, id, &ids, Int32(ids.count), &used)
    return logmath_exp(logmath, score)
  }
}
