import CPocketSphinx
import Foundation
import TranscriptionClient

/// Switches one decoder between the model as it is and the model moved by the narrowband
/// channel transform (`Models/narrowband`). PocketSphinx's `ps_update_mllr` transforms the
/// means as the model files hold them each time, so going back is applying the identity.
/// Not thread-safe: used on its decoder's thread only.
final class BandTransform {
  private let narrow: OpaquePointer
  private let identity: OpaquePointer
  /// Whether the decoder's means are the narrowband ones now.
  private(set) var narrowband = false

  /// The transform in the file at `path` for `decoder`; nil (nothing changed) when the file is
  /// not a one-class `-mllr` transform whose streams fit the decoder's features.
  init?(path: String, decoder: OpaquePointer) {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let lengths = Self.streamLengths(text), lengths == Self.featureLengths(decoder),
      let folder = try? TemporaryFolder("syncups-band")
    else { return nil }
    defer { folder.remove() }
    let identityFile = folder.url.appendingPathComponent("identity").path
    guard
      (try? Data(Self.identity(lengths).utf8).write(to: URL(fileURLWithPath: identityFile)))
        != nil,
      let narrow = ps_mllr_read(path)
    else { return nil }
    guard let identity = ps_mllr_read(identityFile) else {
      ps_mllr_free(narrow)
      return nil
    }
    self.narrow = narrow
    self.identity = identity
  }

  deinit {
    ps_mllr_free(narrow)
    ps_mllr_free(identity)
  }

  /// Moves `decoder`'s means to the narrowband ones or back (outside an utterance only).
  func use(narrowband: Bool, in decoder: OpaquePointer) {
    guard narrowband != self.narrowband else { return }
    // The decoder keeps (and one day frees) the reference it is given; ours stays ours.
    if ps_update_mllr(decoder, ps_mllr_retain(narrowband ? narrow : identity)) != nil {
      self.narrowband = narrowband
    }
  }

  /// The length of each stream of a one-class `-mllr` file (the matrix, the shift and the
  /// variance scale of each); nil when the text is not one.
  static func streamLengths(_ text: String) -> [Int]? {
    let tokens = text.split(whereSeparator: \.isWhitespace)
    guard tokens.count >= 2, Int(tokens[0]) == 1, let streams = Int(tokens[1]),
      (1...8).contains(streams)
    else { return nil }
    var index = 2
    var lengths: [Int] = []
    for _ in 0..<streams {
      guard index < tokens.count, let length = Int(tokens[index]), (1...128).contains(length)
      else { return nil }
      let end = index + 1 + length * length + 2 * length
      guard end <= tokens.count,
        tokens[index + 1..<end].allSatisfy({ Double($0)?.isFinite == true })
      else { return nil }
      lengths.append(length)
      index = end
    }
    return index == tokens.count ? lengths : nil
  }

  /// The identity transform with these stream lengths, in the `-mllr` format.
  static func identity(_ lengths: [Int]) -> String {
    var text = "1\n\(lengths.count)\n"
    for length in lengths {
      text += "\(length)\n"
      for row in 0..<length {
        text += (0..<length).map { $0 == row ? "1.0" : "0.0" }.joined(separator: " ") + "\n"
      }
      text += Array(repeating: "0.0", count: length).joined(separator: " ") + "\n"
      text += Array(repeating: "1.0", count: length).joined(separator: " ") + "\n"
    }
    return text
  }

  /// The lengths of the decoder's feature streams as the model's densities see them.
  static func featureLengths(_ decoder: OpaquePointer) -> [Int] {
    guard let feat = ps_get_feat(decoder)?.pointee else { return [] }
    if feat.n_sv > 0, let lengths = feat.sv_len {
      return (0..<Int(feat.n_sv)).map { Int(lengths[$0]) }
    }
    guard let lengths = feat.stream_len else { return [] }
    return (0..<Int(feat.n_stream)).map { Int(lengths[$0]) }
  }
}
