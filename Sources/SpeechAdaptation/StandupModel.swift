import Foundation

/// The stand-up language model built by `Models/standup/build`: a trigram model of stand-up
/// speech (`standup.lm.bin`) and the pronunciations of its words that the en-us dictionary
/// lacks (`standup.dict`).
public struct StandupModel: Sendable, Equatable {
  public var languageModel: String
  public var dictionary: String?

  public init(languageModel: String, dictionary: String?) {
    self.languageModel = languageModel
    self.dictionary = dictionary
  }

  /// The environment variable that names the folder holding `standup.lm.bin`.
  public static let environmentVariable = "SYNCUPS_STANDUP_MODEL"
  /// Where the Debian package installs the model.
  public static let systemFolder = "/usr/share/syncups/standup"

  /// Finds the model, in order: `explicit`, `$SYNCUPS_STANDUP_MODEL`, `Models/standup` in the
  /// current directory, then beside the executable: `Models/standup` of the repository it was
  /// built in (`.build/<config>/syncups`) or `share/syncups/standup` of its install prefix (so a
  /// package unpacked anywhere finds its own), then the Debian package's `/usr/share/syncups`.
  /// Nil when none holds `standup.lm.bin`.
  public static func find(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String = FileManager.default.currentDirectoryPath,
    executable: String? = Bundle.main.executablePath
  ) -> StandupModel? {
    var folders: [String] = []
    if let explicit, !explicit.isEmpty { return load(folder: explicit) }
    if let folder = environment[environmentVariable], !folder.isEmpty {
      return load(folder: folder)
    }
    folders.append((currentDirectory as NSString).appendingPathComponent("Models/standup"))
    if let executable {
      var folder = (executable as NSString).resolvingSymlinksInPath
      folder = (folder as NSString).deletingLastPathComponent
      folders.append(
        ((folder as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent("share/syncups/standup"))
      for _ in 0..<4 {
        folder = (folder as NSString).deletingLastPathComponent
        folders.append((folder as NSString).appendingPathComponent("Models/standup"))
      }
    }
    folders.append(systemFolder)
    return folders.lazy.compactMap(load(folder:)).first
  }

  static func load(folder: String) -> StandupModel? {
    let lm = (folder as NSString).appendingPathComponent("standup.lm.bin")
    guard FileManager.default.isReadableFile(atPath: lm) else { return nil }
    let dict = (folder as NSString).appendingPathComponent("standup.dict")
    return StandupModel(
      languageModel: lm, dictionary: FileManager.default.isReadableFile(atPath: dict) ? dict : nil)
  }
}
