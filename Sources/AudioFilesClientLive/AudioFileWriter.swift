import AudioCore
import AudioFilesClient
import CSndfile
import Foundation

/// Writes 16 kHz mono 16-bit audio to a FLAC, WAV or OGG file (chosen by the name's extension),
/// a chunk at a time. Call `close()` to finish the file. Not thread-safe.
public final class AudioFileWriter {
  public let path: String
  private var file: OpaquePointer?
  public private(set) var samplesWritten = 0

  public init(path: String) throws(AudioFileError) {
    self.path = path
    let format: Int32
    switch (path as NSString).pathExtension.lowercased() {
    case "flac": format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
    case "wav": format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
    case "ogg": format = Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
    default: throw .unsupportedFormat(path: path)
    }
    var info = SF_INFO()
    info.samplerate = Int32(AudioFormat.sampleRate)
    info.channels = Int32(AudioFormat.channels)
    info.format = format
    guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
      throw .writeFailed(path: path, reason: String(cString: sf_strerror(nil)))
    }
    self.file = file
  }

  deinit { try? close() }

  public func append(_ samples: [Int16]) throws(AudioFileError) {
    guard let file else { throw .writeFailed(path: path, reason: "already closed") }
    let written = samples.withUnsafeBufferPointer { buffer in
      sf_write_short(file, buffer.baseAddress, sf_count_t(buffer.count))
    }
    guard written == samples.count else {
      throw .writeFailed(path: path, reason: String(cString: sf_strerror(file)))
    }
    samplesWritten += samples.count
  }

  public func close() throws(AudioFileError) {
    guard let file else { return }
    self.file = nil
    let status = sf_close(file)
    if status != 0 {
      throw .writeFailed(path: path, reason: String(cString: sf_error_number(status)))
    }
  }
}
