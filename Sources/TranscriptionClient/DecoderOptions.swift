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

  public init(
    modelDirectory: String? = nil,
    verbose: Bool = false,
    partials: Bool = true,
    endSilenceFrames: Int = 25,
    maxActiveHMMs: Int = 4_000,
    extraArguments: [String] = []
  ) {
    self.modelDirectory = modelDirectory
    self.verbose = verbose
    self.partials = partials
    self.endSilenceFrames = endSilenceFrames
    self.maxActiveHMMs = maxActiveHMMs
    self.extraArguments = extraArguments
  }
}
