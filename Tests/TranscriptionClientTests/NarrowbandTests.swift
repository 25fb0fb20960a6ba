import AudioCore
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import Testing
import TranscriptionClient

@testable import TranscriptionClientLive

/// The narrowband channel transform (Models/narrowband) with the installed model: read, checked,
/// and applied to the sentences heard without their band above 4 kHz.
@Suite("Narrowband transform")
struct NarrowbandTests {
  static let transform = repositoryRoot.appendingPathComponent(
    "Models/narrowband/telephone.mllr"
  ).path

  /// The first 12 s of the bundled stand-up, as recorded (wideband) and through the telephone
  /// band (8 kHz, 300-3400 Hz, back up to 16 kHz), in a folder of the test's own.
  static func clips() throws -> (folder: URL, wide: URL, narrow: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "syncups-narrowband-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let wide = folder.appendingPathComponent("wide.wav")
    let eight = folder.appendingPathComponent("eight.wav")
    let narrow = folder.appendingPathComponent("narrow.wav")
    let source = samples.appendingPathComponent("standup.wav").path
    try run("sox", ["-D", source, wide.path, "trim", "0", "12"])
    try run("sox", ["-D", wide.path, "-r", "8000", eight.path, "sinc", "300-3400"])
    try run("sox", ["-D", eight.path, "-r", "16000", "-b", "16", narrow.path])
    return (folder, wide, narrow)
  }

  static func samplesOf(_ url: URL) throws -> [Int16] {
    try AudioFileReader(path: url.path).readAll()
  }

  @Test("The shipped transform is one class of three 13-dimension streams")
  func shippedTransformReads() throws {
    let text = try String(contentsOfFile: Self.transform, encoding: .utf8)
    #expect(BandTransform.streamLengths(text) == [13, 13, 13])
    #expect(BandTransform.streamLengths(BandTransform.identity([13, 13, 13])) == [13, 13, 13])
  }

  @Test("A damaged transform file is not used")
  func damagedTransformIsRefused() throws {
    let text = try String(contentsOfFile: Self.transform, encoding: .utf8)
    #expect(BandTransform.streamLengths(String(text.dropLast(40))) == nil)
    #expect(BandTransform.streamLengths("2\n3\n13\n") == nil)
    #expect(BandTransform.streamLengths(text.replacingOccurrences(of: "1.0", with: "nan")) == nil)
    #expect(BandTransform.streamLengths(text + " 7") == nil)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "syncups-band-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = folder.appendingPathComponent("damaged.mllr")
    try Data(text.prefix(200).utf8).write(to: damaged)
    let decoder = try SentenceDecoder(
      options: DecoderOptions(partials: false, narrowbandTransform: damaged.path))
    #expect(BandTransform(path: damaged.path, decoder: decoder.decoder.decoder) == nil)
  }

  @Test("The band is told per sentence: the telephone copy narrowband, the recording not")
  func bandIsToldPerSentence() throws {
    let (folder, wide, narrow) = try Self.clips()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(AudioBand(of: try Self.samplesOf(wide)).isNarrowband() == false)
    #expect(AudioBand(of: try Self.samplesOf(narrow)).isNarrowband() == true)
    let decoder = try SentenceDecoder(
      options: DecoderOptions(partials: false, narrowbandTransform: Self.transform))
    _ = try decoder.transcribe(AudioFileReader(path: narrow.path))
    #expect(decoder.decodesNarrowband)
    #expect(decoder.streamBand.isNarrowband() == true)
    _ = try decoder.transcribe(AudioFileReader(path: wide.path))
    #expect(!decoder.decodesNarrowband)
    #expect(decoder.streamBand.isNarrowband() == false)
  }

  /// Switching the means with `ps_update_mllr` hears what `-mllr` at start hears, and switching
  /// back hears what the plain model hears: the transform starts from the model's own means.
  @Test("Switching the transform on and off equals loading it and not loading it")
  func switchingEqualsLoading() throws {
    let (folder, wide, narrow) = try Self.clips()
    defer { try? FileManager.default.removeItem(at: folder) }
    let switching = try SentenceDecoder(
      options: DecoderOptions(partials: false, narrowbandTransform: Self.transform))
    let loaded = try SentenceDecoder(
      options: DecoderOptions(
        partials: false, extraArguments: ["-mllr", Self.transform], narrowbandTransform: "none"))
    let plain = try SentenceDecoder(
      options: DecoderOptions(partials: false, narrowbandTransform: "none"))
    let heardNarrow = try switching.transcribe(AudioFileReader(path: narrow.path))
    #expect(heardNarrow == (try loaded.transcribe(AudioFileReader(path: narrow.path))))
    #expect(!heardNarrow.utterances.isEmpty)
    // The plain decoder hears the narrowband copy first too (PocketSphinx keeps a little of
    // what it heard, its best densities, from stream to stream).
    _ = try plain.transcribe(AudioFileReader(path: narrow.path))
    let heardWide = try switching.transcribe(AudioFileReader(path: wide.path))
    #expect(heardWide == (try plain.transcribe(AudioFileReader(path: wide.path))))
    #expect(!plain.decodesNarrowband)
  }
}
