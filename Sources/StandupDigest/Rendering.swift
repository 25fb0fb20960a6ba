import AudioCore
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
        "\(TranscriptText.jsonString(question.rawValue)):["
          + person[question].map { TranscriptText.jsonString($0.text) }.joined(
            separator: ",") + "]"
      }
      let sources = DigestQuestion.allCases.map { question in
        "\(TranscriptText.jsonString(question.rawValue)):["
          + person[question].map(source).joined(separator: ",")
          + "]"
      }
      return "{\"name\":\(TranscriptText.jsonString(person.name))," + lists.joined(separator: ",")
        + ",\"sources\":{" + sources.joined(separator: ",") + "}}"
    }
    return "{\"meeting\":\(TranscriptText.jsonString(meeting)),\"people\":["
      + people.joined(separator: ",") + "]}"
  }

  private func source(_ item: DigestItem) -> String {
    var fields = ["\"segment\":\(item.segment)", "\"time\":\(Self.seconds(item.time))"]
    if let person = item.person { fields.append("\"person\":\(TranscriptText.jsonString(person))") }
    fields.append("\"reason\":\(TranscriptText.jsonString(item.reason))")
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// Seconds with at most three decimals; a value that is no number is 0.
  static func seconds(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (min(max(value, -1e12), 1e12) * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
