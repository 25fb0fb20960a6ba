import Dependencies
import Foundation
import SpeechAdaptation
import SyncUpsFeatures
import TranscriptionClient
import WorkerThreads

/// Keeps each sync-up's own language model (`TeamWords`) in step with its transcripts: derived
/// data, rebuilt from the store after a correction, a sync or a recording whenever what it would
/// learn from changed (a signature of the text, kept in the model's header), never edited by hand.
/// A rebuild writes a new file and renames it over the old one: a crash leaves the old one, and a
/// recording that starts meanwhile uses the old one (it never waits).
public enum TeamWordsBuild {
  /// A corrected segment counts this much more than one nobody checked.
  public static let uncorrectedWeight = 0.3

  public struct Outcome: Equatable, Sendable {
    /// False when the model was already up to date.
    public var rebuilt: Bool
    public var words: Double
    public var seconds: Double
  }

  /// Rebuilds the sync-up's model if its text changed (off the cooperative pool); nil when it
  /// has nothing to learn from (an old model is then removed).
  @discardableResult
  public static func refresh(_ syncUpID: SyncUp.ID, database: SyncUpsDatabase) async throws
    -> Outcome?
  {
    @Dependency(\.dataDirectory) var dataDirectory
    let path = dataDirectory.url.appendingPathComponent(DataDirectory.teamWordsFile(of: syncUpID))
      .path
    return try await WorkerThread.run(name: "syncups.team-words") {
      try build(syncUpID, database: database, path: path)
    }
  }

  /// After a sync: refreshes the models of the sync-ups its pull changed (a deleted one's goes),
  /// and removes any model left of a sync-up that is gone (one whose removal failed before).
  /// Reads only the changed sync-ups' text: a sync costs what it brought, not the history.
  public static func refresh(changed: Set<SyncUp.ID>, database: SyncUpsDatabase) async throws {
    for id in changed.sorted(by: { $0.rawValue.uuidString < $1.rawValue.uuidString }) {
      try await refresh(id, database: database)
    }
    let ids = try database.syncUpIDs()
    @Dependency(\.dataDirectory) var dataDirectory
    let kept = Set(ids.map { DataDirectory.teamWordsFile(of: $0) })
    let folder = dataDirectory.url.appendingPathComponent("words")
    try await WorkerThread.run(name: "syncups.team-words") {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names where name.hasSuffix(".lm") && !kept.contains("words/" + name) {
        unlink(folder.appendingPathComponent(name).path)
      }
    }
  }

  static func build(_ syncUpID: SyncUp.ID, database: SyncUpsDatabase, path: String) throws
    -> Outcome?
  {
    let start = ContinuousClock.now
    let texts = try database.textToLearn(syncUpID)
    guard !texts.isEmpty else {
      unlink(path)
      return nil
    }
    let signature = Self.signature(texts)
    if TeamWords.signature(at: path) == signature {
      return Outcome(rebuilt: false, words: 0, seconds: 0)
    }
    let model = TeamLanguageModel(sentences(texts))
    try TeamWords.write(model, signature: signature, weight: heldOutWeight(texts), to: path)
    return Outcome(
      rebuilt: true, words: model.wordCount, seconds: (ContinuousClock.now - start).seconds)
  }

  static func sentences(_ texts: [LearnedText]) -> [TeamLanguageModel.Sentence] {
    texts.map { .init(text: $0.text, weight: $0.corrected ? 1 : uncorrectedWeight) }
  }

  /// The model's share, chosen on the newest meeting with corrections: its corrected sentences
  /// held out, a model of the other meetings weighed against the general model on them
  /// (`TeamWordsWeight`). Nil (the share then grows with the text) when there is no such
  /// meeting, nothing else to learn from, or the models cannot be read.
  static func heldOutWeight(_ texts: [LearnedText]) -> Double? {
    guard let newest = texts.last(where: \.corrected)?.meetingID else { return nil }
    let heldOut = texts.filter { $0.meetingID == newest && $0.corrected }.map(\.text)
    let rest = texts.filter { $0.meetingID != newest }
    guard !rest.isEmpty, let general = try? SpeechModel.resolve().languageModel else {
      return nil
    }
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
      "syncups-held-out-\(getpid())-\(UUID().uuidString).lm")
    defer { unlink(path) }
    guard (try? TeamWords.write(TeamLanguageModel(sentences(rest)), signature: "", to: path)) != nil
    else { return nil }
    let words = try? TeamWordsWeight.words(of: heldOut, teamModel: path, generalModel: general)
    return words.flatMap(TeamWordsWeight.best)
  }

  /// FNV-1a of the texts and their corrected marks, in hex.
  static func signature(_ texts: [LearnedText]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for text in texts {
      for byte in text.text.utf8 + [text.corrected ? 1 : 0, 0xFF] {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    return String(hash, radix: 16)
  }
}

extension TeamLearning: DependencyKey {
  /// The build above, on the `syncUpsDatabase` dependency's database (the one a command or the
  /// app opened).
  public static var liveValue: TeamLearning {
    TeamLearning(
      learnWords: { id in
        @Dependency(\.syncUpsDatabase) var database
        try await TeamWordsBuild.refresh(id, database: database)
      },
      learnWordsOf: { changed in
        @Dependency(\.syncUpsDatabase) var database
        try await TeamWordsBuild.refresh(changed: changed, database: database)
      }
    )
  }
}
