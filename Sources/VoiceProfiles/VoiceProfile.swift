import AudioCore
import Foundation

/// Frames as the mixtures read them.
public typealias FrameSet = VoiceFrames

/// What is known of one person's voice: a mixture learned from what they said, and how much
/// of it there was.
public struct VoiceProfile: Codable, Equatable, Sendable {
  public var model: GaussianMixture
  /// Meetings it was learned from.
  public var meetings: Int
  /// Seconds of speech it was learned from.
  public var seconds: Double
  /// The features the model reads (`Self.features`); a profile learned from other features is
  /// as if never learned.
  private var features = Self.features

  /// Cepstra warped over each meeting's speech (`RoomNormalisation`).
  static let features = "warped-cepstra"

  public init(model: GaussianMixture, meetings: Int, seconds: Double) {
    self.model = model
    self.meetings = meetings
    self.seconds = seconds
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    features = try container.decode(String.self, forKey: .features)
    guard features == Self.features else {
      throw DecodingError.dataCorruptedError(
        forKey: .features, in: container, debugDescription: "learned from other features")
    }
    model = try container.decode(GaussianMixture.self, forKey: .model)
    meetings = try container.decode(Int.self, forKey: .meetings)
    seconds = try container.decode(Double.self, forKey: .seconds)
  }

  /// As kept in the database.
  public func encoded() throws -> Data { try JSONEncoder().encode(self) }

  public static func decoded(_ data: Data) throws -> VoiceProfile {
    try JSONDecoder().decode(VoiceProfile.self, from: data)
  }
}

/// The frames of a sentence that tell its voice: the loudest 70% (pauses and breaths say
/// little), without the energy coefficient (c0, which says how loud, not who).
public struct SpeechFrames: Sendable {
  public var frames: FrameSet
  /// Seconds into the stream of each frame kept.
  public var times: [Double]

  public init(_ voice: VoiceFrames, keeping share: Double = 0.7) {
    let dimension = voice.dimension - 1
    var frames = FrameSet(dimension: max(dimension, 0), start: voice.start)
    var times: [Double] = []
    guard dimension > 0, voice.count > 0 else {
      self.frames = frames
      self.times = times
      return
    }
    let energies = (0..<voice.count).map { voice[$0].first! }
    let sorted = energies.sorted()
    let threshold = sorted[min(sorted.count - 1, Int(Double(sorted.count) * (1 - share)))]
    frames.values.reserveCapacity(voice.count * dimension)
    for index in 0..<voice.count where energies[index] >= threshold {
      frames.values += voice[index].dropFirst()
      times.append(voice.start + Double(index) / VoiceFrames.framesPerSecond)
    }
    self.frames = frames
    self.times = times
  }

  public var count: Int { times.count }

  /// The frames kept between two stream times.
  public func between(_ from: Double, _ to: Double) -> FrameSet {
    var set = FrameSet(dimension: frames.dimension, start: from)
    for (index, time) in times.enumerated() where time >= from && time < to {
      set.values += frames[index]
    }
    return set
  }
}

extension FrameSet {
  /// Several sets one after the other.
  public static func joined(_ sets: [FrameSet], dimension: Int) -> FrameSet {
    FrameSet(dimension: dimension, values: sets.flatMap(\.values), start: 0)
  }
}

extension VoiceProfile {
  /// `profile` (nil: a voice never heard) taught by speech a person said is this voice's (a
  /// corrected speaker), heard in `meeting` (the voice of the whole meeting, whose room the
  /// frames are warped over as the meeting's sentences were): refined toward its frames as a
  /// meeting refines it, or, for a voice never heard, learned from them. Nil when it holds
  /// less than a second of speech, which says too little to keep.
  public static func taught(
    _ profile: VoiceProfile?, by voice: VoiceFrames, in meeting: VoiceFrames,
    settings: SpeakerLabels.Settings = SpeakerLabels.Settings()
  ) -> VoiceProfile? {
    let room = SpeechFrames(meeting, keeping: settings.meetingShare)
    guard let speech = RoomNormalisation.warped([room, SpeechFrames(voice)]).last??.frames,
      speech.count >= 100
    else { return nil }
    let seconds = Double(speech.count) / VoiceFrames.framesPerSecond
    if let profile, profile.model.dimension == speech.dimension {
      let model = profile.model.adapted(
        to: profile.model.statistics(of: speech), maximumCount: settings.maximumProfileFrames)
      return VoiceProfile(
        model: model, meetings: profile.meetings, seconds: profile.seconds + seconds)
    }
    guard let model = GaussianMixture.trained(on: speech, components: settings.components) else {
      return nil
    }
    return VoiceProfile(model: model, meetings: 1, seconds: seconds)
  }
}
