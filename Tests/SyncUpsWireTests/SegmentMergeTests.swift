import Foundation
import SyncUpsWire
import Testing

/// Corrections merge segment by segment (`MeetingDocument.merged`).
struct SegmentMergeTests {
  static func clock(_ milliseconds: Int64, _ device: String = "a") -> HybridClock {
    HybridClock(milliseconds: milliseconds, device: device)
  }

  static func meeting(_ texts: [String], clock: HybridClock, segmentClocks: [HybridClock?])
    -> MeetingDocument
  {
    MeetingDocument(
      id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
      syncUpID: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
      date: Date(timeIntervalSince1970: 1_795_000_000), length: 30,
      segments: zip(texts, segmentClocks).enumerated().map { index, pair in
        MeetingDocument.Segment(
          speaker: "Ana", start: Double(index * 5), end: Double(index * 5 + 4), text: pair.0,
          clock: pair.1)
      }, audio: nil, clock: clock)
  }

  @Test("corrections of different segments are both kept, whichever is merged into which")
  func differentSegments() {
    let zero = MeetingDocument.recognitionClock
    let a = Self.meeting(
      ["one fixed", "two", "three"], clock: Self.clock(10),
      segmentClocks: [Self.clock(10), zero, zero])
    let b = Self.meeting(
      ["one", "two fixed", "three"], clock: Self.clock(20, "b"),
      segmentClocks: [zero, Self.clock(20, "b"), zero])
    for merged in [a.merged(with: b), b.merged(with: a)] {
      #expect(merged.segments.map(\.text) == ["one fixed", "two fixed", "three"])
      #expect(merged.clock == Self.clock(20, "b"))
      #expect(merged.clock(ofSegment: 0) == Self.clock(10))
    }
  }

  @Test("the same segment keeps the later correction")
  func sameSegment() {
    let a = Self.meeting(["one by a"], clock: Self.clock(30), segmentClocks: [Self.clock(30)])
    let b = Self.meeting(
      ["one by b"], clock: Self.clock(20, "b"), segmentClocks: [Self.clock(20, "b")])
    #expect(a.merged(with: b).segments.map(\.text) == ["one by a"])
    #expect(b.merged(with: a).segments.map(\.text) == ["one by a"])
  }

  @Test("a whole meeting without segment clocks (an older laptop) is one change at its clock")
  func olderLaptops() {
    let corrected = Self.meeting(
      ["one fixed", "two"], clock: Self.clock(10),
      segmentClocks: [Self.clock(10), MeetingDocument.recognitionClock])
    let older = Self.meeting(
      ["one", "two changed"], clock: Self.clock(20, "b"), segmentClocks: [nil, nil])
    #expect(corrected.merged(with: older).segments.map(\.text) == ["one", "two changed"])
    // Earlier than the correction of the first segment, later than the second's recognition.
    let earlier = Self.meeting(
      ["one", "two changed"], clock: Self.clock(5, "b"), segmentClocks: [nil, nil])
    #expect(corrected.merged(with: earlier).segments.map(\.text) == ["one fixed", "two changed"])
    // Merged with itself, a meeting is itself.
    #expect(older.merged(with: older) == older)
  }

  @Test("different segments (another transcript) or a deletion take the later meeting whole")
  func differentShapes() {
    let a = Self.meeting(
      ["one fixed", "two"], clock: Self.clock(30), segmentClocks: [Self.clock(30), nil])
    var b = Self.meeting(
      ["one", "two", "three"], clock: Self.clock(20, "b"), segmentClocks: [nil, nil, nil])
    #expect(b.merged(with: a) == a)
    b.deleted = true
    b.segments = []
    b.clock = Self.clock(40, "b")
    #expect(a.merged(with: b) == b)
  }

  @Test("the correction rules: an attendee by any case, text made single-spaced, bounded")
  func rules() throws {
    let current = (speaker: "Ana", text: "hello")
    let change = try SegmentCorrection.checked(
      speaker: " ben ", text: "hello\n  there", current: current, attendees: ["Ana", "Ben"],
      syncUpTitle: "Daily")
    #expect(change == SegmentCorrection(speaker: "Ben", text: "hello there"))
    #expect(throws: CorrectionRefused.self) {
      try SegmentCorrection.checked(
        speaker: "Eve", text: "x", current: current, attendees: ["Ana"], syncUpTitle: "Daily")
    }
    #expect(throws: CorrectionRefused.self) {
      try SegmentCorrection.checked(
        speaker: "Ana", text: "  ", current: current, attendees: ["Ana"], syncUpTitle: "Daily")
    }
    #expect(throws: CorrectionRefused.self) {
      try SegmentCorrection.checked(
        speaker: "Ana", text: String(repeating: "a", count: SegmentCorrection.longestText + 1),
        current: current, attendees: ["Ana"], syncUpTitle: "Daily")
    }
  }
}
