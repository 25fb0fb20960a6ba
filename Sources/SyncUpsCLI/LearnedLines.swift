import Foundation
import SyncUpsFeatures

/// What `show` says of what is known of people and of the team's words.
extension Listing {
  /// One line per attendee (their voice, their adaptation, when they were forgotten), then the
  /// team's adaptation and its words.
  static func learnedLines(_ syncUp: SyncUp, _ learned: Learned) -> [String] {
    var lines: [String] = []
    for (index, attendee) in syncUp.attendees.enumerated() {
      let person = learned.people[attendee.id] ?? PersonLearned()
      var parts = [
        person.voice.map { voice in
          "voice from \(Format.count(voice.meetings, "meeting")), \(seconds(voice.seconds)) of speech"
        } ?? "voice not heard yet"
      ]
      if let adapted = person.adaptationSeconds {
        parts.append(
          person.adaptationUsed
            ? "recogniser adapted on \(seconds(adapted))"
            : "recogniser adaptation on \(seconds(adapted)) not used (no fewer errors)")
      }
      if let forgotten = person.forgotten { parts.append("forgotten \(Format.date(forgotten))") }
      lines.append(
        (index == 0 ? "People:       " : "              ")
          + "\(attendee.name.visible): \(parts.joined(separator: "; "))")
    }
    if let team = learned.team {
      lines.append(
        "Team's room:  "
          + (team.isUsed
            ? "recogniser adapted on \(seconds(team.seconds)) of everyone's speech"
            : "recogniser adaptation on \(seconds(team.seconds)) not used (no fewer errors)"))
    }
    let words = learned.words
    let heard = words.corrected + words.uncorrected
    var line =
      heard == 0
      ? "Team's words: nothing learned yet"
      : "Team's words: learned from \(Format.count(heard, "word")) (\(words.corrected) corrected), "
        + "\(Format.count(words.vocabulary, "distinct word"))"
    if let forgotten = words.forgotten { line += "; forgotten \(Format.date(forgotten))" }
    return lines + [line]
  }

  private static func seconds(_ value: Double) -> String { "\(Int(value.rounded())) s" }
}
