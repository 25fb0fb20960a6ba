import AudioCore
import Foundation
import Logging

/// The log as one JSON object a line on stderr (`serve --log-format json`), for log
/// collectors: `{"time":…,"level":…,"label":…,"message":…,"metadata":{…}}`.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private let write: @Sendable (String) -> Void

  /// Lines to stderr, one write each, under a lock (lines from many threads never interleave).
  public static func standardError(label: String) -> JSONLogHandler {
    JSONLogHandler(label: label, provider: nil) { line in
      StandardError.lock.withLock { FileHandle.standardError.write(Data(line.utf8)) }
    }
  }

  init(
    label: String, provider: Logger.MetadataProvider?,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.label = label
    self.metadataProvider = provider
    self.write = write
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    let level = event.level
    let message = event.message
    var all = metadata
    if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
    if let explicit = event.metadata { all.merge(explicit) { $1 } }
    if let error = event.error { all["error"] = .string(String(describing: error)) }
    let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
    var text = #"{"time":\#(Self.quoted(time)),"level":\#(Self.quoted(level.rawValue)),"#
    text += #""label":\#(Self.quoted(label)),"message":\#(Self.quoted(message.description))"#
    if !all.isEmpty { text += #","metadata":\#(Self.json(.dictionary(all)))"# }
    write(text + "}\n")
  }

  static func json(_ value: Logger.Metadata.Value) -> String {
    switch value {
    case .string(let text): quoted(text)
    case .stringConvertible(let value): quoted(value.description)
    case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
    case .dictionary(let values):
      "{"
        + values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(json($0.value))" }
        .joined(separator: ",") + "}"
    }
  }

  /// A JSON string: the one escaping of transcripts' JSON (`TranscriptText.jsonString`).
  static func quoted(_ text: String) -> String { TranscriptText.jsonString(text) }
}

private enum StandardError {
  static let lock = NSLock()
}
