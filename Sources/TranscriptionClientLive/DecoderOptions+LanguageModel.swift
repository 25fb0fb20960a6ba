import SpeechAdaptation
import SpeechVocabulary
import TranscriptionClient

extension DecoderOptions {
  /// What the decoder's language model is made of, from these options.
  public func languageModelMix() -> LanguageModelMix {
    LanguageModelMix(
      standup: standupWeight > 0 ? StandupModel.find(explicit: standupModelDirectory) : nil,
      standupWeight: standupWeight,
      vocabulary: Vocabulary(vocabulary),
      vocabularyWeight: vocabularyWeight,
      team: teamModel.flatMap { TeamWords.load(path: $0) }
    )
  }
}
