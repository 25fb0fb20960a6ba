import AudioCore
import Dependencies
import Foundation
import IssueReporting

/// Acoustic adaptation per speaker: a transform estimated from a person's confirmed speech in
/// kept meetings, and their sentences decoded again with it. The live value (module
/// `MeetingRecorderLive`) runs SphinxTrain and PocketSphinx on threads of their own.
public struct SpeakerAdapter: Sendable {
  /// A transform and the seconds of speech it was estimated from.
  public struct Estimate: Equatable, Sendable {
    public var transform: Data
    public var seconds: Double

    public init(transform: Data, seconds: Double) {
      self.transform = transform
      self.seconds = seconds
    }
  }

  /// The transform of the speaker of the spans (their times and words) of each audio file; nil
  /// when none of them could be used.
  public var estimate:
    @Sendable (_ recordings: [(audioFile: URL, spans: [SpokenSpan])]) async throws -> Estimate? =
      unimplemented("SpeakerAdapter.estimate")
  /// Each span of `audioFile` decoded again with `transform` (nil: with none, as the second pass
  /// does), in seconds from the file's start (nil: nothing heard there); `vocabulary` and
  /// `teamModel` (the sync-up's words) as for the second pass.
  public var redecode:
    @Sendable (
      _ audioFile: URL, _ spans: [SpokenSpan], _ transform: Data?, _ vocabulary: [String],
      _ teamModel: URL?
    ) async throws -> [Utterance?] = unimplemented("SpeakerAdapter.redecode")

  public init(
    estimate:
      @escaping @Sendable ([(audioFile: URL, spans: [SpokenSpan])]) async throws -> Estimate?,
    redecode:
      @escaping @Sendable (URL, [SpokenSpan], Data?, [String], URL?) async throws -> [Utterance?]
  ) {
    self.estimate = estimate
    self.redecode = redecode
  }

  /// Every endpoint unimplemented. The test value.
  public init() {}
}

extension SpeakerAdapter: TestDependencyKey {
  public static let testValue = SpeakerAdapter()
}

extension DependencyValues {
  public var speakerAdapter: SpeakerAdapter {
    get { self[SpeakerAdapter.self] }
    set { self[SpeakerAdapter.self] = newValue }
  }
}
