import AudioCore
import AudioFilesClientLive
import ChildProcesses
import Foundation
import TranscriptionClient

#if canImport(Glibc)
  import Glibc
#endif

/// A speaker's acoustic adaptation, as CMU Sphinx documents it: the speaker's sentences (audio
/// and the words said) go through SphinxTrain's `bw` (statistics against the model) and
/// `mllr_solve` (one MLLR transform of the means), and PocketSphinx decodes that speaker's
/// sentences with `-mllr`. Blocking: call from a worker thread, never the cooperative pool.
public enum SpeakerTransforms {
  public typealias Span = SpokenSpan

  /// Where Debian's `sphinxtrain` puts `bw` and `mllr_solve`.
  public static let toolFolder = "/usr/lib/sphinxtrain"

  /// The transform (`-mllr` file) estimated from the spans of each recording, and the seconds
  /// of speech it used; nil when no span could be used (under half a second, or with a word the
  /// dictionary lacks).
  public static func estimate(
    _ recordings: [(audio: URL, spans: [Span])], modelDirectory: String? = nil
  ) throws -> (transform: Data, seconds: Double)? {
    let model = try SpeechModel.resolve(explicit: modelDirectory)
    let folder = try TemporaryFolder("syncups-adapt")
    defer { folder.remove() }
    let hmm = try prepareModel(model.acousticModel, in: folder.url.appendingPathComponent("hmm"))
    let known = try dictionaryWords(model.dictionary)
    var ids: [String] = []
    var transcription = ""
    var seconds = 0.0
    for (audio, spans) in recordings {
      let samples = try AudioFileReader(path: audio.path).readAll()
      for span in spans {
        let words = span.words
        let first = max(0, Int(span.start * Double(AudioFormat.sampleRate)))
        let last = min(samples.count, Int(span.end * Double(AudioFormat.sampleRate)))
        guard !words.isEmpty, words.allSatisfy(known.contains),
          last - first >= AudioFormat.sampleRate / 2
        else { continue }
        let id = "s\(ids.count)"
        try samples[first..<last].withUnsafeBytes { raw in
          try Data(raw).write(to: folder.url.appendingPathComponent(id + ".raw"))
        }
        ids.append(id)
        transcription += "<s> \(words.joined(separator: " ")) </s> (\(id))\n"
        seconds += Double(last - first) / Double(AudioFormat.sampleRate)
      }
    }
    guard !ids.isEmpty else { return nil }
    let dir = folder.url.path
    try Data((ids.joined(separator: "\n") + "\n").utf8).write(
      to: folder.url.appendingPathComponent("ids"))
    try Data(transcription.utf8).write(to: folder.url.appendingPathComponent("words"))
    try run(
      "/usr/bin/sphinx_fe", "-argfile", hmm + "/feat.params", "-samprate", "16000", "-raw", "yes",
      "-input_endian", "little", "-c", dir + "/ids", "-di", dir, "-do", dir, "-ei", "raw",
      "-eo", "mfc")
    try run(
      toolFolder + "/bw", "-hmmdir", hmm, "-moddeffn", hmm + "/mdef.txt", "-ts2cbfn", ".ptm.",
      "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch", "-agc", "none",
      "-dictfn", model.dictionary, "-fdictfn", hmm + "/noisedict", "-ctlfn", dir + "/ids",
      "-lsnfn", dir + "/words", "-cepdir", dir, "-cepext", "mfc", "-accumdir", dir)
    try run(
      toolFolder + "/mllr_solve", "-meanfn", hmm + "/means", "-varfn", hmm + "/variances",
      "-outmllrfn", dir + "/mllr_matrix", "-accumdir", dir)
    return (try Data(contentsOf: folder.url.appendingPathComponent("mllr_matrix")), seconds)
  }

  /// The model's files as `bw` wants them: a text `mdef` and uncompressed mixture weights
  /// (made from `sendump`); the rest linked.
  static func prepareModel(_ acousticModel: String, in folder: URL) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["means", "variances", "transition_matrices", "noisedict", "feat.params"] {
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(name).path,
        withDestinationPath: acousticModel + "/" + name)
    }
    let weights = acousticModel + "/mixture_weights"
    if FileManager.default.fileExists(atPath: weights) {
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("mixture_weights").path, withDestinationPath: weights)
    } else {
      let sendump = try Data(contentsOf: URL(fileURLWithPath: acousticModel + "/sendump"))
      try MixtureWeights(sendump: sendump).sphinxFile.write(
        to: folder.appendingPathComponent("mixture_weights"))
    }
    try run(
      "/usr/bin/pocketsphinx_mdef_convert", "-text", acousticModel + "/mdef",
      folder.appendingPathComponent("mdef.txt").path)
    return folder.path
  }

  static func dictionaryWords(_ path: String) throws -> Set<String> {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var words = Set<String>()
    for line in text.split(separator: "\n") {
      if let word = line.split(separator: " ", maxSplits: 1).first { words.insert(String(word)) }
    }
    return words
  }

  /// Runs a tool to its end, its output discarded; throws with one line when it fails.
  static func run(_ path: String, _ arguments: String...) throws {
    let name = (path as NSString).lastPathComponent
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw TranscriptionError.decoderFailed(
        "speaker adaptation needs \(path) (apt-get install sphinxtrain sphinxbase-utils)")
    }
    let started = CleanSpawn.spawn(path, [name] + arguments) { actions in
      for fd in Int32(0)...2 {
        posix_spawn_file_actions_addopen(
          &actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
      }
    }
    guard let pid = started else {
      throw TranscriptionError.decoderFailed("cannot start \(name)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    guard status == 0 else {
      throw TranscriptionError.decoderFailed("\(name) failed (wait status \(status))")
    }
  }
}

/// A private folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
  let url: URL

  init(_ prefix: String) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}
