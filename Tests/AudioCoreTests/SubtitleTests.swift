import AudioCore
import Testing

/// Subtitle files: cue text that would break a cue or read as markup is written safely.
@Suite("Subtitle cues")
struct SubtitleTests {
  let cues = [
    TranscriptText.Cue(start: 0.73, end: 3.35, text: "Bob --> Alice: hello"),
    TranscriptText.Cue(start: 4, end: 4, text: "Dee <b>&amp;</b>: a < b & c > d\n\nnext"),
  ]

  @Test func srtKeepsEachCueWhole() {
    let srt = TranscriptText.subtitles(cues, format: .srt)
    #expect(
      srt == """
        1
        00:00:00,730 --> 00:00:03,350
        Bob → Alice: hello

        2
        00:00:04,000 --> 00:00:04,001
        Dee <b>&amp;</b>: a < b & c > d next


        """)
    // Exactly one timing line per cue, and cues separated by exactly one blank line.
    let lines = srt.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.filter { $0.contains("-->") }.count == cues.count)
    #expect(srt.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count == cues.count)
  }

  @Test func vttEscapesMarkupAndArrows() {
    let vtt = TranscriptText.subtitles(cues, format: .vtt)
    #expect(
      vtt == """
        WEBVTT

        00:00:00.730 --> 00:00:03.350
        Bob --&gt; Alice: hello

        00:00:04.000 --> 00:00:04.001
        Dee &lt;b&gt;&amp;amp;&lt;/b&gt;: a &lt; b &amp; c &gt; d next


        """)
    let lines = vtt.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.filter { $0.contains("-->") }.count == cues.count)
    // No markup is left in the cue text: every "<" and "&" is an escape's.
    for line in lines where !line.contains("-->") {
      #expect(!line.contains("<"))
      #expect(
        line.split(separator: "&").dropFirst().allSatisfy {
          $0.hasPrefix("amp;") || $0.hasPrefix("lt;") || $0.hasPrefix("gt;")
        })
    }
  }

  @Test func anEmptyTranscriptGivesEmptySubtitles() {
    #expect(TranscriptText.subtitles([], format: .srt) == "")
    #expect(TranscriptText.subtitles([], format: .vtt) == "WEBVTT\n\n")
  }
}
