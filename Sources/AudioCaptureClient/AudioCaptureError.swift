/// Why capture could not start or went on. Each description is one line: what, and what to do.
public enum AudioCaptureError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No PulseAudio server could be reached.
  case serverNotRunning(reason: String)
  /// The server has no source by that name.
  case sourceNotFound(name: String)
  /// The source went away while recording (unplugged, or its module unloaded).
  case sourceGone(name: String)
  /// The server went away (or the source vanished) while recording.
  case connectionLost(reason: String)
  /// Anything else PulseAudio refused.
  case failed(reason: String)

  public var description: String {
    switch self {
    case .serverNotRunning(let reason):
      "PulseAudio is not running: \(reason) (start it with `pulseaudio --start`, or set PULSE_SERVER)"
    case .sourceNotFound(let name):
      "PulseAudio has no source named \(name) (list them with `pactl list short sources`)"
    case .sourceGone(let name):
      "PulseAudio's source \(name) went away while recording (unplugged or removed; "
        + "'syncups sources' lists those left)"
    case .connectionLost(let reason):
      "PulseAudio stopped while recording: \(reason) (restart it and record again)"
    case .failed(let reason):
      "PulseAudio refused to record: \(reason)"
    }
  }
}
