import Foundation
import Hummingbird
import SyncUpsWire

/// `/search?q=`: the API's search (same query language, same matches), each result with its
/// sync-up, date, speaker and the segment with the match marked, linking to that moment.
enum SearchPage {
  static func render(
    query: String, hits: [SearchHit], marked: [String], problem: String?, person: Person
  ) -> String {
    var content: Markup = "<h1>Search</h1>\n"
    if let problem {
      content += "<p class=\"problem\" role=\"alert\">\(Pages.sentence(problem))</p>\n"
    } else if query.isEmpty {
      content += "<p class=\"hint\">Type words, a prefix (<code>migr*</code>) or a phrase in "
      content += "quotes (<code>\"staging server\"</code>) in the box above.</p>\n"
    } else {
      content += "<p class=\"meta\" role=\"status\">"
      content +=
        hits.isEmpty
        ? "Nothing matches " : hits.count == 1 ? "1 match for " : "\(hits.count) matches for "
      content += "“\(query)”.</p>\n"
    }
    content += "<ol class=\"results\">\n"
    for (hit, text) in zip(hits, marked) {
      content += "<li class=\"card\"><p class=\"meta\">\(hit.syncUp) · \(time: hit.date)</p>\n"
      content += "<p><a href=\"/meetings/\(hit.meeting)?t=\(seconds: hit.start)\"><strong>"
      content += "\(hit.speaker.isEmpty ? "Unknown" : hit.speaker)</strong> at \(clock: hit.start)"
      content += "</a></p>\n<p class=\"said\">\(Self.mark(text))</p></li>\n"
    }
    content += "</ol>\n"
    return Pages.page(
      title: query.isEmpty ? "Search" : "Search: \(query)", person: person,
      query: query, content: content)
  }

  /// Text in which what lies between `\u{1}` and `\u{2}` is in `<mark>`.
  static func mark(_ text: String) -> Markup {
    var out = Markup()
    var open = false
    var run = ""
    func flush() {
      out.text(run)
      run = ""
    }
    for character in text {
      if character == "\u{1}", !open {
        flush()
        out += "<mark>"
        open = true
      } else if character == "\u{2}", open {
        flush()
        out += "</mark>"
        open = false
      } else if character != "\u{1}", character != "\u{2}" {
        run.append(character)
      }
    }
    flush()
    if open { out += "</mark>" }
    return out
  }
}

extension TeamServer {
  func searchPage(_ request: Request, context: TeamContext) async throws -> Response {
    let person = try context.requirePerson()
    let query = Self.parameter("q", of: request, form: true) ?? ""
    if query.trimmingCharacters(in: .whitespaces).isEmpty {
      return .html(
        SearchPage.render(query: "", hits: [], marked: [], problem: nil, person: person))
    }
    let search: TeamSearchQuery
    do {
      search = try Self.search(from: request, form: true)
    } catch let error as APIError {
      return .html(
        SearchPage.render(
          query: query, hits: [], marked: [], problem: error.message, person: person),
        status: error.status)
    }
    let hits = try await store.search(search, in: context.teamIDs)
    let marked = try await store.marked(hits.map(\.text), query: search.query)
    return .html(
      SearchPage.render(query: query, hits: hits, marked: marked, problem: nil, person: person))
  }
}
