import Foundation

/// Why a pushed or pulled document is not kept: which one, and the rule it breaks.
public struct DocumentProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// One line, whatever the document held: control characters and line breaks are shown as
  /// escapes (`\u{1B}`), so a problem printed in a terminal cannot drive it.
  public var description: String

  public init(_ description: String) {
    var line = ""
    for scalar in description.unicodeScalars {
      if scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
        || scalar == "\u{2028}" || scalar == "\u{2029}"
      {
        line += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        line.unicodeScalars.append(scalar)
      }
    }
    self.description = line
  }
}

extension HybridClock {
  /// How far ahead of the receiver's own time a clock may be (seconds). A clock further ahead
  /// would win every later edit and push every reader's clock past what it can write, so the
  /// server refuses it and a laptop does not adopt it, as hybrid logical clocks do with a
  /// maximum drift.
  public static let maximumDrift: TimeInterval = 5 * 60

  /// True when this reading is more than `maximumDrift` ahead of `now`.
  public func isAhead(of now: Date) -> Bool {
    Double(milliseconds) > (now.timeIntervalSince1970 + Self.maximumDrift) * 1000
  }
}

extension SyncUpDocument {
  /// The sync-up by the rules `syncups add` uses (title, attendees, duration, theme,
  /// vocabulary), each field's clock no later than the drift allows; or why not.
  public func check(now: Date) throws(DocumentProblem) {
    let name = "sync-up \(id.uuidString.lowercased())"
    do {
      _ = try Rules.title(title.value)
      var names: [String] = []
      for attendee in attendees.value {
        guard let name = try Rules.name(attendee.name) else { throw SyncUpProblem.blankName }
        names.append(name)
      }
      try Rules.attendees(names)
      try Rules.duration(seconds: duration.value)
      try Rules.theme(theme.value)
      _ = try Rules.vocabulary(vocabulary.value, attendees: names)
      if let wordsForgotten { try Rules.meeting(date: wordsForgotten.value, length: nil) }
    } catch {
      throw DocumentProblem("\(name): \(error)")
    }
    guard Set(attendees.value.map(\.id)).count == attendees.value.count else {
      throw DocumentProblem("\(name): two attendees have the same id")
    }
    try Self.checkClocks(
      [title.clock, theme.clock, duration.clock, attendees.clock, vocabulary.clock, deleted.clock]
        + [wordsForgotten?.clock].compactMap { $0 }, of: name, now: now)
  }

  static func checkClocks(_ clocks: [HybridClock], of name: String, now: Date)
    throws(DocumentProblem)
  {
    guard let ahead = clocks.first(where: { $0.isAhead(of: now) }) else { return }
    throw DocumentProblem(
      "\(name) is stamped \(ahead), more than \(Int(HybridClock.maximumDrift / 60)) minutes "
        + "ahead of this computer's time; check the date and time of the computer that wrote it")
  }
}

extension MeetingDocument {
  /// The meeting by the rules an import uses (date, length, segment and word times within a
  /// day, bounded text and counts), its audio one of the audio types, its clock no later than
  /// the drift allows (its segments' clocks too); or why not.
  public func check(now: Date) throws(DocumentProblem) {
    let name = "meeting \(id.uuidString.lowercased())"
    do {
      try Rules.meeting(date: date, length: length, segments: segments)
      if let audio { try Self.check(audio) }
    } catch {
      throw DocumentProblem("\(name): \(error)")
    }
    try SyncUpDocument.checkClocks([clock] + segments.compactMap(\.clock), of: name, now: now)
  }

  static func check(_ audio: Audio) throws(MeetingProblem) {
    guard Rules.audioTypes.contains(audio.type) else {
      throw .audio(
        "is of type '\(audio.type.prefix(60))', which is not one of "
          + Rules.audioTypes.sorted().joined(separator: ", "))
    }
    guard audio.sha256.count == 64,
      audio.sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else {
      throw .audio("is named by '\(audio.sha256.prefix(80))', not a SHA-256 in lowercase hex")
    }
    guard (0...Rules.largestAudio).contains(audio.size) else {
      throw .audio("has a size of \(audio.size) bytes; at most \(Rules.largestAudio) are kept")
    }
  }
}

extension Rules {
  /// A meeting's date and length, its size and each segment (`MeetingDocument.Segment.check`):
  /// the one walk of a meeting's segments, for a push, a pull (`MeetingDocument.check`) and an
  /// import or a recording (`Meeting.validated`).
  public static func meeting(
    date: Date, length: Double?, segments: [MeetingDocument.Segment]
  ) throws(MeetingProblem) {
    try meeting(date: date, length: length)
    let words = segments.reduce(0) { $0 + $1.words.count + ($1.original?.words.count ?? 0) }
    try size(segments: segments.count, words: words)
    for (index, segment) in segments.enumerated() { try segment.check(number: index + 1) }
  }
}

extension MeetingDocument.Segment {
  /// Segment `number` (from 1) by the rules, what was recognised too: its times, speaker and
  /// text (`Rules.segment`), each word (`Rules.word`). A push's meetings and a correction
  /// (the server's and the laptop's) are both checked here.
  public func check(number: Int) throws(MeetingProblem) {
    try Rules.segment(number, start: start, end: end, speaker: speaker, text: text)
    var spoken = words
    if let original {
      try Rules.segment(
        number, start: start, end: end, speaker: original.speaker, text: original.text)
      spoken += original.words
    }
    for word in spoken {
      try Rules.word(
        of: number, start: word.start, end: word.end, confidence: word.confidence,
        text: word.text)
    }
  }
}

extension Push {
  /// Every document of the push by the rules, or the first that breaks one.
  public func check(now: Date) throws(DocumentProblem) {
    for syncUp in syncUps { try syncUp.check(now: now) }
    for meeting in meetings { try meeting.check(now: now) }
    for person in people { try person.check(now: now) }
    guard blockers.count <= Rules.mostClosingsInAPush else {
      throw DocumentProblem(
        "the push closes \(blockers.count) blockers; a push closes at most "
          + "\(Rules.mostClosingsInAPush) (send the rest in the next)")
    }
    for blocker in blockers { try blocker.check() }
  }
}
