import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// Inputs `syncups transcribe` must neither misreport nor overwrite.
@Suite("syncups transcribe: odd inputs")
struct TranscribeDefectTests {
  let hello = samples.appendingPathComponent("hello.wav").path

  /// Two inputs of the same name would both become D/x.srt: refused before anything is
  /// decoded or written, in one line, exit 1.
  @Test func sameNamesIntoOneOutputFolderAreRefused() async throws {
    let root = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: root) }
    let first = root.appendingPathComponent("d1/x.wav")
    let second = root.appendingPathComponent("d2/x.wav")
    for url in [first, second] {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: hello, toPath: url.path)
    }
    let output = root.appendingPathComponent("out")
    let run = try await runSyncups([
      "transcribe", "--format", "srt", "--output", output.path, first.path, second.path,
    ])
    #expect(run.status == 1)
    #expect(
      run.stderrLines == [
        "syncups: \(first.path) and \(second.path) would both be written to "
          + "\(output.path)/x.srt; transcribe them into different --output folders"
      ])
    #expect(!FileManager.default.fileExists(atPath: output.path))

    // Distinct names still go into one folder.
    let renamed = root.appendingPathComponent("d2/y.wav")
    try FileManager.default.moveItem(at: second, to: renamed)
    let fine = try await runSyncups([
      "transcribe", "--output", output.path, first.path, renamed.path,
    ])
    #expect(fine.status == 0, "\(fine.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
    #expect(names == ["x.txt", "y.txt"])
  }

  /// A FIFO and devices are not "empty files": each says what it is, in one line.
  @Test func pipesAndDevicesSayWhatTheyAre() async throws {
    let root = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: root) }
    let fifo = root.appendingPathComponent("audio.wav").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let cases = [
      (fifo, "a named pipe (FIFO)"), ("/dev/zero", "a character device"),
      ("/dev/urandom", "a character device"),
    ]
    for (path, kind) in cases {
      let run = try await runSyncups(["transcribe", path])
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderrLines == [
          "syncups: \(path): not a regular file (it is \(kind)); give a WAV, FLAC or OGG file"
        ])
    }
  }

  /// The FLAC a killed recording leaves (0 samples in its header: unknown length) gives the
  /// same transcript as the finished file.
  @Test func flacOfUnknownLengthIsTranscribed() async throws {
    let root = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: root) }
    let flac = root.appendingPathComponent("meeting.flac")
    let convert = try ChildProcess(
      tool: "sox", [samples.appendingPathComponent("standup.wav").path, flac.path],
      standardOutput: .inherit, standardError: .inherit)
    await convert.waitUntilExit()
    #expect(convert.terminationStatus == 0)
    let whole = try await runSyncups(["transcribe", flac.path])
    var data = try Data(contentsOf: flac)
    data[21] &= 0xF0
    for index in 22...25 { data[index] = 0 }
    try data.write(to: flac)
    let killed = try await runSyncups(["transcribe", flac.path])
    #expect(killed.status == 0, "\(killed.stderr)")
    #expect(killed.stderr.isEmpty)
    #expect(killed.stdout == whole.stdout)
    #expect(killed.stdout == (try committedSentences("standup")) + "\n")
  }
}
