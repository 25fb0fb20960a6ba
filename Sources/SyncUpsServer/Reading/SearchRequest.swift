import Foundation
import Hummingbird
import SyncUpsWire

/// Reading a search from a request's query string (the API's and the search page's): each
/// mistake a 400 in words.
extension TeamServer {
  /// What a search request asks for. `form`: the query string of an HTML form, where `+` is a
  /// space (never part of a word to search for).
  static func search(from request: Request, form: Bool = false) throws -> TeamSearchQuery {
    let parameters = request.uri.queryParameters
    let text = Self.parameter("q", of: request, form: form) ?? ""
    if let problem = SearchQuery.problem(in: text) ?? Self.querySyntax(in: text) {
      throw APIError(.badRequest, "cannot search for '\(text)': \(problem)")
    }
    var search = TeamSearchQuery(text: text)
    search.limit = try request.integer("limit", default: 50, in: 1...500)
    if let syncUp = parameters["syncUp"] {
      guard let id = UUID(uuidString: String(syncUp)) else {
        throw APIError(.badRequest, "?syncUp= takes a sync-up's id, not '\(syncUp)'")
      }
      search.syncUpID = id
    }
    if let speaker = Self.parameter("speaker", of: request, form: form), !speaker.isEmpty {
      // An attendee's name by its rules: PostgreSQL refuses a NUL in text outright.
      guard speaker.count <= Rules.longestName, !Rules.hasControlCharacters(speaker),
        !speaker.contains(where: \.isNewline)
      else {
        throw APIError(
          .badRequest, "?speaker= takes an attendee's name, one line without control characters")
      }
      search.speaker = speaker
    }
    if let since = parameters["since"] {
      guard let date = Self.date(String(since)) else {
        throw APIError(
          .badRequest, "?since= takes a day (2026-11-20) or an instant in ISO 8601, not '\(since)'")
      }
      search.since = date
    }
    return search
  }

  static func parameter(_ name: String, of request: Request, form: Bool) -> String? {
    guard let value = request.uri.queryParameters[Substring(name)].map(String.init) else {
      return nil
    }
    return form ? value.replacingOccurrences(of: "+", with: " ") : value
  }

  /// SQL or tsquery syntax (`&`, `|`, `!`, `<->`, `:`, `(`, `;`, `--`, a backslash): never part
  /// of what was said, so a query holding it is refused in words rather than read as text.
  /// (The query is only ever passed as a parameter of quoted lexemes; this is for the user.)
  static func querySyntax(in text: String) -> String? {
    let operators: Set<Character> = ["&", "|", "!", "<", ">", ":", "(", ")", ";", "\\", "="]
    guard let found = text.first(where: operators.contains) ?? (text.contains("--") ? "-" : nil)
    else { return nil }
    let shown = found == "-" ? "--" : String(found)
    return "'\(shown)' is query syntax, which search does not take; give words, a prefix "
      + "(migr*) or a \"phrase\""
  }

  /// A day (`2026-11-20`, from its midnight UTC) or an ISO 8601 instant, one of
  /// `Rules.representableDates` (nil otherwise).
  static func date(_ text: String) -> Date? {
    guard text.utf8.count <= 64, let date = anyDate(text),
      Rules.representableDates.contains(date)
    else { return nil }
    return date
  }

  private static func anyDate(_ text: String) -> Date? {
    if let instant = try? Date.ISO8601FormatStyle().parse(text) { return instant }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }
}
