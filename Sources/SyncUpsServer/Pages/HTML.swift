import AudioCore
import Foundation
import Hummingbird
import NIOCore

/// The few numbers, dates and query values pages show. The pages themselves are `Markup`,
/// which escapes every value put into it; `escape` is the same escaping, as a `String`.
enum HTML {
  /// `text` safe inside an element or a quoted attribute: `& < > " '` as entities.
  static func escape(_ text: some StringProtocol) -> String {
    var markup = Markup()
    markup.text(text)
    return markup.description
  }

  /// A query parameter's value, percent-encoded (then escaped where it goes into a page).
  static func queryValue(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  /// Seconds with two decimals (`12.34`), as `data-start`, `data-end` and `?t=` take them.
  static func seconds(_ value: Double) -> String {
    var markup = Markup()
    markup.seconds(value)
    return markup.description
  }

  /// Hundredths of a second, never negative, `Int.max` at most (integer arithmetic for
  /// `seconds`; written out rather than with the generic `Int(saturating:)`, which is not
  /// specialized across modules and would cost a lookup for each of a page's thousands of times).
  static func hundredths(_ value: Double) -> Int {
    let hundredths = (max(0, value.isFinite ? value : 0) * 100).rounded()
    return hundredths >= Double(Int.max) ? .max : Int(hundredths)
  }

  /// `m:ss`, or `h:mm:ss` from an hour.
  static func clock(_ value: Double) -> String {
    let total = Int(saturating: max(0, value.isFinite ? value : 0))
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
    let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
    if hours > 0 { return "\(hours):" + (minutes < 10 ? "0\(minutes)" : "\(minutes)") + ":\(ss)" }
    return "\(minutes):\(ss)"
  }

  /// A length in words: `45 s`, `12 min`, `1 h 5 min`.
  static func length(_ value: Double) -> String {
    let total = Int(saturating: max(0, value.isFinite ? value.rounded() : 0))
    if total < 60 { return "\(total) s" }
    let minutes = total / 60
    return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
  }

  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// The day in UTC: `2026-11-21`.
  static func day(_ date: Date) -> String {
    let parts = utc.dateComponents([.year, .month, .day], from: date)
    return String(format: "%d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}

extension Response {
  /// A page: HTML that no other site may frame, whose scripts and styles come only from here,
  /// and that is never cached (it is someone's private page).
  static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
    var headers = Pages.securityHeaders
    headers[.contentType] = "text/html; charset=utf-8"
    headers[.cacheControl] = "no-store"
    return Response(
      status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
  }

  /// A redirect after a form or to the sign-in page (303: the next request is a GET).
  static func seeOther(_ location: String, headers extra: HTTPFields = [:]) -> Response {
    var headers = extra
    headers[.location] = location
    headers[.cacheControl] = "no-store"
    return Response(status: .seeOther, headers: headers)
  }
}
