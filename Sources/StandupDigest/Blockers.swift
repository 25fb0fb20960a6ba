import Foundation

/// Blockers across meetings: each raised by a person in a meeting's digest, open until that
/// person says in a later meeting that it is resolved ("i finally got the kafka credentials"):
/// a clause of theirs with a word of resolution (`got`, `fixed`, `resolved`, `unblocked`, ...),
/// no blocker cue, and a word of the blocker's own (`kafka`, `credentials`). The same blocker
/// raised again while open stays one entry.
public enum BlockerLog {
  /// A meeting as the log reads it.
  public struct Meeting: Sendable {
    public var id: String
    public var syncUp: String
    public var date: Date
    public var segments: [DigestSegment]
    public var attendees: [String]

    public init(
      id: String, syncUp: String, date: Date, segments: [DigestSegment], attendees: [String]
    ) {
      self.id = id
      self.syncUp = syncUp
      self.date = date
      self.segments = segments
      self.attendees = attendees
    }
  }

  /// Where something was said: a meeting, its date, a segment and its time, the phrase.
  public struct Moment: Equatable, Sendable {
    public var meeting: String
    public var date: Date
    public var segment: Int
    public var time: Double
    public var text: String

    public init(meeting: String, date: Date, segment: Int, time: Double, text: String) {
      self.meeting = meeting
      self.date = date
      self.segment = segment
      self.time = time
      self.text = text
    }
  }

  public struct Entry: Equatable, Sendable {
    public var syncUp: String
    public var person: String
    /// The attendee the blocker names, when it names one.
    public var named: String?
    public var raised: Moment
    /// Where its owner said it was resolved; nil while it is open.
    public var resolved: Moment?

    public init(
      syncUp: String, person: String, named: String?, raised: Moment, resolved: Moment? = nil
    ) {
      self.syncUp = syncUp
      self.person = person
      self.named = named
      self.raised = raised
      self.resolved = resolved
    }
  }

  /// Every blocker of `meetings` (given in any order; read oldest first), newest raised first.
  public static func entries(_ meetings: [Meeting]) -> [Entry] {
    var entries: [Entry] = []
    for meeting in meetings.sorted(by: { $0.date < $1.date }) {
      resolve(&entries, in: meeting)
      let digest = Digest(segments: meeting.segments, attendees: meeting.attendees)
      for person in digest.people {
        for item in person.blockers {
          let words = contentWords(item.text)
          let again = entries.contains {
            $0.resolved == nil && $0.syncUp == meeting.syncUp && $0.person == person.name
              && words.intersection(contentWords($0.raised.text)).count * 2 >= max(1, words.count)
          }
          guard !again else { continue }
          entries.append(
            Entry(
              syncUp: meeting.syncUp, person: person.name, named: item.person,
              raised: Moment(
                meeting: meeting.id, date: meeting.date, segment: item.segment, time: item.time,
                text: item.text)))
        }
      }
    }
    return entries.sorted { $0.raised.date > $1.raised.date }
  }

  /// Marks the open blockers of `meeting`'s sync-up that their owners say are resolved in it.
  private static func resolve(_ entries: inout [Entry], in meeting: Meeting) {
    // A name alone says nothing of what was needed ("i paired with femi").
    let names = Set(
      meeting.attendees.flatMap { $0.lowercased().split(separator: " ") }.map(String.init))
    for index in entries.indices
    where entries[index].resolved == nil && entries[index].syncUp == meeting.syncUp {
      let owner = entries[index].person
      let wanted = contentWords(entries[index].raised.text).subtracting(names)
      guard !wanted.isEmpty else { continue }
      for segment in meeting.segments
      where segment.speaker.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(owner)
        == .orderedSame
      {
        let words = SegmentWords(segment.text)
        let said = Clauses.split(words.tokens).first { clause in
          let clauseWords = clause.tokens.map(\.word)
          return clauseWords.contains(where: resolutionWords.contains)
            && !clauseWords.contains(where: Words.blockerWords.contains)
            && !clauseWords.contains("not") && !wanted.isDisjoint(with: clauseWords)
        }
        guard let said else { continue }
        let first = said.tokens.first?.source ?? 0
        let last = min(said.tokens.last?.source ?? 0, words.surface.count - 1)
        entries[index].resolved = Moment(
          meeting: meeting.id, date: meeting.date, segment: segment.number, time: segment.start,
          text: first <= last ? words.surface[first...last].joined(separator: " ") : "")
        break
      }
    }
  }

  /// Words that say a need was met.
  static let resolutionWords: Set<String> = [
    "got", "received", "resolved", "unblocked", "fixed", "sorted", "solved", "arrived", "came",
    "works", "working", "merged", "approved", "signed", "sent", "gave", "granted", "finally",
    "back", "published", "answered", "decided", "confirmed", "done", "cleared",
  ]

  /// The words of a blocker that say what it is about: not its cue, not filler, not short.
  static func contentWords(_ text: String) -> Set<String> {
    let cues: Set<String> = [
      "blocked", "waiting", "stuck", "need", "needs", "until", "wait", "still", "new", "team",
      "help", "someone", "access", "give", "review",
    ]
    return Set(
      SegmentWords(text).tokens.map(\.word).filter {
        $0.count >= 3 && !Words.empty.contains($0) && !cues.contains($0)
      })
  }
}
