import AudioCore
import Foundation
import Hummingbird
import NIOCore
import StandupDigest
import SyncUpsWire

/// A meeting: its stand-up digest first (`DigestSection`), the audio player, downloads, and the
/// transcript by speaker with times, every
/// word an element with `data-start` and `data-end` (seconds) for the script that lights up
/// the word being said. `?t=SECONDS` starts the audio there (a media fragment, so it works
/// without JavaScript) and marks the segment being said then.
public enum MeetingPage {
  public static func render(
    _ meeting: MeetingDocument, title: String, theme: String, person: Person, at time: Double?,
    attendees: [String] = []
  ) -> String {
    let here = time.flatMap { time in meeting.segments.lastIndex { $0.start <= time + 0.005 } }
    let digest = DigestSection.render(
      Digest(meeting.segments, attendees: attendees), spoke: !meeting.segments.isEmpty)
    return render(
      meeting, digest: digest, transcript: transcript(meeting.segments, here: here), title: title,
      theme: theme, person: person, at: time)
  }

  /// The page of `meeting` (its segments not read) with its `digest` first, around its
  /// `transcript`; `speakers`, for someone who may correct it, the sync-up's attendees (the
  /// correcting form's choices).
  static func render(
    _ meeting: MeetingDocument, digest: Markup, transcript: Markup, title: String, theme: String,
    person: Person, at time: Double?, speakers: [String]? = nil
  ) -> String {
    let id = meeting.id.uuidString.lowercased()
    var content: Markup =
      "<nav class=\"crumbs\" aria-label=\"Breadcrumb\"><a href=\"/\">Sync-ups</a>"
    content += " › <a href=\"/sync-ups/\(meeting.syncUpID.uuidString.lowercased())\">\(title)"
    content += "</a></nav>\n<h1 class=\"titled\">\(title)</h1>\n"
    content += "<p class=\"meta\">\(time: meeting.date) · \(length: meeting.length)</p>\n"
    content += digest
    if meeting.audio != nil {
      let fragment: Markup = time.map { "#t=\(seconds: $0)" } ?? ""
      content += "<div class=\"player\"><audio id=\"player\" controls preload=\"metadata\" "
      content += "src=\"/audio/\(id)\(fragment)\" aria-label=\"Meeting audio\">"
      content += "<track kind=\"captions\" src=\"/meetings/\(id)/transcript.vtt\" srclang=\"en\" "
      content += "label=\"Transcript\" default>"
      content += "<a href=\"/audio/\(id)\">Download the audio</a></audio></div>\n"
    }
    content += downloads(meeting, title: title)
    content += "<p class=\"hint js-only\" id=\"keys\" hidden>Click a word to play from there; "
    content += "<kbd>Space</kbd> plays and pauses.</p>\n"
    if let speakers { content += correcting(meeting, speakers: speakers) }
    content.reserveCapacity(content.bytes.count + transcript.bytes.count)
    content += transcript
    return Pages.page(
      title: title, person: person, theme: theme, script: true, content: content)
  }

  /// The transcript part of the page (the same for everyone who reads it: `MeetingPageCache`
  /// keeps it), `here` the segment being said at the time asked for.
  static func transcript(_ segments: [MeetingDocument.Segment], here: Int?) -> Markup {
    var content: Markup = ""
    if segments.isEmpty {
      content += "<p class=\"hint\">Nothing was said in this meeting.</p>\n"
    }
    content += "<ol class=\"transcript\" aria-label=\"Transcript\">\n"
    // About 60 bytes per word: reserve once, so a long meeting is written without copying.
    content.reserveCapacity(
      content.bytes.count + segments.reduce(0) { $0 + 200 + $1.words.count * 64 })
    for (index, segment) in segments.enumerated() {
      self.segment(segment, index: index, here: index == here, to: &content)
    }
    content += "</ol>\n"
    return content
  }

  /// One segment: who, when (a link to that moment), and every word with its times.
  static func segment(
    _ segment: MeetingDocument.Segment, index: Int, here: Bool, to content: inout Markup
  ) {
    content += here ? "<li class=\"segment here\" " : "<li class=\"segment\" "
    content += "id=\"s\(index)\"><p class=\"who\"><strong>\(label(segment))</strong> "
    content += "<a class=\"at\" href=\"?t=\(seconds: segment.start)#s\(index)\" "
    content += "data-start=\"\(seconds: segment.start)\""
    content += here ? " id=\"here\">" : ">"
    content += "\(clock: segment.start)</a>"
    if let original = segment.original {
      let said = (original.speaker.isEmpty ? "Unknown" : original.speaker) + ": " + original.text
      content += " <span class=\"corrected\" title=\"Recognised as: \(said)\">corrected</span>"
    }
    content += "</p>\n<p class=\"said\">"
    if segment.words.isEmpty {
      content.text(segment.text)
    } else {
      // The words are most of a page: written piece by piece, with no value made for each.
      for (position, word) in segment.words.enumerated() {
        if position > 0 { content.append(" ") }
        content.append("<span data-start=\"")
        content.seconds(word.start)
        content.append("\" data-end=\"")
        content.seconds(word.end)
        content.append("\">")
        content.text(word.text)
        content.append("</span>")
      }
    }
    content += "</p>"
    if let original = segment.original {
      let who = original.speaker.isEmpty ? "Unknown" : original.speaker
      content += "<p class=\"recognised\">Recognised as <strong>\(who)</strong>: "
      content += "<span class=\"recognised-text\">\(original.text)</span></p>"
    }
    content += "</li>\n"
  }

  /// For a writer: the keys that correct a segment, and the form the script shows in place of
  /// the segment being corrected (never in the transcript, which is the same for everyone).
  static func correcting(_ meeting: MeetingDocument, speakers: [String]) -> Markup {
    let id = meeting.id.uuidString.lowercased()
    var out: Markup = "<p class=\"hint js-only\" id=\"correct-keys\" hidden><kbd>E</kbd> "
    out += "corrects the segment in focus (<kbd>Tab</kbd> to its time): <kbd>Enter</kbd> saves, "
    out += "<kbd>Esc</kbd> cancels; the audio keeps playing.</p>\n"
    out += "<template id=\"correcting\" data-meeting=\"\(id)\"><form class=\"correcting\">"
    out += "<label>Speaker <select name=\"speaker\">"
    for name in speakers { out += "<option value=\"\(name)\">\(name)</option>" }
    out += "</select></label> <label>Text <input name=\"text\" type=\"text\" size=\"60\" "
    out += "maxlength=\"\(SegmentCorrection.longestText)\" required></label> "
    out += "<button type=\"submit\">Save</button> <button type=\"button\" class=\"cancel\">"
    out += "Cancel</button> <span class=\"problem\" role=\"alert\"></span></form></template>\n"
    return out
  }

  static func downloads(_ meeting: MeetingDocument, title: String) -> Markup {
    let id = meeting.id.uuidString.lowercased()
    var out: Markup = "<nav class=\"downloads\" aria-label=\"Downloads\"><span>Download:</span> "
    for (format, name) in [("txt", "Text"), ("srt", "SRT"), ("vtt", "WebVTT"), ("json", "JSON")] {
      out += "<a href=\"/meetings/\(id)/transcript.\(format)\">\(name)</a> "
    }
    if let audio = meeting.audio {
      let file = fileName(title: title, date: meeting.date, type: audio.type)
      out += "<a href=\"/audio/\(id)\" download=\"\(file)\">Audio</a>"
    }
    out += "</nav>\n"
    return out
  }

  /// `morning-sync-2026-11-21.flac`: letters, digits and dashes only.
  static func fileName(title: String, date: Date, type: String) -> String {
    let slug = title.lowercased().unicodeScalars.map {
      ($0.isASCII && CharacterSet.alphanumerics.contains($0)) ? String($0) : "-"
    }.joined().split(separator: "-").joined(separator: "-")
    let day = HTML.day(date)
    let ext =
      ["audio/flac": "flac", "audio/wav": "wav", "audio/x-wav": "wav", "audio/ogg": "ogg"][type]
      ?? "audio"
    return (slug.isEmpty ? "meeting" : slug) + "-" + day + "." + ext
  }

  /// The transcript as `syncups transcript --format` writes it: txt, srt, vtt or json.
  static func transcript(_ meeting: MeetingDocument, title: String, format: String) -> String? {
    let cues = meeting.segments.map {
      TranscriptText.Cue(start: $0.start, end: $0.end, text: "\(label($0)): \($0.text)")
    }
    switch format {
    case "txt":
      return meeting.segments.map {
        "[\(HTML.clock($0.start)) - \(HTML.clock($0.end))] \(label($0)): "
          + $0.text.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n"
      }.joined()
    case "srt": return TranscriptText.subtitles(cues, format: .srt)
    case "vtt": return TranscriptText.subtitles(cues, format: .vtt)
    case "json":
      struct Segment: Encodable {
        var speaker: String
        var start, end: Double
        var text: String
      }
      struct Transcript: Encodable {
        var syncUp, meeting: String
        var date: Date
        var text: String
        var segments: [Segment]
      }
      let document = Transcript(
        syncUp: title, meeting: meeting.id.uuidString.lowercased(), date: meeting.date,
        text: meeting.segments.map(\.text).joined(separator: " "),
        segments: meeting.segments.map {
          Segment(speaker: $0.speaker, start: $0.start, end: $0.end, text: $0.text)
        })
      return (try? WireJSON.encoder().encode(document)).map {
        String(decoding: $0, as: UTF8.self) + "\n"
      }
    default: return nil
    }
  }

  static func label(_ segment: MeetingDocument.Segment) -> String {
    segment.speaker.isEmpty ? "Unknown" : segment.speaker
  }
}

extension TeamServer {
  /// The meeting, its sync-up's title and theme, or a 404 in words (also when it is another
  /// team's).
  func meetingAndHeading(_ request: Request, context: TeamContext) async throws -> (
    MeetingDocument, title: String, theme: String
  ) {
    var (meeting, _, title, theme) = try await meetingHeading(request, context: context)
    meeting.segments = try await store.segments(of: meeting.id)
    return (meeting, title, theme)
  }

  /// The meeting without its segments, the version of its last write, its sync-up's title and
  /// theme, or a 404 in words.
  func meetingHeading(_ request: Request, context: TeamContext) async throws -> (
    MeetingDocument, version: Int64, title: String, theme: String
  ) {
    let id = try request.uuid("id", in: context)
    guard try await store.sees(meeting: id, in: context.teamIDs),
      let (meeting, version) = try await store.meetingRow(id), !meeting.deleted,
      let heading = try await store.syncUpHeading(meeting.syncUpID, in: context.teamIDs)
    else {
      throw APIError(.notFound, "there is no meeting \(id) here")
    }
    return (meeting, version, heading.title, heading.theme)
  }

  func transcriptDownload(_ request: Request, context: TeamContext) async throws -> Response {
    let file = context.parameters.get("file") ?? ""
    let format = file.hasPrefix("transcript.") ? String(file.dropFirst("transcript.".count)) : ""
    guard ["txt", "srt", "vtt", "json"].contains(format) else {
      throw APIError(.notFound, "a transcript downloads as transcript.txt, .srt, .vtt or .json")
    }
    let (meeting, title, _) = try await meetingAndHeading(request, context: context)
    let text = MeetingPage.transcript(meeting, title: title, format: format) ?? ""
    let types = [
      "txt": "text/plain", "srt": "application/x-subrip", "vtt": "text/vtt",
      "json": "application/json",
    ]
    let name = MeetingPage.fileName(title: title, date: meeting.date, type: "")
      .replacingOccurrences(of: ".audio", with: "." + format)
    return Response(
      status: .ok,
      headers: [
        .contentType: (types[format] ?? "text/plain") + "; charset=utf-8",
        .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "no-store",
        .xContentTypeOptions: "nosniff",
      ], body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
