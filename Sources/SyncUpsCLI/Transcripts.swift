import AudioCore
import Foundation
import SyncUpsFeatures

/// How `syncups transcript` writes a saved meeting (BatchTranscriber's `TranscriptFormat` is for
/// audio files).
public enum MeetingTranscriptFormat: String, CaseIterable, Sendable {
  case txt, md, json, srt, vtt

  public static func named(_ text: String) throws(CLIError) -> MeetingTranscriptFormat {
    guard let format = MeetingTranscriptFormat(rawValue: text.lowercased()) else {
      throw CLIError(
        "unknown format '\(text)'; choose one of: "
          + allCases.map(\.rawValue).joined(separator: ", ")
      )
    }
    return format
  }

  /// The whole output. Every segment is labelled with its speaker; srt and vtt have one cue per
  /// segment with the speaker's name at the start of the cue text.
  ///
  /// `numbered`: each txt line starts with its segment's number (what `syncups correct`
  /// takes); `original`: the segments as recognised, without their corrections.
  public func render(
    _ meeting: Meeting, of syncUp: SyncUp, numbered: Bool = false, original: Bool = false
  ) -> String {
    var meeting = meeting
    if original {
      meeting.segments = meeting.segments.map(\.recognised)
      meeting.transcript = meeting.segments.map(\.text).joined(separator: " ")
    }
    switch self {
    case .txt:
      if meeting.segments.isEmpty {
        return meeting.transcript.isEmpty ? "" : meeting.transcript.oneLine + "\n"
      }
      let width = String(meeting.segments.count).count
      return meeting.segments.enumerated().map { index, segment in
        let number = String(index + 1)
        let prefix =
          numbered ? String(repeating: " ", count: width - number.count) + number + " " : ""
        return "\(prefix)[\(times(segment))] \(segment.label): \(segment.oneLine)\n"
      }.joined()

    case .md:
      var out = "# \(syncUp.title.visible): \(Format.date(meeting.date))\n\n"
      if meeting.segments.isEmpty, !meeting.transcript.isEmpty {
        out += meeting.transcript.oneLine + "\n"
      }
      for segment in meeting.segments {
        out += "**\(segment.label)** (\(times(segment))): \(segment.oneLine)\n\n"
      }
      return out.hasSuffix("\n\n") ? String(out.dropLast()) : out

    case .json:
      return JSON.object([
        ("syncUp", .string(syncUp.title)),
        ("meeting", .string(meeting.id.full)),
        ("date", .string(Format.isoDate(meeting.date))),
        ("text", .string(meeting.transcript)),
        (
          "segments",
          .array(
            meeting.segments.map { segment in
              .object([
                ("speaker", .string(segment.speaker)),
                ("start", .number(segment.start)),
                ("end", .number(segment.end)),
                ("text", .string(segment.text)),
              ])
            })
        ),
      ]).rendered + "\n"

    case .srt, .vtt:
      let cues = meeting.segments.map { segment in
        TranscriptText.Cue(
          start: segment.start, end: segment.end, text: "\(segment.label): \(segment.oneLine)")
      }
      return TranscriptText.subtitles(cues, format: self == .srt ? .srt : .vtt)
    }
  }

  /// `mm:ss - mm:ss`: where a segment starts and ends.
  private func times(_ segment: Meeting.Segment) -> String {
    "\(Format.clock(segment.start)) - \(Format.clock(segment.end))"
  }
}

extension Meeting.Segment {
  /// The segment as `syncups transcript --numbers` prints it: number, times, speaker, text.
  public func line(number: Int) -> String {
    "\(number) [\(Format.clock(start)) - \(Format.clock(end))] \(label): \(oneLine)"
  }

  /// The speaker (`visible`), or "Unknown" when the segment was not attributed.
  var label: String {
    let name = speaker.trimmingCharacters(in: .whitespaces)
    return name.isEmpty ? "Unknown" : name.visible
  }

  /// The text on one line, `visible` (a cue or a transcript line never breaks inside a segment).
  var oneLine: String { text.oneLine }
}

extension String {
  /// This text on one line (line breaks as spaces), its other control characters `visible`.
  var oneLine: String {
    split(whereSeparator: \.isNewline).joined(separator: " ").visible
  }
}

extension SyncUp {
  /// A meeting by number (1 = newest) or by id prefix; nil: the newest.
  public func meeting(_ reference: String?) throws(CLIError) -> Meeting {
    let ordered = meetingsNewestFirst
    guard !ordered.isEmpty else {
      throw CLIError("\(label) has no meetings yet: record one with 'syncups record \(id.short)'")
    }
    guard let reference = reference?.trimmingCharacters(in: .whitespaces) else { return ordered[0] }
    // A number within the list is a position; anything else is the start of an id.
    if let number = Int(reference), (1...ordered.count).contains(number) {
      return ordered[number - 1]
    }
    let lowered = reference.lowercased()
    let matches = lowered.isEmpty ? [] : ordered.filter { $0.id.full.hasPrefix(lowered) }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 {
      throw CLIError(
        "meeting '\(reference)' matches \(matches.count) meetings of \(label); use more of the id"
      )
    }
    throw CLIError(
      "\(label) has no meeting '\(reference)': give a number from 1 (newest) to \(ordered.count) "
        + "or the start of a meeting id ('syncups meetings \(id.short)' lists them)"
    )
  }
}
