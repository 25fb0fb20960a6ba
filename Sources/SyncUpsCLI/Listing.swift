import Foundation
import SyncUpsFeatures

/// What `list`, `show` and `meetings` print: aligned text for people, JSON for programs.
/// Text from the data is printed `visible` (control characters shown, never obeyed); JSON
/// keeps it exactly, escaped.
public enum Listing {
  // MARK: list

  public static func list(_ syncUps: IdentifiedArrayOf<SyncUp>) -> String {
    guard !syncUps.isEmpty else {
      return "No sync-ups yet: add one with 'syncups add --title TITLE --attendee NAME'.\n"
    }
    let rows = syncUps.map { syncUp in
      [
        syncUp.id.short, syncUp.title.visible, Format.duration(syncUp.duration),
        String(syncUp.attendees.count), String(syncUp.meetings.count), syncUp.theme.rawValue,
      ]
    }
    return table(header: ["ID", "TITLE", "DURATION", "ATTENDEES", "MEETINGS", "THEME"], rows: rows)
  }

  public static func listJSON(_ syncUps: IdentifiedArrayOf<SyncUp>) -> String {
    JSON.array(
      syncUps.map { syncUp in
        .object([
          ("id", .string(syncUp.id.full)),
          ("title", .string(syncUp.title)),
          ("theme", .string(syncUp.theme.rawValue)),
          ("duration", .number(syncUp.duration.seconds)),
          ("attendees", .array(syncUp.attendees.map { .string($0.name) })),
          ("meetings", .number(Double(syncUp.meetings.count))),
        ])
      }
    ).rendered + "\n"
  }

  // MARK: show

  /// `voices`: how much of each attendee's voice is known; said only once one is.
  /// The sync-up; with `learned`, what is known of each person and of the team's words (else
  /// each voice known, from `voices`).
  public static func show(
    _ syncUp: SyncUp, voices: [Attendee.ID: VoiceSummary] = [:], learned: Learned? = nil
  ) -> String {
    var lines = [
      "Title:        \(syncUp.title.visible)",
      "ID:           \(syncUp.id.full)",
      "Theme:        \(syncUp.theme.rawValue)",
      "Duration:     \(Format.duration(syncUp.duration))",
      "Per attendee: \(Format.duration(syncUp.durationPerAttendee))",
      "Attendees:    \(syncUp.attendees.map(\.name.visible).joined(separator: ", "))",
      "Vocabulary:   "
        + (syncUp.vocabulary.isEmpty
          ? "attendees' names only (add words with --add-word)"
          : syncUp.vocabulary.map(\.visible).joined(separator: ", ")),
    ]
    if let learned {
      lines += learnedLines(syncUp, learned)
    } else if !voices.isEmpty {
      for (index, attendee) in syncUp.attendees.enumerated() {
        let known = voices[attendee.id].map { voice in
          "known from \(voice.meetings) \(voice.meetings == 1 ? "meeting" : "meetings"), "
            + "\(Int(voice.seconds.rounded())) s of speech"
        }
        lines.append(
          (index == 0 ? "Voices:       " : "              ")
            + "\(attendee.name.visible): \(known ?? "not heard yet")")
      }
    }
    lines.append("Meetings:     \(syncUp.meetings.count)")
    for (index, meeting) in syncUp.meetingsNewestFirst.enumerated() {
      lines.append("  \(index + 1). \(Format.date(meeting.date))  \(meeting.id.short)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  public static func showJSON(_ syncUp: SyncUp) -> String {
    JSON.object([
      ("id", .string(syncUp.id.full)),
      ("title", .string(syncUp.title)),
      ("theme", .string(syncUp.theme.rawValue)),
      ("duration", .number(syncUp.duration.seconds)),
      ("durationPerAttendee", .number(syncUp.durationPerAttendee.seconds)),
      ("attendees", .array(syncUp.attendees.map { .string($0.name) })),
      ("vocabulary", .array(syncUp.vocabulary.map { .string($0) })),
      (
        "meetings",
        .array(
          syncUp.meetingsNewestFirst.map { meeting in
            .object([
              ("id", .string(meeting.id.full)), ("date", .string(Format.isoDate(meeting.date))),
            ])
          })
      ),
    ]).rendered + "\n"
  }

  // MARK: meetings

  /// `meetings` are the sync-up's, newest first, as `.meetingSummaries(id)` reads them (no
  /// transcript is loaded).
  public static func meetings(_ syncUp: SyncUp, _ meetings: [MeetingSummary]) -> String {
    guard !meetings.isEmpty else {
      return "'\(syncUp.title.visible)' has no meetings yet.\n"
    }
    let rows = meetings.enumerated().map { index, meeting in
      [
        String(index + 1), meeting.id.short, Format.date(meeting.date),
        Format.clock(meeting.length), String(meeting.segmentCount),
        meeting.firstWords.visible,
      ]
    }
    return table(header: ["N", "ID", "DATE", "LENGTH", "SEGMENTS", "FIRST WORDS"], rows: rows)
  }

  public static func meetingsJSON(_ meetings: [MeetingSummary]) -> String {
    JSON.array(
      meetings.enumerated().map { index, meeting in
        .object([
          ("index", .number(Double(index + 1))),
          ("id", .string(meeting.id.full)),
          ("date", .string(Format.isoDate(meeting.date))),
          ("length", .number(meeting.length)),
          ("segments", .number(Double(meeting.segmentCount))),
          ("firstWords", .string(meeting.firstWords)),
        ])
      }
    ).rendered + "\n"
  }

  /// Columns two spaces apart, the last one not padded.
  static func table(header: [String], rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }
      .joined(separator: "  ")
    }
    .joined(separator: "\n") + "\n"
  }
}

extension SyncUp {
  /// Meeting 1 is the newest (the order `meetings` and `transcript --meeting N` use).
  public var meetingsNewestFirst: [Meeting] {
    meetings.enumerated()
      .sorted {
        $0.element.date != $1.element.date
          ? $0.element.date > $1.element.date : $0.offset < $1.offset
      }
      .map(\.element)
  }
}

extension Meeting {
  /// How long the meeting ran (older files: until the last thing said).
  public var spokenLength: Double { runningLength }

  /// The first eight words of the transcript, for telling meetings apart.
  public var firstWords: String { transcript.firstWords }
}

extension MeetingSummary {
  /// The first eight words of the transcript, for telling meetings apart.
  public var firstWords: String { opening.firstWords }
}

extension String {
  /// The first eight words, and `…` when there are more. Only the start is split (a list of
  /// 250 meetings split every word of their openings: `make bench-store`).
  var firstWords: String {
    let words = split(maxSplits: 8, whereSeparator: \.isSpace)
    let shown = words.prefix(8).joined(separator: " ")
    let more = words.count > 8 && words[8].contains { !$0.isSpace }
    return more ? shown + " …" : shown
  }
}

extension Character {
  /// `isWhitespace`, answered without Unicode's tables for ASCII (transcripts are mostly that).
  fileprivate var isSpace: Bool {
    if let ascii = asciiValue { return ascii == 0x20 || (0x09...0x0D).contains(ascii) }
    return isWhitespace
  }
}
