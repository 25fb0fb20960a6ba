import ArgumentParser
import BatchTranscriber
import Foundation
import SpeechVocabulary
import SyncUpsCLI
import TranscriptionClient
import TranscriptionClientLive

extension TranscriptFormat: ExpressibleByArgument {}

/// `syncups transcribe FILE...`: batch transcription, one decoder per worker.
struct TranscribeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transcribe",
    abstract: "Transcribe audio files (WAV, FLAC, OGG, ...) with PocketSphinx."
  )

  @Argument(help: "Audio files to transcribe.")
  var files: [String]

  @Option(help: "Output format: txt, json (one object per file, one per line), srt or vtt.")
  var format: TranscriptFormat = .txt

  @Option(help: "Files decoded in parallel, each worker with its own decoder (default: cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(help: "Write one file per input into this folder instead of printing.")
  var output: String?

  @Option(
    help: "Speech model folder (default: $SYNCUPS_MODEL_DIR, then Models/, then Debian's en-us).")
  var modelDir: String?

  @Option(help: "A text file of words and phrases to expect (names, product words), one per line.")
  var vocabulary: String?

  @Option(help: .hidden)
  var standupWeight: Double = DecoderOptions.defaultStandupWeight

  @Option(help: .hidden)
  var vocabularyWeight: Double = DecoderOptions.defaultVocabularyWeight

  @Flag(help: "Let the decoder log to stderr.")
  var verbose = false

  // Files are decoded as the second pass of a meeting is: whole sentences.
  @Option(help: .hidden)
  var endSilenceFrames: Int = DecoderOptions.sentenceEndSilenceFrames

  // Each file starts from the cepstral mean of its first seconds (0: the model's average).
  @Option(help: .hidden)
  var meanSeconds: Int = SpeechDecoder.fileMeanSeconds

  // Each sentence decoded alone from its own mean, as a recording's second pass does
  // (`Samples/make-samples` writes what a recording saves with it).
  @Flag(help: .hidden)
  var bySentence = false

  @Option(help: .hidden)
  var maxActiveHmms: Int = DecoderOptions().maxActiveHMMs

  @Option(parsing: .unconditionalSingleValue, help: .hidden)
  var decoderArgument: [String] = []

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    guard meanSeconds >= 0 else { throw ValidationError("--mean-seconds cannot be negative") }
  }

  func run() throws {
    var terms: [String] = []
    if let vocabulary {
      do throws(VocabularyFileError) {
        terms = try Vocabulary.read(contentsOf: vocabulary).terms
      } catch {
        fail(error.description)
      }
    }
    if let output { prepare(output) }
    let batch = BatchTranscriber(
      jobs: jobs,
      options: DecoderOptions(
        modelDirectory: modelDir, verbose: verbose, partials: false,
        endSilenceFrames: endSilenceFrames, maxActiveHMMs: maxActiveHmms,
        extraArguments: decoderArgument, vocabulary: terms, standupWeight: standupWeight,
        vocabularyWeight: vocabularyWeight),
      meanSeconds: meanSeconds, bySentence: bySentence)
    let failures = Counter()
    let progress = ProgressBar.forStandardError()
    let format = self.format
    let output = self.output
    var onProgress: (@Sendable (Int, Int) -> Void)?
    if let progress { onProgress = { done, total in progress.update(done, total) } }
    let emit: @Sendable (BatchTranscriber.Result) -> Void = { result in
      switch result.outcome {
      case .success(let transcript):
        let text = format.render(transcript, file: result.file)
        if let output {
          let path = Self.outputPath(for: result.file, in: output, format: format)
          do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
          } catch {
            progress?.clear()
            Console.error("cannot write \(path); check the folder's permissions")
            failures.increment()
          }
        } else {
          progress?.clear()
          do throws(CLIError) {
            try Console.out(text)
          } catch {
            fail(error.message)
          }
        }
      case .failure(let failure):
        progress?.clear()
        Console.error("\(failure)")
        failures.increment()
      }
    }
    do throws(TranscriptionError) {
      try batch.run(files: files, progress: onProgress, emit: emit)
    } catch {
      progress?.clear()
      fail(error.description)
    }
    progress?.finish()
    if failures.value > 0 { throw ExitCode(1) }
  }

  /// Refuses inputs that would overwrite each other's transcript, before anything is decoded
  /// or made, then makes the output folder.
  private func prepare(_ output: String) {
    var inputs: [String: String] = [:]
    for file in files {
      let path = Self.outputPath(for: file, in: output, format: format)
      if let first = inputs[path] {
        fail(
          "\(first) and \(file) would both be written to \(path); "
            + "transcribe them into different --output folders")
      }
      inputs[path] = file
    }
    var isDirectory: ObjCBool = false
    if !FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
      do {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      } catch {
        fail("cannot create output folder \(output); check the path and permissions")
      }
    } else if !isDirectory.boolValue {
      fail("--output \(output) is a file, not a folder")
    }
  }
}

extension TranscribeCommand {
  /// Where `--output folder` puts the transcript of `file`: its name, the format's extension.
  static func outputPath(for file: String, in folder: String, format: TranscriptFormat) -> String {
    let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    return (folder as NSString).appendingPathComponent("\(name).\(format.rawValue)")
  }
}

/// Prints one line on stderr and exits 1: how every failure a user can meet ends.
func fail(_ line: String) -> Never {
  Console.error(line)
  exit(1)
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}
