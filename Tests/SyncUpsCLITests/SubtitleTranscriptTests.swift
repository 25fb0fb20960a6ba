import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import Testing

/// `syncups transcript --format srt|vtt` with speaker names that look like subtitle syntax.
@Suite struct SubtitleTranscriptTests {
  let syncUp = SyncUp(id: SyncUp.ID(UUID(0)), title: "Stand-up")
  let meeting = Meeting(
    id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 0), transcript: "hi there",
    segments: [
      Meeting.Segment(speaker: "Bob --> Alice", start: 1, end: 2, text: "hi"),
      Meeting.Segment(speaker: "<i>Eve</i> & co", start: 3, end: 4, text: "there"),
    ])

  @Test func srtSpeakerCannotBreakACue() {
    let srt = MeetingTranscriptFormat.srt.render(meeting, of: syncUp)
    #expect(
      srt
        == "1\n00:00:01,000 --> 00:00:02,000\nBob → Alice: hi\n\n"
        + "2\n00:00:03,000 --> 00:00:04,000\n<i>Eve</i> & co: there\n\n")
  }

  @Test func vttSpeakerIsTextNotMarkup() {
    let vtt = MeetingTranscriptFormat.vtt.render(meeting, of: syncUp)
    #expect(
      vtt
        == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBob --&gt; Alice: hi\n\n"
        + "00:00:03.000 --> 00:00:04.000\n&lt;i&gt;Eve&lt;/i&gt; &amp; co: there\n\n")
  }
}
