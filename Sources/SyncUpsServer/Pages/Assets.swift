import Crypto
import Foundation
import Hummingbird
import NIOCore

/// The stylesheet and the script, compiled into the binary as string literals (nothing to
/// install beside it), served with an ETag of their content and a long cache life.
enum Assets {
  /// The paths carry a hash of the content, so a new version is never read from a cache.
  static let stylesheetPath = "/assets/app-\(version(stylesheet)).css"
  static let scriptPath = "/assets/app-\(version(script)).js"

  static func version(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
  }

  static func response(_ file: String) throws -> Response {
    let (text, type): (String, String)
    switch "/assets/" + file {
    case stylesheetPath: (text, type) = (stylesheet, "text/css; charset=utf-8")
    case scriptPath: (text, type) = (script, "text/javascript; charset=utf-8")
    default: throw APIError(.notFound, "there is no asset \(file) here")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: type, .cacheControl: "public, max-age=31536000, immutable",
        .xContentTypeOptions: "nosniff",
      ], body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// Each theme's colour and the text colour drawn on it (as the laptop's themes have them).
  static let themeColors: [(String, String, String)] = [
    ("bubblegum", "#ed89ca", "#000"), ("buttercup", "#ffe9a4", "#000"),
    ("indigo", "#3a0063", "#fff"), ("lavender", "#cdc5ff", "#000"),
    ("magenta", "#a5236f", "#fff"), ("navy", "#000a66", "#fff"), ("orange", "#ff8a42", "#000"),
    ("oxblood", "#4a0006", "#fff"), ("periwinkle", "#8783ff", "#000"),
    ("poppy", "#ff5e5e", "#000"), ("purple", "#924dfe", "#fff"), ("seafoam", "#cbf0e2", "#000"),
    ("sky", "#6e99ff", "#000"), ("tan", "#c29b75", "#000"), ("teal", "#228e9e", "#000"),
    ("yellow", "#ffdf4d", "#000"),
  ]

  static let stylesheet =
    themeColors.map { ".theme-\($0.0){--theme:\($0.1);--on-theme:\($0.2)}" }.joined(separator: "\n")
    + "\n" + layout
}
