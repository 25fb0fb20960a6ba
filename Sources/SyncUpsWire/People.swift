import Foundation
import VoiceProfiles

/// What a laptop learned of one attendee, as laptops push it and pull it: their voice (who
/// spoke) and their acoustic adaptation (what they said), or neither once someone asked to
/// forget them. The document is one unit: the later clock wins whole, so a voice refined on two
/// laptops keeps the later refinement, and a forgetting beats every older push.
public struct PersonDocument: Codable, Sendable, Equatable {
  /// The voice profile (`VoiceProfiles.VoiceProfile`'s JSON, as the laptop keeps it).
  public struct Voice: Codable, Sendable, Equatable {
    public var meetings: Int
    public var seconds: Double
    public var model: Data
    public init(meetings: Int, seconds: Double, model: Data) {
      self.meetings = meetings
      self.seconds = seconds
      self.model = model
    }
  }

  /// The acoustic adaptation: PocketSphinx's `-mllr` transform file, and the seconds of speech
  /// it was estimated from.
  public struct Adaptation: Codable, Sendable, Equatable {
    public var seconds: Double
    public var transform: Data
    public init(seconds: Double, transform: Data) {
      self.seconds = seconds
      self.transform = transform
    }
  }

  public var attendeeID: UUID
  public var syncUpID: UUID
  public var voice: Voice?
  public var adaptation: Adaptation?
  /// When what was learned of them was last forgotten (`syncups forget`), if ever.
  public var forgotten: Date?
  public var clock: HybridClock

  public init(
    attendeeID: UUID, syncUpID: UUID, voice: Voice?, adaptation: Adaptation?, forgotten: Date?,
    clock: HybridClock
  ) {
    self.attendeeID = attendeeID
    self.syncUpID = syncUpID
    self.voice = voice
    self.adaptation = adaptation
    self.forgotten = forgotten
    self.clock = clock
  }

  /// The document by the rules: bounded sizes, a voice model that reads back as one, a
  /// transform that is a transform file's numbers, its clock no later than the drift allows.
  public func check(now: Date) throws(DocumentProblem) {
    let name = "what is learned of attendee \(attendeeID.uuidString.lowercased())"
    if let voice {
      guard voice.model.count <= Rules.largestVoiceModel else {
        throw DocumentProblem(
          "\(name): its voice model has \(voice.model.count) bytes; at most "
            + "\(Rules.largestVoiceModel) are kept")
      }
      guard voice.isReadable else {
        throw DocumentProblem("\(name): its voice model is not one syncups can read")
      }
    }
    if let adaptation {
      guard adaptation.transform.count <= Rules.largestTransform else {
        throw DocumentProblem(
          "\(name): its adaptation has \(adaptation.transform.count) bytes; at most "
            + "\(Rules.largestTransform) are kept")
      }
      guard adaptation.isReadable else {
        throw DocumentProblem("\(name): its adaptation is not a transform file")
      }
    }
    if let forgotten, !Rules.meetingDates.contains(forgotten) {
      throw DocumentProblem("\(name): it was forgotten at an impossible date")
    }
    try SyncUpDocument.checkClocks([clock], of: name, now: now)
  }
}

extension PersonDocument.Voice {
  /// A model this version of syncups reads, learned from a possible amount of speech (one
  /// learned by an older version, whose features differ, is not: it is learned again).
  public var isReadable: Bool {
    (0...Rules.mostVoiceMeetings).contains(meetings) && Rules.learnedSeconds.contains(seconds)
      && (try? VoiceProfile.decoded(model)) != nil
  }
}

extension PersonDocument.Adaptation {
  /// A transform file's numbers, estimated from a possible amount of speech.
  public var isReadable: Bool {
    Rules.learnedSeconds.contains(seconds) && Rules.isTransform(transform)
  }
}

extension Rules {
  /// The largest voice model and adaptation transform kept, in bytes (what the laptop learns
  /// is tens of kilobytes).
  public static let largestVoiceModel = 1 << 20
  public static let largestTransform = 1 << 20
  /// Most meetings and seconds of speech a voice or an adaptation is learned from.
  public static let mostVoiceMeetings = 1_000_000
  public static let learnedSeconds: ClosedRange<Double> = 0...1e9

  /// True when `data` reads as a transform file: text of numbers only, the first two (how many
  /// classes and streams) whole and positive.
  public static func isTransform(_ data: Data) -> Bool {
    guard let text = String(data: data, encoding: .utf8) else { return false }
    let numbers = text.split(whereSeparator: \.isWhitespace).map { Double($0) }
    guard numbers.count >= 2, numbers.allSatisfy({ $0?.isFinite == true }) else { return false }
    return numbers.prefix(2).allSatisfy { $0! >= 1 && $0!.rounded() == $0! }
  }
}
