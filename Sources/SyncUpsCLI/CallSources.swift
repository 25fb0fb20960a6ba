import AudioCaptureClient

/// What `record --call` records: the server's default microphone, and the monitor of its default
/// output (what the call plays through), each refused in one line when the server has none.
public enum CallSources {
  public static func pick(from sources: [AudioSource]) throws(CLIError) -> [String] {
    let advice = "or name the sources with --source ('syncups sources' lists them)"
    guard let microphone = sources.first(where: \.isDefault) else {
      throw CLIError(
        "--call: PulseAudio has no default microphone; choose one with "
          + "'pactl set-default-source NAME', \(advice)")
    }
    guard microphone.monitorOf == nil else {
      throw CLIError(
        "--call: PulseAudio's default source, \(microphone.name.visible), is the monitor of an "
          + "output, not a microphone; choose a microphone with "
          + "'pactl set-default-source NAME', \(advice)")
    }
    guard let call = sources.first(where: \.monitorsDefaultOutput) else {
      throw CLIError(
        "--call: PulseAudio has no default output to hear the call from; choose the one the "
          + "call plays through with 'pactl set-default-sink NAME', \(advice)")
    }
    return [microphone.name, call.name]
  }
}
