import Foundation
import SyncUpsTestSupport
import Testing

@Suite("transcribe --vocabulary")
struct VocabularyOptionTests {
  func vocabularyFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-vocab-\(UUID().uuidString.prefix(8)).txt").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aBadVocabularyFileIsOneLineAndExitOne() async throws {
    let wav = samples.appendingPathComponent("hello.wav").path
    let bad = try vocabularyFile("Priya\nk8s\n")
    let cases = [
      (
        "/nonexistent/v.txt",
        "syncups: vocabulary file /nonexistent/v.txt does not exist; check the path"
      ),
      (
        bad,
        "syncups: vocabulary file \(bad), line 2 ('k8s'): 'k8s' has characters other than "
          + "letters; write it as it is said (e.g. 'k eight s')"
      ),
    ]
    for (file, message) in cases {
      let run = try await runSyncups(["transcribe", "--vocabulary", file, wav])
      #expect(run.status == 1)
      #expect(run.stderrLines == [message])
      #expect(run.stdout.isEmpty)
    }
  }

  @Test func theVocabularyReachesTheDecoder() async throws {
    let file = try vocabularyFile("# our words\nhello world\n")
    let hello = samples.appendingPathComponent("hello.wav").path
    let run = try await runSyncups(["transcribe", "--vocabulary", file, hello])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("hello world"))
  }
}
