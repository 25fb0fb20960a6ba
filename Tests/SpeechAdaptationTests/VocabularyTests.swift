import Foundation
import SpeechVocabulary
import Testing

@Suite("Vocabulary")
struct VocabularyTests {
  @Test func termsAreKeptAsTheyAreSaid() {
    let vocabulary = Vocabulary([
      "Priya", "  Tomasz  ", "José", "on-call", "Staging Server", "priya", "CI/CD", "Grafana!",
    ])
    #expect(
      vocabulary.terms == [
        "priya", "tomasz", "jose", "on call", "staging server", "ci cd", "grafana",
      ])
    #expect(
      vocabulary.words == [
        "priya", "tomasz", "jose", "on", "call", "staging", "server", "ci", "cd", "grafana",
      ])
    #expect(vocabulary.phrases == [["on", "call"], ["staging", "server"], ["ci", "cd"]])
  }

  @Test func termsThatCannotBeSaidAreRefused() {
    #expect(Vocabulary.normalize("k8s") == .failure(.notLetters("k8s")))
    #expect(Vocabulary.normalize(" - ") == .failure(.empty))
    #expect(Vocabulary.normalize("a b c d e f g") == .failure(.tooManyWords))
    #expect(Vocabulary(["k8s", "ok"]).terms == ["ok"])
  }

  @Test func mergingKeepsTheFirstOrder() {
    let names = Vocabulary(["Priya", "Tomasz"])
    #expect(
      names.merging(Vocabulary(["webhook", "priya"])).terms == ["priya", "tomasz", "webhook"])
  }

  @Test func aFileHasOneTermPerLineWithCommentsAndBlankLines() throws {
    let file = try write("# the team\nPriya\n\nTomasz\r\npull request\n")
    #expect(try Vocabulary.read(contentsOf: file).terms == ["priya", "tomasz", "pull request"])
  }

  @Test func badFilesAreOneLineThatSaysWhatToDo() throws {
    let folder = FileManager.default.temporaryDirectory.path
    let cases: [(String, String)] = [
      (
        "/nonexistent/words.txt",
        "vocabulary file /nonexistent/words.txt does not exist; check the path"
      ),
      (
        folder,
        "vocabulary file \(folder) is a folder; give a text file with one word or phrase per line"
      ),
      (try write(Data([0xff, 0xfe, 0x00, 0x41])), "is not UTF-8 text; save it as plain text"),
      (
        try write("Priya\nk8s cluster\n"),
        "line 2 ('k8s cluster'): 'k8s' has characters other than letters"
      ),
      (try write("# nothing\n\n"), "has no words; write one word or phrase per line"),
      (
        try write("one two three four five six seven\n"),
        "line 1 ('one two three four five six seven'): it has more than 6 words"
      ),
    ]
    for (path, expected) in cases {
      #expect(throws: VocabularyFileError.self) { try Vocabulary.read(contentsOf: path) }
      do {
        _ = try Vocabulary.read(contentsOf: path)
      } catch {
        #expect(error.description.contains(expected), "\(error.description)")
        #expect(!error.description.contains("\n"))
      }
    }
  }

  func write(_ text: String) throws -> String { try write(Data(text.utf8)) }

  func write(_ data: Data) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-vocabulary-\(UUID().uuidString.prefix(8)).txt").path
    try data.write(to: URL(fileURLWithPath: path))
    return path
  }
}
