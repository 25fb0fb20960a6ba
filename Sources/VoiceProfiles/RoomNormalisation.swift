import AudioCore
import Foundation

/// A meeting's voice frames made alike from room to room: the room's reverb and noise move and
/// squeeze the cepstra of every voice in it alike, so each coefficient is warped over the
/// meeting's speech to a standard normal distribution (its rank among the meeting's frames
/// decides its value). What is left tells the voices apart, and a voice learned in one room is
/// recognised in another.
public enum RoomNormalisation {
  /// The frames of every sentence warped together (the same coefficients, times and order).
  public static func warped(_ speech: [SpeechFrames?]) -> [SpeechFrames?] {
    guard let dimension = speech.compactMap({ $0?.frames.dimension }).first else { return speech }
    let total = speech.reduce(0) { $0 + ($1?.frames.dimension == dimension ? $1!.count : 0) }
    guard total >= 2 else { return speech }
    let quantiles = normalQuantiles(total)
    // Every frame's values, one dimension after another, in the order of the sentences.
    var values = [Float](repeating: 0, count: total * dimension)
    var position = 0
    for sentence in speech {
      guard let frames = sentence?.frames, frames.dimension == dimension else { continue }
      for index in 0..<frames.count {
        let frame = frames[index]
        for d in 0..<dimension { values[d * total + position] = frame[frame.startIndex + d] }
        position += 1
      }
    }
    var order = [Int](repeating: 0, count: total)
    for d in 0..<dimension {
      let base = d * total
      for index in 0..<total { order[index] = index }
      order.sort { values[base + $0] < values[base + $1] }
      for (rank, index) in order.enumerated() { values[base + index] = quantiles[rank] }
    }
    position = 0
    return speech.map { sentence in
      guard var sentence, sentence.frames.dimension == dimension else { return sentence }
      for index in 0..<sentence.count {
        for d in 0..<dimension {
          sentence.frames.values[index * dimension + d] = values[d * total + position]
        }
        position += 1
      }
      return sentence
    }
  }

  /// The standard normal distribution's quantiles at (r + ½) / n for each rank r below n.
  static func normalQuantiles(_ n: Int) -> [Float] {
    (0..<n).map { rank in Float(inverseNormal((Double(rank) + 0.5) / Double(n))) }
  }

  /// x such that Φ(x) = p (0 < p < 1), by Newton's steps on Φ (from erfc).
  static func inverseNormal(_ p: Double) -> Double {
    guard p != 0.5 else { return 0 }
    var x = 0.0
    for _ in 0..<50 {
      let cumulative = 0.5 * erfc(-x / 2.0.squareRoot())
      let density = exp(-x * x / 2) / (2 * Double.pi).squareRoot()
      let step = (cumulative - p) / max(density, 1e-300)
      x -= max(-1, min(1, step))
      if abs(step) < 1e-10 { break }
    }
    return x
  }
}
