import Foundation
import SyncUpsFeatures
import Testing

/// `syncups correct` against the built binary: the transcript, search and exports follow the
/// correction, `--original` and `--undo` bring back what was recognised, and bad input is one
/// line that changes nothing.
@Suite(.serialized)
struct CorrectCommandTests {
  @Test func aCorrectionIsWhatTranscriptSearchAndExportsSay() async throws {
    let home = try await SearchExportImportTests.seeded()
    let numbered = try await home.run("transcript", "morning", "--numbers")
    #expect(
      numbered.stdout == """
        1 [00:00 - 00:04] Ana: good morning everyone
        2 [00:05 - 00:09] Ana: the staging server is down again
        3 [01:10 - 01:14] Ben: we should migrate the logs to the new server

        """, "\(numbered)")

    let run = try await home.run(
      "correct", "morning", "2", "--speaker", "ben", "--text", "the Grafana server is down again")
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(
      run.stdout == """
        Corrected segment 2 of meeting aaaaaaaa of 'Morning Sync' (11111111):
        2 [00:05 - 00:09] Ben: the Grafana server is down again
        Ben's voice was not taught: the meeting's audio was not kept.

        """, "\(run)")
    let text = try await home.run("transcript", "morning")
    #expect(text.stdout.contains("[00:05 - 00:09] Ben: the Grafana server is down again\n"))
    let original = try await home.run("transcript", "morning", "--original")
    #expect(original.stdout.contains("[00:05 - 00:09] Ana: the staging server is down again\n"))
    let srt = try await home.run("transcript", "morning", "--format", "srt")
    #expect(srt.stdout.contains("Ben: the Grafana server is down again"))
    let json = try await home.run("transcript", "morning", "--format", "json")
    #expect(
      json.stdout.contains(
        #""speaker":"Ben","start":5,"end":9,"text":"the Grafana server is down again""#))

    let found = try await home.run("search", "grafana")
    #expect(found.stdout.contains("Ben: the [Grafana] server is down again"), "\(found)")
    let byBen = try await home.run("search", "staging", "--speaker", "ben")
    #expect(byBen.status == 1 && byBen.stdout.isEmpty, "\(byBen)")

    let same = try await home.run("correct", "morning", "2", "--speaker", "BEN")
    #expect(same.status == 0 && same.stdout.contains("already reads so; nothing was changed"))

    let undone = try await home.run("correct", "morning", "2", "--undo")
    #expect(undone.status == 0, "\(undone)")
    #expect(undone.stdout.contains("is back to what was recognised"))
    #expect(try await home.run("transcript", "morning").stdout == original.stdout)
    #expect(try await home.run("search", "grafana").status == 1)
  }

  @Test func badInputIsOneLineAndChangesNothing() async throws {
    let home = try await SearchExportImportTests.seeded()
    let before = try await home.run("export")
    let cases: [([String], [String])] = [
      (
        ["correct", "morning", "2", "--speaker", "Zed"],
        ["'Zed' is not an attendee", "'Ana', 'Ben'"]
      ),
      (["correct", "morning", "2", "--text", "   "], ["the text is empty"]),
      (["correct", "morning", "9", "--text", "x"], ["no segment 9", "numbered 1 to 3"]),
      (["correct", "morning", "two", "--text", "x"], ["'two' is not a segment number"]),
      (["correct", "morning", "2"], ["nothing to correct"]),
      (["correct", "morning", "2", "--undo", "--text", "x"], ["--undo"]),
      (["correct", "nope", "2", "--text", "x"], ["no sync-up matches 'nope'"]),
      (["correct", "morning", "2", "--meeting", "5", "--text", "x"], ["has no meeting '5'"]),
    ]
    for (arguments, parts) in cases {
      expectOneLineFailure(try await home.run(arguments), containing: parts)
    }
    #expect(try await home.run("export").stdout == before.stdout)
  }
}
