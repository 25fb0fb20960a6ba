import Foundation

/// Corrections merge segment by segment: two people correcting different segments of one
/// meeting both keep theirs; the same segment keeps the later correction. The rule lives
/// here, once, for the server's store and the laptops' pulls.
extension MeetingDocument {
  /// The clock below every change: a segment as recognised, never corrected.
  public static let recognitionClock = HybridClock(milliseconds: 0, device: "0")

  /// Segment `index`'s clock: its own, or the meeting's when the writer sent none (an older
  /// laptop, whose whole meeting is one change).
  public func clock(ofSegment index: Int) -> HybridClock {
    segments[index].clock ?? clock
  }

  /// The meeting with every segment's clock written out, so that a later clock of the meeting
  /// does not move its segments' clocks.
  public var withSegmentClocks: MeetingDocument {
    var result = self
    for index in segments.indices { result.segments[index].clock = clock(ofSegment: index) }
    return result
  }

  /// Both writes merged: the meeting (date, length, audio, deleted, its segments' times)
  /// from the one with the later clock; when both have the same segments (same number, same
  /// times), each segment from the one whose segment clock is later. On a tie, `self`. The
  /// result's clock is the later one's; a segment taken from the earlier one has its clock
  /// written out.
  public func merged(with other: MeetingDocument) -> MeetingDocument {
    let selfLater = clock >= other.clock
    let (later, earlier) = selfLater ? (self, other) : (other, self)
    var result = later
    guard !later.deleted, !earlier.deleted, later.hasSameSegments(as: earlier) else {
      return result
    }
    for index in result.segments.indices {
      let theirs = earlier.clock(ofSegment: index)
      let ours = later.clock(ofSegment: index)
      if theirs > ours || (theirs == ours && !selfLater) {
        result.segments[index] = earlier.segments[index]
        result.segments[index].clock = theirs
      }
    }
    return result
  }

  /// Whether `other` has the same segments, by number and times (corrections change neither).
  public func hasSameSegments(as other: MeetingDocument) -> Bool {
    segments.count == other.segments.count
      && zip(segments, other.segments).allSatisfy { $0.start == $1.start && $0.end == $1.end }
  }

  /// The segments whose speaker, text, words or original differ from `other`'s (by index);
  /// all of them when the segments themselves differ.
  public func changedSegments(from other: MeetingDocument) -> [Int] {
    guard hasSameSegments(as: other) else { return Array(segments.indices) }
    return segments.indices.filter {
      var mine = segments[$0]
      var theirs = other.segments[$0]
      mine.clock = nil
      theirs.clock = nil
      return mine != theirs
    }
  }
}
