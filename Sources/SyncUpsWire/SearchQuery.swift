import Foundation

/// `syncups search`'s query language, parsed once for both stores: words (all must occur, in
/// any order), prefixes (`migr*`) and phrases in quotes (`"staging server"`).
///
/// The laptop's FTS5 query (`TranscriptSearch.matchExpression`) and PostgreSQL's are both made
/// from it, so both are asked the same thing; nothing the user types is ever query syntax.
public struct SearchQuery: Equatable, Sendable {
  /// One word or phrase to find; `prefix` makes its last word a prefix.
  public struct Term: Equatable, Sendable {
    /// The term as typed, without quotes and stars (what FTS5 is given, quoted).
    public var text: String
    public var prefix: Bool

    public init(text: String, prefix: Bool) {
      self.text = text
      self.prefix = prefix
    }

    /// The words of the term as both tokenizers split them: runs of letters and digits.
    public var words: [String] {
      text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
  }

  public var terms: [Term]

  public init(terms: [Term]) {
    self.terms = terms
  }

  /// Reads `text`; a term with no letter or digit is dropped, so the query may have no terms.
  public init(_ text: String) {
    var terms: [Term] = []
    var rest = Substring(text)
    while let first = rest.first {
      if first.isWhitespace {
        rest = rest.dropFirst()
        continue
      }
      var term: Substring
      if first == "\"" {
        let body = rest.dropFirst()
        let close = body.firstIndex(of: "\"") ?? body.endIndex
        term = body[..<close]
        rest = close == body.endIndex ? body[close...] : body[body.index(after: close)...]
      } else {
        let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
        term = rest[..<end]
        rest = rest[end...]
      }
      var prefix = false
      if term.hasSuffix("*") {
        prefix = true
        term = term.dropLast()
      } else if rest.first == "*" {
        prefix = true
        rest = rest.dropFirst()
      }
      let words = term.filter { $0 != "\"" && $0 != "*" }
      guard words.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
      terms.append(Term(text: String(words), prefix: prefix))
    }
    self.terms = terms
  }

  /// Why `text` is not the query the user meant, in words for a message (nil when it is fine):
  /// an unclosed `"`, a `*` that does not end a word, or nothing to look for.
  public static func problem(in text: String) -> String? {
    if text.filter({ $0 == "\"" }).count % 2 == 1 {
      return "a quote is not closed; put a phrase between two quotes, as in \"staging server\""
    }
    let characters = Array(text)
    for (index, character) in characters.enumerated() where character == "*" {
      let before = index > 0 ? characters[index - 1] : " "
      let after = index + 1 < characters.count ? characters[index + 1] : " "
      let endsWord = before.isLetter || before.isNumber || before == "\""
      guard endsWord, after.isWhitespace || after == "\"" else {
        return "a * must end a word, as in migr* (prefixes of at least one letter)"
      }
    }
    guard !SearchQuery(text).terms.isEmpty else {
      return "nothing to search for; give words, a prefix (migr*) or a \"phrase\""
    }
    return nil
  }

  /// An FTS5 MATCH expression in which every term is quoted (nil when there is nothing to find).
  public var fts5Match: String? {
    guard !terms.isEmpty else { return nil }
    return terms.map { "\"\($0.text)\"" + ($0.prefix ? "*" : "") }.joined(separator: " ")
  }

  /// A PostgreSQL `to_tsquery` text: each term's words in a row (`<->`), the last one a prefix
  /// (`:*`) when asked, terms joined by `&`. Every lexeme is letters and digits in quotes, so no
  /// input is tsquery syntax. Nil when there is nothing to find.
  public var tsquery: String? {
    let parts = terms.compactMap { term -> String? in
      let words = term.words
      guard !words.isEmpty else { return nil }
      let lexemes = words.enumerated().map { index, word in
        "'\(word)'" + (term.prefix && index == words.count - 1 ? ":*" : "")
      }
      return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
    }
    return parts.isEmpty ? nil : parts.joined(separator: " & ")
  }
}
