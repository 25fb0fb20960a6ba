import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

@Suite("syncups transcribe")
struct TranscribeCommandTests {
  let standup = samples.appendingPathComponent("standup.wav").path
  let hello = samples.appendingPathComponent("hello.wav").path

  @Test func jsonIsOneObjectPerFileInInputOrder() async throws {
    let run = try await runSyncups([
      "transcribe", "--format", "json", "--jobs", "2", hello, standup, hello,
    ])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.map { $0["file"] as? String } == [hello, standup, hello])
    #expect(
      objects.map { $0["text"] as? String } == [
        try committedSentences("hello"), try committedSentences("standup"),
        try committedSentences("hello"),
      ])
    // Keys in the documented order.
    #expect(lines[0].hasPrefix(#"{"file":"#))
    let first = objects[1]
    #expect((first["duration"] as? Double).map { abs($0 - 32.11) < 0.01 } == true)
    let utterances = try #require(first["utterances"] as? [[String: Any]])
    #expect(utterances.count >= 7)
    let words = try #require(utterances[0]["words"] as? [[String: Any]])
    #expect(Set(words[0].keys) == ["word", "start", "end", "confidence"])
    #expect(Set(utterances[0].keys) == ["start", "end", "text", "words"])
  }

  @Test func txtPrintsTheText() async throws {
    let run = try await runSyncups(["transcribe", standup])
    #expect(run.status == 0)
    #expect(run.stdout == (try committedSentences("standup")) + "\n")
  }

  @Test func subtitlesHaveOneCuePerUtterance() async throws {
    let srt = try await runSyncups(["transcribe", "--format", "srt", standup])
    let vtt = try await runSyncups(["transcribe", "--format", "vtt", standup])
    let json = try await runSyncups(["transcribe", "--format", "json", standup])
    #expect(srt.status == 0 && vtt.status == 0 && json.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let utterances = try #require(object["utterances"] as? [[String: Any]])

    let srtCues = srt.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(srtCues.count == utterances.count)
    for (index, cue) in srtCues.enumerated() {
      let lines = cue.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count == 3)
      #expect(lines[0] == "\(index + 1)")
      #expect(lines[1].wholeMatch(of: /\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d/) != nil)
      #expect(String(lines[2]) == utterances[index]["text"] as? String)
    }
    #expect(
      srtCues.first?.contains("00:00:00,710 --> ") == true
        || srtCues.first?.contains(" --> ") == true)

    #expect(vtt.stdout.hasPrefix("WEBVTT\n\n"))
    let vttCues = vtt.stdout.dropFirst("WEBVTT\n\n".count).components(separatedBy: "\n\n").filter {
      !$0.isEmpty
    }
    #expect(vttCues.count == utterances.count)
    for cue in vttCues {
      let lines = cue.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count == 2)
      #expect(lines[0].wholeMatch(of: /\d\d:\d\d:\d\d\.\d\d\d --> \d\d:\d\d:\d\d\.\d\d\d/) != nil)
    }
  }

  @Test func outputFolderGetsOneFilePerInput() async throws {
    let parent = try TemporaryDirectory().url
    let folder = parent.appendingPathComponent("out")
    defer { try? FileManager.default.removeItem(at: parent) }
    let run = try await runSyncups([
      "transcribe", "--format", "vtt", "--output", folder.path, standup, hello,
    ])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["hello.vtt", "standup.vtt"])
    let text = try String(contentsOf: folder.appendingPathComponent("hello.vtt"), encoding: .utf8)
    #expect(text.hasPrefix("WEBVTT\n\n"))
  }

  /// Missing, empty, not-audio and truncated files: one line each on stderr, exit 1, and the
  /// good files in the same batch still come out, in order.
  @Test func badFilesAreReportedAndTheOthersComplete() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.wav").path
    let empty = folder.appendingPathComponent("empty.wav").path
    let text = folder.appendingPathComponent("notes.wav").path
    let truncated = folder.appendingPathComponent("truncated.wav").path
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    try Data("minutes of the meeting\n".utf8).write(to: URL(fileURLWithPath: text))
    let wav = try Data(contentsOf: URL(fileURLWithPath: hello))
    try wav.prefix(wav.count / 2).write(to: URL(fileURLWithPath: truncated))

    for bad in [missing, empty, text, truncated] {
      let run = try await runSyncups(["transcribe", bad])
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      #expect(run.stderrLines.count == 1, "\(run.stderr)")
      #expect(run.stderr.hasPrefix("syncups: \(bad): "))
    }

    let run = try await runSyncups([
      "transcribe", "--format", "json", missing, hello, empty, text, standup, truncated,
    ])
    #expect(run.status == 1)
    #expect(run.stderrLines.count == 4, "\(run.stderr)")
    #expect(
      run.stderrLines.map { $0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces) }
        == [missing, empty, text, truncated])
    let files = run.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
    }
    #expect(files == [hello, standup])
  }

  @Test func missingModelIsOneLine() async throws {
    let run = try await runSyncups(["transcribe", "--model-dir", "/nonexistent/model", hello])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderrLines == [
        "syncups: model folder /nonexistent/model (from --model-dir) does not exist"
      ])
    let fromEnvironment = try await runSyncups(
      ["transcribe", hello], environment: ["SYNCUPS_MODEL_DIR": "/tmp"])
    #expect(fromEnvironment.status == 1)
    #expect(fromEnvironment.stderrLines.count == 1)
    #expect(fromEnvironment.stderr.contains("SYNCUPS_MODEL_DIR"))
  }

  @Test func badOptionsFail() async throws {
    let run = try await runSyncups(["transcribe", "--jobs", "0", hello])
    #expect(run.status != 0)
    #expect(run.stderr.contains("--jobs must be at least 1"))
    let format = try await runSyncups(["transcribe", "--format", "mp3", hello])
    #expect(format.status != 0)
  }
}
