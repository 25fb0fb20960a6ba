import AudioCore
import Foundation
import SyncUpsWire

/// A correction of one segment: a new speaker, new text, or both (nil: unchanged). Its rules
/// are `SyncUpsWire`'s, shared with the team server's meeting page.
public typealias SegmentChange = SegmentCorrection

extension Meeting.Segment {
  /// The segment with `change` applied, by the rules of `MeetingDocument.Segment.corrected`
  /// (what was recognised kept in `original`, new words timed within the segment).
  public func corrected(_ change: SegmentChange) -> Meeting.Segment {
    Meeting.Segment(document.corrected(change))
  }

  /// The segment as laptops and the server exchange it.
  var document: MeetingDocument.Segment {
    MeetingDocument.Segment(
      speaker: speaker, start: start, end: end, text: text, words: words.map(\.document),
      original: original.map {
        MeetingDocument.Original(
          speaker: $0.speaker, text: $0.text, words: $0.words.map(\.document))
      })
  }

  /// A segment exchanged with the team (its clock aside).
  init(_ segment: MeetingDocument.Segment) {
    self.init(
      speaker: segment.speaker, start: segment.start, end: segment.end, text: segment.text,
      words: segment.words.map(Meeting.Word.init),
      original: segment.original.map {
        Recognition(speaker: $0.speaker, text: $0.text, words: $0.words.map(Meeting.Word.init))
      })
  }
}

extension Meeting.Word {
  var document: MeetingDocument.Word {
    MeetingDocument.Word(text: word, start: start, end: end, confidence: confidence)
  }

  /// A word exchanged with the team: confidence 1 when it came without one.
  init(_ word: MeetingDocument.Word) {
    self.init(word: word.text, start: word.start, end: word.end, confidence: word.confidence ?? 1)
  }
}
