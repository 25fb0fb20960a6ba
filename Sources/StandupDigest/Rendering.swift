import Foundation

/// The digest as JSON, as `syncups digest --format json` writes it.
extension Digest {
  /// `{"meeting": ID, "people": [{"name", "yesterday", "today", "blockers", "sources"}]}`: each
  /// item a string; `sources` holds, per question and in the same order, where each was said
  /// (`segment`, `time` in seconds), the attendee a blocker names (`person`) and the rule that
  /// took it (`reason`). One line, keys in this order.
  public func json(meeting: String) -> String {
    let people = people.map { person in
      let lists = DigestQuestion.allCases.map { question in
        "\(quoted(question.rawValue)):["
          + person[question].map { quoted($0.text) }.joined(
            separator: ",") + "]"
      }
      let sources = DigestQuestion.allCases.map { question in
        "\(quoted(question.rawValue)):[" + person[question].map(source).joined(separator: ",")
          + "]"
      }
      return "{\"name\":\(quoted(person.name))," + lists.joined(separator: ",")
        + ",\"sources\":{" + sources.joined(separator: ",") + "}}"
    }
    return "{\"meeting\":\(quoted(meeting)),\"people\":[" + people.joined(separator: ",") + "]}"
  }

  private func source(_ item: DigestItem) -> String {
    var fields = ["\"segment\":\(item.segment)", "\"time\":\(Self.seconds(item.time))"]
    if let person = item.person { fields.append("\"person\":\(quoted(person))") }
    fields.append("\"reason\":\(quoted(item.reason))")
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// Seconds with at most three decimals; a value that is no number is 0.
  static func seconds(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (min(max(value, -1e12), 1e12) * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}

/// A JSON string: quotes, backslashes and control characters escaped.
func quoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
      out += String(format: "\\u%04x", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}
