import Foundation
import NIOCore

/// What a sign-in form brings: its fields, and the page to go to afterwards (only ever one of
/// this server's own).
extension SignInPage {
  /// Where to go after signing in: a path on this server, else the sync-ups.
  static func safeNext(_ text: String?) -> String {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
      !text.hasPrefix("/sign-"), text.count < 2000,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else { return "/" }
    return text
  }

  /// `application/x-www-form-urlencoded` fields.
  static func form(_ body: ByteBuffer) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in String(buffer: body).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      fields[decoded(parts[0])] = parts.count == 2 ? decoded(parts[1]) : ""
    }
    return fields
  }
}
