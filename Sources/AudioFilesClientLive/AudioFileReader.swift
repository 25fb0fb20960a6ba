import AudioCore
import AudioFilesClient
import CSampleRate
import CSndfile
import Foundation

/// Reads any file libsndfile reads, a block at a time, and hands out 16 kHz mono 16-bit chunks:
/// down-mixed by averaging the channels, resampled with libsamplerate. Memory stays small
/// whatever the file's length. Not thread-safe: one reader per task.
public final class AudioFileReader {
  public let path: String
  public let info: AudioFileInfo
  public let chunkSamples: Int

  private let file: OpaquePointer
  private var resampler: OpaquePointer?
  private let ratio: Double
  private var framesRead = 0
  /// False for a FLAC whose header does not say how long it is.
  private let lengthIsKnown: Bool
  private var sourceEnded = false
  private var flushed = false
  private var input: [Float]
  private var mono: [Float] = []
  private var output: [Float] = []
  private var ready: [Int16] = []
  private var nextStartSample = 0
  private static let blockFrames = 4_096

  public init(path: String, chunkSamples: Int = AudioFormat.chunkSamples) throws(AudioFileError) {
    self.path = path
    self.chunkSamples = chunkSamples
    try Self.checkIsRegularFile(path)

    var sfInfo = SF_INFO()
    guard let file = sf_open(path, Int32(SFM_READ), &sfInfo) else {
      throw .notAudio(path: path, reason: String(cString: sf_strerror(nil)))
    }
    self.file = file
    // A FLAC whose writer was killed says 0 frames: FLAC's "unknown length". It is read whole.
    let isFLAC = sfInfo.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_FLAC)
    lengthIsKnown = !(isFLAC && (sfInfo.frames == 0 || sfInfo.frames == Int64.max))
    info = AudioFileInfo(
      sampleRate: Int(sfInfo.samplerate), channels: Int(sfInfo.channels),
      frames: lengthIsKnown ? Int(sfInfo.frames) : 0)
    guard info.sampleRate > 0, info.channels > 0 else {
      sf_close(file)
      throw .notAudio(path: path, reason: "no sample rate or channels")
    }
    if lengthIsKnown, info.frames == 0 {
      sf_close(file)
      throw .empty(path: path)
    }
    // A WAV whose data ends before its header says: libsndfile quietly shortens it; its log tells.
    if Self.isTruncated(log: Self.log(of: file)) {
      sf_close(file)
      throw .truncated(path: path)
    }
    input = [Float](repeating: 0, count: Self.blockFrames * info.channels)
    ratio = Double(AudioFormat.sampleRate) / Double(info.sampleRate)
    if info.sampleRate != AudioFormat.sampleRate {
      var error: Int32 = 0
      resampler = src_new(Int32(SRC_SINC_MEDIUM_QUALITY), 1, &error)
      if resampler == nil {
        sf_close(file)
        throw .unreadable(path: path, reason: String(cString: src_strerror(error)))
      }
    }
  }

  deinit {
    sf_close(file)
    if let resampler { src_delete(resampler) }
  }

  /// The next chunk of `chunkSamples` samples (the last may be shorter); nil at the end.
  public func next() throws(AudioFileError) -> AudioChunk? {
    while ready.count < chunkSamples, !flushed {
      try fill()
    }
    guard !ready.isEmpty else { return nil }
    let count = min(chunkSamples, ready.count)
    let chunk = AudioChunk(samples: Array(ready[..<count]), startSample: nextStartSample)
    ready.removeFirst(count)
    nextStartSample += count
    return chunk
  }

  /// Reads the whole rest of the file (for short files and tests).
  public func readAll() throws(AudioFileError) -> [Int16] {
    var samples: [Int16] = []
    while let chunk = try next() { samples += chunk.samples }
    return samples
  }

  /// Reads one block from the file and converts it.
  private func fill() throws(AudioFileError) {
    var count = 0
    if !sourceEnded {
      count = input.withUnsafeMutableBufferPointer { buffer in
        Int(sf_readf_float(file, buffer.baseAddress, sf_count_t(Self.blockFrames)))
      }
      framesRead += count
      if count == 0 {
        sourceEnded = true
        if !lengthIsKnown {
          // Whatever could be decoded is the file; a frame cut short by the kill is not audio.
          if framesRead == 0 { throw .empty(path: path) }
        } else if sf_error(file) != 0 || framesRead < info.frames {
          throw .truncated(path: path)
        }
      }
    }
    let channels = info.channels
    mono.removeAll(keepingCapacity: true)
    if channels == 1 {
      mono.append(contentsOf: input[..<count])
    } else {
      for frame in 0..<count {
        var sum: Float = 0
        for channel in 0..<channels { sum += input[frame * channels + channel] }
        mono.append(sum / Float(channels))
      }
    }
    if let resampler {
      try resample(resampler, endOfInput: sourceEnded)
    } else {
      convert(mono[...])
      if sourceEnded { flushed = true }
    }
  }

  private func resample(_ resampler: OpaquePointer, endOfInput: Bool) throws(AudioFileError) {
    var offset = 0
    repeat {
      let capacity = Int(Double(mono.count - offset) * ratio) + 256
      if output.count < capacity { output = [Float](repeating: 0, count: capacity) }
      var used = 0
      var produced = 0
      let status: Int32 = mono.withUnsafeBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
          var data = SRC_DATA()
          data.data_in = inBuffer.baseAddress.map { $0 + offset }
          data.input_frames = Int(mono.count - offset)
          data.data_out = outBuffer.baseAddress
          data.output_frames = Int(outBuffer.count)
          data.end_of_input = endOfInput ? 1 : 0
          data.src_ratio = ratio
          let status = src_process(resampler, &data)
          used = Int(data.input_frames_used)
          produced = Int(data.output_frames_gen)
          return status
        }
      }
      if status != 0 {
        throw .unreadable(path: path, reason: String(cString: src_strerror(status)))
      }
      offset += used
      convert(output[..<produced])
      if endOfInput, offset >= mono.count, produced == 0 {
        flushed = true
        return
      }
    } while offset < mono.count || endOfInput
  }

  private func convert(_ samples: ArraySlice<Float>) {
    ready.reserveCapacity(ready.count + samples.count)
    for sample in samples {
      let scaled = (sample * 32_768).rounded()
      ready.append(Int16(max(-32_768, min(32_767, scaled))))
    }
  }

  /// Only regular files are read: a FIFO would block the open, and a device such as /dev/zero
  /// has no size and no audio header.
  private static func checkIsRegularFile(_ path: String) throws(AudioFileError) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      let error = errno
      if error == ENOENT || error == ENOTDIR { throw .notFound(path: path) }
      if error == EACCES { throw .unreadable(path: path, reason: "permission denied") }
      throw .unreadable(path: path, reason: String(cString: strerror(error)))
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .unreadable(path: path, reason: "it is a directory")
    case S_IFIFO: throw .notRegularFile(path: path, kind: "a named pipe (FIFO)")
    case S_IFCHR: throw .notRegularFile(path: path, kind: "a character device")
    case S_IFBLK: throw .notRegularFile(path: path, kind: "a block device")
    case S_IFSOCK: throw .notRegularFile(path: path, kind: "a socket")
    default: throw .notRegularFile(path: path, kind: "not a file")
    }
    guard access(path, R_OK) == 0 else {
      throw .unreadable(path: path, reason: "permission denied")
    }
    if status.st_size == 0 { throw .empty(path: path) }
  }

  /// libsndfile's log has "data : 175200 (should be 79956)" when the data chunk is cut short.
  static func isTruncated(log: String) -> Bool {
    for line in log.split(separator: "\n") where line.hasPrefix("data") || line.hasPrefix("SSND") {
      let numbers = line.split { !$0.isNumber }.compactMap { Int($0) }
      if line.contains("should be"), numbers.count >= 2, numbers[1] < numbers[0] { return true }
    }
    return log.contains("too long")
  }

  private static func log(of file: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 4_096)
    _ = buffer.withUnsafeMutableBufferPointer { pointer in
      sf_command(file, Int32(SFC_GET_LOG_INFO), pointer.baseAddress, Int32(pointer.count))
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
