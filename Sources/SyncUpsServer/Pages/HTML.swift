import AudioCore
import Foundation
import Hummingbird
import NIOCore

/// What every page is written with: one escaping function (all text from the database, the
/// query and the URL goes through it), and the few numbers and dates pages show.
enum HTML {
  /// `text` safe inside an element or a quoted attribute: `& < > " '` as entities.
  static func escape(_ text: some StringProtocol) -> String {
    var out = ""
    append(text, to: &out)
    return out
  }

  /// Appends `text`, escaped, to `out` (the fast path: most words need nothing escaped).
  static func append(_ text: some StringProtocol, to out: inout String) {
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 })
    else {
      out += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
  }

  /// A query parameter's value, percent-encoded (then escaped where it goes into a page).
  static func queryValue(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  /// Seconds with two decimals (`12.34`), as `data-start`, `data-end` and `?t=` take them;
  /// integer arithmetic, as a page writes two of these for each of thousands of words.
  static func seconds(_ value: Double) -> String {
    let hundredths = Int(saturating: (max(0, value.isFinite ? value : 0) * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
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

  /// `<time datetime="2026-11-21T14:01:00Z">2026-11-21 14:01 UTC</time>`.
  static func time(_ date: Date) -> String {
    let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ number: Int?) -> String {
      let number = number ?? 0
      return number < 10 ? "0\(number)" : "\(number)"
    }
    let day = "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    let time = "\(two(parts.hour)):\(two(parts.minute))"
    return "<time datetime=\"\(day)T\(time):\(two(parts.second))Z\">\(day) \(time) UTC</time>"
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
