import AudioCore
import Dependencies
import Foundation
import MeetingRecorder

/// The team's voices: each attendee's confirmed speech adapts the acoustic model to them (an
/// MLLR transform, `SpeakerAdapter`), estimated in the background after meetings are saved or
/// corrected, and used only when it lowers the errors of their held-out sentences
/// (cross-validated over their meetings, `VoiceAdaptation+Check.swift`); once who spoke is
/// known, the sentences of people with a transform in use are decoded again with it.
public enum VoiceAdaptation {
  /// Below this much confirmed speech a transform is not estimated (measured: from about 30 s
  /// of a voice the word error rate falls on other sentences; with less it may not).
  public static let minimumSeconds = 30.0
  /// A transform is estimated again once the confirmed speech has grown by this factor.
  public static let growth = 1.5
  /// The newest this much confirmed speech is used (more costs time and helps little).
  public static let maximumSeconds = 300.0

  /// Estimates the transform of every attendee whose confirmed speech is enough and has grown
  /// since the last one, and keeps it where it passes the check; one line per attendee for
  /// whoever listens.
  public static func estimatePending(in database: SyncUpsDatabase) async -> [String] {
    let speech: [ConfirmedSpeech]
    do {
      speech = try database.confirmedSpeech(limit: maximumSeconds)
    } catch {
      return ["cannot read the attendees' confirmed speech: \(error)"]
    }
    var lines: [String] = []
    var checks: [SyncUp.ID: Check] = [:]
    for person in speech where isDue(person) {
      let name = "attendee \(person.attendeeID.rawValue.lowercasedString.prefix(8))"
      do {
        guard let syncUp = try database.syncUp(person.syncUpID) else { continue }
        var check = checks[syncUp.id] ?? Check(vocabulary: syncUp.transcriptionVocabulary)
        defer { checks[syncUp.id] = check }
        guard let line = try await adapt(person, check: &check, in: database) else { continue }
        lines.append("\(name): \(line)")
      } catch {
        lines.append("\(name): the voice could not be adapted (\(error))")
      }
    }
    return lines
  }

  /// Checks trial transforms on the person's held-out meetings (`Check`); when they lower the
  /// errors, the transform estimated from all of the speech is kept, else a mark that it was
  /// tried (`SpeakerAdaptation.notKept`). One line; nil when the speech cannot be checked yet
  /// (one meeting only, or too little).
  static func adapt(
    _ person: ConfirmedSpeech, check: inout Check, in database: SyncUpsDatabase
  ) async throws -> String? {
    @Dependency(\.speakerAdapter) var adapter
    @Dependency(\.dataDirectory) var dataDirectory
    let recordings = person.recordings.map {
      (audioFile: dataDirectory.url.appendingPathComponent($0.audioFile), spans: $0.spans)
    }
    guard let errors = try await check.errors(of: recordings) else { return nil }
    guard errors.lowers else {
      try database.saveSpeakerAdaptations([
        person.attendeeID: .notKept(seconds: person.seconds)
      ])
      return "voice adaptation not kept: \(errors.said)"
    }
    guard let estimate = try await adapter.estimate(recordings) else { return nil }
    try database.saveSpeakerAdaptations([
      person.attendeeID: SpeakerAdaptation(seconds: person.seconds, transform: estimate.transform)
    ])
    return "voice adapted from \(Int(estimate.seconds)) s of speech (\(errors.said))"
  }

  static func isDue(_ person: ConfirmedSpeech) -> Bool {
    guard person.seconds >= minimumSeconds else { return false }
    guard let adapted = person.adaptedSeconds else { return true }
    return person.seconds >= adapted * growth
  }

  /// The segments of speakers with a transform, decoded again with it (a segment where the
  /// adapted decoder hears nothing, or that cannot be decoded again, keeps its words).
  public static func redecode(
    _ segments: [Meeting.Segment], audioFile: URL, attendees: [Attendee],
    adaptations: [Attendee.ID: SpeakerAdaptation], vocabulary: [String], teamModel: URL? = nil
  ) async -> [Meeting.Segment] {
    @Dependency(\.speakerAdapter) var adapter
    var result = segments
    for attendee in attendees {
      guard let adaptation = adaptations[attendee.id] else { continue }
      let indices = segments.indices.filter { segments[$0].speaker == attendee.name }
      guard !indices.isEmpty else { continue }
      let spans = indices.map { SpokenSpan(start: segments[$0].start, end: segments[$0].end) }
      guard
        let heard = try? await adapter.redecode(
          audioFile, spans, adaptation.transform, vocabulary, teamModel),
        heard.count == indices.count
      else { continue }
      for (index, utterance) in zip(indices, heard) {
        guard let utterance, !utterance.words.isEmpty else { continue }
        result[index].text = utterance.text
        result[index].words = utterance.words
      }
    }
    return result
  }
}
