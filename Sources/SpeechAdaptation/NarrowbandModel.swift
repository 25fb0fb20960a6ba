import Foundation

/// The channel transform for narrowband speech built by `Models/narrowband/build`: one MLLR
/// transform of the en-us model's means (PocketSphinx's `-mllr` format) that moves the wideband
/// model towards speech heard through the telephone band (see Models/narrowband/README.md).
public enum NarrowbandModel {
  /// The environment variable that names the transform file (`none`: no transform).
  public static let environmentVariable = "SYNCUPS_NARROWBAND_TRANSFORM"
  public static let fileName = "telephone.mllr"

  /// Finds the transform, in order: `explicit` (a file; empty or `none`: no transform),
  /// `$SYNCUPS_NARROWBAND_TRANSFORM` (the same), then `narrowband/telephone.mllr` beside the
  /// stand-up model's folder (`Models/narrowband` of the repository, `share/syncups/narrowband`
  /// of an install prefix), found as `StandupModel.find` finds that. Nil when there is none.
  public static func find(
    explicit: String? = nil,
    standupModelDirectory: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let explicit { return readable(explicit) }
    if let named = environment[environmentVariable] { return readable(named) }
    guard
      let standup = StandupModel.find(
        explicit: standupModelDirectory, environment: environment)
    else { return nil }
    let folder = (standup.languageModel as NSString).deletingLastPathComponent
    let parent = (folder as NSString).deletingLastPathComponent
    return readable(
      ((parent as NSString).appendingPathComponent("narrowband") as NSString)
        .appendingPathComponent(fileName))
  }

  private static func readable(_ path: String) -> String? {
    guard !path.isEmpty, path != "none", FileManager.default.isReadableFile(atPath: path)
    else { return nil }
    return path
  }
}
