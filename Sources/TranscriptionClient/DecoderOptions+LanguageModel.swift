import SpeechAdaptation
import SpeechVocabulary

extension DecoderOptions {
  /// Measured with `make bench` on the development set (see Models/README.md).
  public static let defaultStandupWeight = 0.2
  public static let defaultVocabularyWeight = 0.05

  /// What the decoder's language model is made of, from these options.
  public func languageModelMix() -> LanguageModelMix {
    LanguageModelMix(
      standup: standupWeight > 0 ? StandupModel.find(explicit: standupModelDirectory) : nil,
      standupWeight: standupWeight,
      vocabulary: Vocabulary(vocabulary),
      vocabularyWeight: vocabularyWeight
    )
  }
}
