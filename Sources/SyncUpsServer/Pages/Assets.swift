import Crypto
import Foundation
import Hummingbird
import NIOCore

/// The stylesheet and the script (`Resources/style.css` and `Resources/script.js`), compiled
/// into the binary (nothing to install beside it), served with a long cache life: their paths
/// carry a hash of the content, so a new version is never read from a cache.
enum Assets {
  static let stylesheet = PackageResources.style_css
  static let script = PackageResources.script_js

  static let stylesheetPath = "/assets/app-\(version(stylesheet)).css"
  static let scriptPath = "/assets/app-\(version(script)).js"

  static func version(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).prefix(6).map { String(format: "%02x", $0) }.joined()
  }

  static func response(_ file: String) throws -> Response {
    let (bytes, type): ([UInt8], String)
    switch "/assets/" + file {
    case stylesheetPath: (bytes, type) = (stylesheet, "text/css; charset=utf-8")
    case scriptPath: (bytes, type) = (script, "text/javascript; charset=utf-8")
    default: throw APIError(.notFound, "there is no asset \(file) here")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: type, .cacheControl: "public, max-age=31536000, immutable",
        .xContentTypeOptions: "nosniff",
      ], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
