import Foundation
import SyncUpsWire
import Testing

/// `WireJSON.bytes(of:)` writes what `WireJSON.encoder()` writes, byte for byte: every document
/// the server answers with, and the corners of strings, numbers, dates and keys.
@Suite struct JSONBytesTests {
  private func expectSameBytes<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = String(decoding: try WireJSON.encoder().encode(value), as: UTF8.self)
    let written = String(decoding: try WireJSON.bytes(of: value), as: UTF8.self)
    #expect(written == expected, sourceLocation: sourceLocation)
  }

  private static let clock = HybridClock(milliseconds: 1_785_795_200_123, device: "laptop-a")

  private static func meeting(original: Bool, audio: Bool) -> MeetingDocument {
    let words = [
      MeetingDocument.Word(text: "staging", start: 0.5, end: 1, confidence: 0.875),
      MeetingDocument.Word(text: "server", start: 1, end: 1.62, confidence: nil),
    ]
    return MeetingDocument(
      id: UUID(), syncUpID: UUID(), date: Date(timeIntervalSince1970: 1_785_795_200.75),
      length: 186.4,
      segments: [
        MeetingDocument.Segment(
          speaker: "Ana", start: 0, end: 1.62, text: "staging server", words: words,
          original: original
            ? MeetingDocument.Original(speaker: "Ben", text: "staging serve", words: words) : nil),
        MeetingDocument.Segment(
          speaker: "Zoë \"Z\"", start: 2, end: 3, text: "a/b\\c\n", words: []),
      ],
      audio: audio
        ? MeetingDocument.Audio(
          sha256: String(repeating: "ab", count: 32), size: 1 << 40, type: "audio/flac")
        : nil,
      deleted: !audio, clock: clock)
  }

  @Test func everyDocumentTheServerAnswersWith() throws {
    for original in [false, true] {
      for audio in [false, true] {
        try expectSameBytes(Self.meeting(original: original, audio: audio))
      }
    }
    let syncUp = SyncUpDocument(
      id: UUID(), title: Stamped("Team <b>Standup</b>", at: Self.clock),
      theme: Stamped("bubblegum", at: Self.clock), duration: Stamped(300, at: Self.clock),
      attendees: Stamped(
        [.init(id: UUID(), name: "Ana"), .init(id: UUID(), name: "Ben")], at: Self.clock),
      vocabulary: Stamped(["Kubernetes", "naïve"], at: Self.clock),
      deleted: Stamped(false, at: Self.clock))
    try expectSameBytes(syncUp)
    try expectSameBytes(
      Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp],
        meetings: [Self.meeting(original: true, audio: true)]))
    try expectSameBytes(
      ChangesPage(
        version: 42, more: true, syncUps: [syncUp],
        meetings: [Self.meeting(original: false, audio: true)]))
    try expectSameBytes(ChangesPage(version: 0, more: false, syncUps: [], meetings: []))
    try expectSameBytes(PushReceipt(pushID: UUID(), version: .max, syncUps: 1, meetings: 0))
    try expectSameBytes([
      SyncUpSummary(
        id: UUID(), title: "Design", theme: "mint", duration: 60.5, attendees: [], meetings: 3)
    ])
    let summary = MeetingSummary(
      id: UUID(), date: Date(timeIntervalSince1970: 0), length: 0, segments: 0, firstWords: "")
    try expectSameBytes(MeetingsPage(meetings: [summary], next: nil))
    try expectSameBytes(MeetingsPage(meetings: [summary, summary], next: "1785795200000000.abc"))
    try expectSameBytes([
      SearchHit(
        syncUp: "Infra", meeting: UUID().uuidString.lowercased(),
        date: Date(timeIntervalSince1970: -1.5), speaker: "Dev", start: 57.9, end: 86.25,
        text: "i worked on the database migration")
    ])
    try expectSameBytes([SearchHit]())
    try expectSameBytes(ErrorBody("cannot search for '\"': a phrase needs its closing quote"))
  }

  @Test(arguments: [
    "", "plain", "quote \" backslash \\ slash /", "\n\r\t\u{8}\u{C}",
    "\u{0}\u{1}\u{1A}\u{1F}\u{7F}",
    "é ß 中文 😀 \u{2028}\u{2029}", "<script>alert(1)</script>&amp;",
  ])
  func strings(text: String) throws {
    try expectSameBytes(text)
    try expectSameBytes([text: text])
  }

  @Test(arguments: [
    0, -0.0, 1, 0.5, 3, 57.9, 0.1 + 0.2, 1e15, 1e16, 1e20, 1e21, 1e-7, 5e-324,
    Double.greatestFiniteMagnitude, -123_456.789, 1.2345678901234568e+17,
  ])
  func numbers(number: Double) throws {
    try expectSameBytes(number)
    if Float(number).isFinite { try expectSameBytes([Float(number)]) }
    try expectSameBytes(["n": Int(exactly: number.rounded(.towardZero)) ?? 0])
  }

  @Test(arguments: [0, -1.5, 1_785_795_200.999, 253_402_300_799, -62_135_596_800])
  func dates(seconds: Double) throws {
    try expectSameBytes(Date(timeIntervalSince1970: seconds))
  }

  @Test func keysAreInTheOrderOfTheirBytes() throws {
    try expectSameBytes([
      "b": 1, "a10": 2, "a9": 3, "B": 4, "a": 5, "_x": 6, "é": 7, "ab": 8, "aB": 9,
    ])
    try expectSameBytes([String: Int]())
    try expectSameBytes([[Int]](arrayLiteral: [], [1, 2], [Int.min, Int.max]))
    try expectSameBytes([Int?](arrayLiteral: nil, 1))
    try expectSameBytes([UInt64.max])
    try expectSameBytes([true, false])
    try expectSameBytes(Data([1, 2, 3, 250]))
    try expectSameBytes(URL(string: "https://example.com/a/b?c=d")!)
  }

  /// A value written through containers this writer does not stream, or the same key twice,
  /// still comes out as `JSONEncoder` writes it; a number JSON cannot hold is refused by both.
  @Test func whatItDoesNotStreamGoesToJSONEncoder() throws {
    try expectSameBytes(Nested(name: "Ana", at: 12.5))
    try expectSameBytes(SameKeyTwice())
    try expectSameBytes([Decimal(string: "12.50")!])
    #expect(throws: EncodingError.self) { try WireJSON.bytes(of: [Double.nan]) }
    #expect(throws: EncodingError.self) { try WireJSON.bytes(of: ["x": Double.infinity]) }
  }

  private struct Nested: Encodable {
    var name: String
    var at: Double
    enum Keys: String, CodingKey { case person, name, at }
    func encode(to encoder: any Encoder) throws {
      var outer = encoder.container(keyedBy: Keys.self)
      var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .person)
      try inner.encode(name, forKey: .name)
      try outer.encode(at, forKey: .at)
    }
  }

  private struct SameKeyTwice: Encodable {
    enum Keys: String, CodingKey { case b, a }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .b)
      try container.encode(2, forKey: .a)
      try container.encode(3, forKey: .b)
    }
  }
}
