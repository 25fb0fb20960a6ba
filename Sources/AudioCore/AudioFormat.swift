/// The one audio format SyncUps works in: what the speech decoder expects.
public enum AudioFormat {
  /// Samples per second.
  public static let sampleRate = 16_000
  /// Mono.
  public static let channels = 1
  /// Signed 16-bit little-endian samples.
  public static let bytesPerSample = 2
  /// Samples in a default chunk: 100 ms, the size files and replays deliver.
  public static let chunkSamples = 1_600

  /// Seconds covered by `samples` samples.
  public static func seconds(samples: Int) -> Double {
    Double(samples) / Double(sampleRate)
  }
}
