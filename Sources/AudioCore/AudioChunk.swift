/// A run of 16 kHz mono 16-bit samples, and where it starts in its stream.
public struct AudioChunk: Sendable, Equatable, Hashable, Codable {
  /// The samples, 16 kHz mono signed 16-bit.
  public var samples: [Int16]
  /// Index of the first sample in the whole stream (0 for the stream's first chunk).
  public var startSample: Int

  public init(samples: [Int16], startSample: Int) {
    self.samples = samples
    self.startSample = startSample
  }

  /// Seconds from the start of the stream to this chunk's first sample.
  public var start: Double { AudioFormat.seconds(samples: startSample) }
  /// Seconds this chunk lasts.
  public var duration: Double { AudioFormat.seconds(samples: samples.count) }
  /// Seconds from the start of the stream to just after this chunk's last sample.
  public var end: Double { AudioFormat.seconds(samples: startSample + samples.count) }
}
