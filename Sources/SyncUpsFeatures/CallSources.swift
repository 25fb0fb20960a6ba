import AudioCaptureClient

/// What a remote stand-up is recorded from: the server's default microphone, and the monitor of
/// its default output (what the call plays through). One rule for `record --call` and the
/// interactive app's call key.
public enum CallSources {
  /// What PulseAudio lacks for a call, and how to give it, in words.
  public struct Missing: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  public static func pick(from sources: [AudioSource]) throws(Missing) -> [String] {
    guard let microphone = sources.first(where: \.isDefault) else {
      throw Missing(
        description:
          "PulseAudio has no default microphone; choose one with 'pactl set-default-source NAME'")
    }
    guard microphone.monitorOf == nil else {
      throw Missing(
        description: "PulseAudio's default source, \(microphone.name), is the monitor of an "
          + "output, not a microphone; choose a microphone with 'pactl set-default-source NAME'")
    }
    guard let call = sources.first(where: \.monitorsDefaultOutput) else {
      throw Missing(
        description: "PulseAudio has no default output to hear the call from; choose the one "
          + "the call plays through with 'pactl set-default-sink NAME'")
    }
    return [microphone.name, call.name]
  }
}
