import Foundation
import TestSupport

/// What the live pass (as `syncups record` saves today) hears in a sample: `Samples/NAME.transcript.txt`.
public func committedTranscript(_ name: String) throws -> String {
  try committedText(name, "transcript")
}

/// What `syncups transcribe` (whole-sentence endpointing) hears in a sample, as
/// `Samples/make-samples` wrote it.
public func committedSentences(_ name: String) throws -> String {
  try committedText(name, "sentences")
}

/// What `syncups record` saves for a sync-up whose attendees are Ana, Ben and Cleo (their names
/// are its vocabulary): the second pass when the audio is kept, else the live pass.
public func committedRecording(_ name: String, audioKept: Bool = true) throws -> String {
  try committedText(name, audioKept ? "recorded" : "recorded-live")
}

private func committedText(_ name: String, _ kind: String) throws -> String {
  try String(contentsOf: samples.appendingPathComponent("\(name).\(kind).txt"), encoding: .utf8)
    .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs sox (a real converter) to make a variant of a sample.
public func sox(_ arguments: [String]) async throws {
  let sox = try ChildProcess(
    tool: "sox", arguments, standardOutput: .inherit, standardError: .discard)
  if await sox.finish() != 0 {
    throw CocoaError(
      .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "sox \(arguments) failed"])
  }
}
