import Foundation
import TranscriptionClient

/// A tied-mixture model's mixture weights, as SphinxTrain's `bw` reads them. PocketSphinx's
/// models ship them only compressed, in `sendump`: per feature stream and codeword, one byte per
/// senone, the weight's negative logarithm (base 1.0001, shifted right by 10 bits). This reads
/// that file back into probabilities and writes SphinxTrain's uncompressed `mixture_weights`.
public struct MixtureWeights: Equatable, Sendable {
  public let senones: Int
  public let streams: Int
  public let densities: Int
  /// Probabilities by senone, then stream, then density; each senone's stream sums to one.
  public let values: [Float]

  /// Reads a `sendump` (little-endian, without a cluster codebook, as the Debian models have).
  public init(sendump data: Data) throws(TranscriptionError) {
    let bytes = [UInt8](data)
    var offset = 0
    func int32() throws(TranscriptionError) -> Int {
      guard offset + 4 <= bytes.count else { throw Self.damaged("it ends in its header") }
      var value: UInt32 = 0
      for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
      offset += 4
      return Int(Int32(bitPattern: value))
    }
    var streams = 1
    var clusters = 0
    // Length-prefixed strings (the title, a description, settings) until a length of 0.
    for count in 0... {
      let length = try int32()
      if length == 0 { break }
      guard count < 100, (1...999).contains(length), offset + length <= bytes.count else {
        throw Self.damaged("its header is not a sendump's")
      }
      let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        .trimmingCharacters(in: CharacterSet(charactersIn: "\0"))
      offset += length
      let parts = text.split(separator: " ")
      if parts.count == 2, let value = Int(parts[1]) {
        if parts[0] == "feature_count" { streams = value }
        if parts[0] == "cluster_count" { clusters = value }
      }
    }
    let densities = try int32()
    let senones = try int32()
    guard clusters == 0 else { throw Self.damaged("its weights are clustered") }
    guard (1...8).contains(streams), (1...4096).contains(densities),
      (1...1_000_000).contains(senones),
      bytes.count - offset >= streams * densities * senones
    else { throw Self.damaged("its sizes do not fit the file") }
    // The byte q stands for 1.0001^-(q << 10).
    let step = 1024 * log(1.0001)
    let table = (0...255).map { Float(exp(-Double($0) * step)) }
    var values = [Float](repeating: 0, count: senones * streams * densities)
    for stream in 0..<streams {
      for density in 0..<densities {
        let row = offset + (stream * densities + density) * senones
        for senone in 0..<senones {
          values[(senone * streams + stream) * densities + density] =
            table[Int(bytes[row + senone])]
        }
      }
    }
    for start in stride(from: 0, to: values.count, by: densities) {
      let sum = values[start..<start + densities].reduce(0, +)
      guard sum > 0 else { continue }
      for index in start..<start + densities { values[index] /= sum }
    }
    self.senones = senones
    self.streams = streams
    self.densities = densities
    self.values = values
  }

  /// SphinxTrain's binary `mixture_weights` file (no checksum).
  public var sphinxFile: Data {
    var header = "s3\nversion 1.0\n"
    let end = "endhdr\n"
    // The numbers that follow start on a multiple of 4 bytes.
    header += String(repeating: " ", count: (4 - (header.utf8.count + end.utf8.count) % 4) % 4)
    var data = Data((header + end).utf8)
    func append(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    append(0x1122_3344)
    for value in [senones, streams, densities, values.count] { append(UInt32(value)) }
    for value in values { append(value.bitPattern) }
    return data
  }

  private static func damaged(_ why: String) -> TranscriptionError {
    .decoderFailed("cannot read the speech model's mixture weights (sendump): \(why)")
  }
}
