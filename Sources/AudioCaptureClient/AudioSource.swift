/// A PulseAudio source (a microphone, a monitor of an output, a virtual microphone).
public struct AudioSource: Sendable, Equatable, Hashable, Codable {
  /// The name to record from, e.g. "alsa_input.pci-0000_00_1f.3.analog-stereo".
  public var name: String
  /// What the server calls it for people.
  public var description: String
  /// Whether it is the server's default source.
  public var isDefault: Bool
  /// The output (sink) it is the monitor of: what plays through it, a call say; nil for a
  /// microphone.
  public var monitorOf: String?
  /// Whether it is the monitor of the server's default output.
  public var monitorsDefaultOutput: Bool

  public init(
    name: String, description: String, isDefault: Bool, monitorOf: String? = nil,
    monitorsDefaultOutput: Bool = false
  ) {
    self.name = name
    self.description = description
    self.isDefault = isDefault
    self.monitorOf = monitorOf
    self.monitorsDefaultOutput = monitorsDefaultOutput
  }
}
