/// How a decoder is set up. The defaults are what SyncUps uses everywhere.
public struct DecoderOptions: Sendable, Equatable {
  /// A model folder given explicitly (`--model-dir`); nil resolves as `SpeechModel.resolve` says.
  public var modelDirectory: String?
  /// Let the decoder log to stderr.
  public var verbose: Bool
  /// Emit `.partial` hypotheses while someone speaks.
  public var partials: Bool
  /// Silence (in 10 ms frames) that ends an utterance. PocketSphinx's default is 50 (0.5 s);
  /// 25 gives finals sooner and, on the bench corpus, no more word errors than whole-file decoding.
  public var endSilenceFrames: Int
  /// Most HMMs kept active per frame (`-maxhmmpf`; PocketSphinx's default 30000). 4000 decodes
  /// about 40% faster with the same word error rate on the bench corpus (2000 was worse).
  public var maxActiveHMMs: Int
  /// Extra PocketSphinx arguments, e.g. ["-fwdflat", "no"], applied last.
  public var extraArguments: [String]
  /// Words and phrases to expect: a sync-up's attendees' names and its words (see `Vocabulary`).
  public var vocabulary: [String]
  /// The stand-up language model's share of the interpolated model (0: general model only).
  public var standupWeight: Double
  /// The vocabulary model's share of the interpolated model.
  public var vocabularyWeight: Double
  /// The folder of `standup.lm.bin`; nil finds it as `StandupModel.find` says.
  public var standupModelDirectory: String?
  /// The sync-up's own language model (`TeamWords`, from its transcripts); nil or a missing
  /// file: none.
  public var teamModel: String?
  /// The channel transform for narrowband speech (`-mllr` format), used by the second pass on
  /// each sentence heard without its band above 4 kHz. Nil finds it as `NarrowbandModel.find`
  /// says; empty or `none`: never used.
  public var narrowbandTransform: String?

  public init(
    modelDirectory: String? = nil,
    verbose: Bool = false,
    partials: Bool = true,
    endSilenceFrames: Int = 25,
    maxActiveHMMs: Int = 4_000,
    extraArguments: [String] = [],
    vocabulary: [String] = [],
    standupWeight: Double = DecoderOptions.defaultStandupWeight,
    vocabularyWeight: Double = DecoderOptions.defaultVocabularyWeight,
    standupModelDirectory: String? = nil,
    teamModel: String? = nil,
    narrowbandTransform: String? = nil
  ) {
    self.modelDirectory = modelDirectory
    self.verbose = verbose
    self.partials = partials
    self.endSilenceFrames = endSilenceFrames
    self.maxActiveHMMs = maxActiveHMMs
    self.extraArguments = extraArguments
    self.vocabulary = vocabulary
    self.standupWeight = standupWeight
    self.vocabularyWeight = vocabularyWeight
    self.standupModelDirectory = standupModelDirectory
    self.teamModel = teamModel
    self.narrowbandTransform = narrowbandTransform
  }
}
