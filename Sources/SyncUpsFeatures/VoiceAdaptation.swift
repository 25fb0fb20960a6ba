import AudioCore
import Dependencies
import Foundation
import MeetingRecorder

/// The team's voices: each attendee's confirmed speech adapts the acoustic model to them (an
/// MLLR transform, `SpeakerAdapter`), and all of them together to the team (its room, its
/// microphone, its voices on average), estimated in the background after meetings are saved or
/// corrected, and used only when it lowers the errors of held-out sentences (cross-validated
/// over meetings, `VoiceAdaptation+Check.swift`); once who spoke is known, each sentence is
/// decoded again with its speaker's transform, else the team's.
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
      speech =
        try database.confirmedSpeech(limit: maximumSeconds)
        + database.confirmedSpeech(limit: maximumSeconds, team: true)
    } catch {
      return ["cannot read the attendees' confirmed speech: \(error)"]
    }
    var lines: [String] = []
    var checks: [SyncUp.ID: Check] = [:]
    for person in speech where isDue(person) {
      let name =
        person.attendeeID.map { "attendee \($0.rawValue.lowercasedString.prefix(8))" }
        ?? "the team of sync-up \(person.syncUpID.rawValue.lowercasedString.prefix(8))"
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
      try save(.notKept(seconds: person.seconds), of: person, in: database)
      return "voice adaptation not kept: \(errors.said)"
    }
    guard let estimate = try await adapter.estimate(recordings) else { return nil }
    try save(
      SpeakerAdaptation(seconds: person.seconds, transform: estimate.transform), of: person,
      in: database)
    return "voice adapted from \(Int(estimate.seconds)) s of speech (\(errors.said))"
  }

  private static func save(
    _ adaptation: SpeakerAdaptation, of speech: ConfirmedSpeech, in database: SyncUpsDatabase
  ) throws {
    if let attendeeID = speech.attendeeID {
      try database.saveSpeakerAdaptations([attendeeID: adaptation])
    } else {
      try database.saveTeamAdaptation(speech.syncUpID, adaptation)
    }
  }

  static func isDue(_ speech: ConfirmedSpeech) -> Bool {
    guard speech.seconds >= minimumSeconds else { return false }
    guard let adapted = speech.adaptedSeconds else { return true }
    // A team's speech grows a meeting of short turns at a time: it is tried again after each
    // one until it holds the most that is used. (Measured on a team of seven, four meetings of
    // four turns in a noisy room: tried on all 58 s it was kept and cut the next two meetings'
    // errors from 87 to 81; by the persons' rule it was last tried earlier and not used.)
    if speech.attendeeID == nil, adapted < maximumSeconds { return speech.seconds > adapted }
    return speech.seconds >= adapted * growth
  }

  /// The segments of speakers with a transform, decoded again with it, and the others with
  /// the team's (`team`) when there is one (a segment where the adapted decoder hears nothing,
  /// or that cannot be decoded again, keeps its words).
  public static func redecode(
    _ segments: [Meeting.Segment], audioFile: URL, attendees: [Attendee],
    adaptations: [Attendee.ID: SpeakerAdaptation], team: SpeakerAdaptation? = nil,
    vocabulary: [String], teamModel: URL? = nil
  ) async -> [Meeting.Segment] {
    @Dependency(\.speakerAdapter) var adapter
    var result = segments
    var groups = attendees.compactMap { attendee in
      adaptations[attendee.id].map { adaptation in
        (adaptation, segments.indices.filter { segments[$0].speaker == attendee.name })
      }
    }
    if let team, team.isUsed {
      let adapted = Set(attendees.filter { adaptations[$0.id] != nil }.map(\.name))
      groups.append((team, segments.indices.filter { !adapted.contains(segments[$0].speaker) }))
    }
    for (adaptation, indices) in groups where !indices.isEmpty {
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
