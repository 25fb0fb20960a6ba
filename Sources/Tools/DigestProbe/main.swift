import Foundation
import StandupDigest

// `digest-probe`: the digest of meetings given as JSON on stdin, for `make bench-digest` (the
// stand-ups' reference text, and recognised text with the speakers it was really said by).
//   stdin:  {"meetings": [{"id": ID, "attendees": [NAME], "segments": [{"speaker", "start", "text"}]}]}
//   stdout: one line per meeting, the JSON `syncups digest --format json` prints.

struct Input: Decodable {
  struct Meeting: Decodable {
    var id: String
    var attendees: [String]
    var segments: [Segment]
  }
  struct Segment: Decodable {
    var speaker: String
    var start: Double
    var text: String
  }
  var meetings: [Meeting]
}

let data = FileHandle.standardInput.readDataToEndOfFile()
guard let input = try? JSONDecoder().decode(Input.self, from: data) else {
  FileHandle.standardError.write(Data("digest-probe: stdin is not the expected JSON\n".utf8))
  exit(2)
}
for meeting in input.meetings {
  let segments = meeting.segments.enumerated().map { index, segment in
    DigestSegment(
      number: index + 1, speaker: segment.speaker, start: segment.start, text: segment.text)
  }
  let digest = Digest(segments: segments, attendees: meeting.attendees)
  print(digest.json(meeting: meeting.id))
}
