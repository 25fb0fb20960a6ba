import Foundation

/// The three files PocketSphinx needs: acoustic model folder, language model, dictionary.
public struct SpeechModel: Sendable, Equatable {
  public var acousticModel: String
  public var languageModel: String
  public var dictionary: String

  public init(acousticModel: String, languageModel: String, dictionary: String) {
    self.acousticModel = acousticModel
    self.languageModel = languageModel
    self.dictionary = dictionary
  }

  /// Debian's `pocketsphinx-en-us` model folder.
  public static let systemDirectory = "/usr/share/pocketsphinx/model/en-us"
  /// The environment variable that names a model folder.
  public static let environmentVariable = "SYNCUPS_MODEL_DIR"

  /// Finds a model, in order: `explicit` (an option), `SYNCUPS_MODEL_DIR`, `Models/` in the
  /// current directory, then Debian's en-us model. An explicitly named folder must be complete;
  /// `Models/` is used only when it holds a complete model (the repository ships just its README).
  public static func resolve(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(TranscriptionError) -> SpeechModel {
    if let explicit, !explicit.isEmpty {
      return try load(directory: explicit, origin: "--model-dir")
    }
    if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
      return try load(directory: fromEnvironment, origin: environmentVariable)
    }
    let local = (currentDirectory as NSString).appendingPathComponent("Models")
    if let model = try? load(directory: local, origin: "Models/") {
      return model
    }
    do {
      return try load(directory: systemDirectory, origin: "the system")
    } catch {
      throw .modelNotFound(
        "no speech model found: \(error.detail); install Debian's pocketsphinx-en-us "
          + "(apt-get install pocketsphinx-en-us) or set \(environmentVariable) to a model folder"
      )
    }
  }

  /// Reads a model folder: an acoustic model folder (holding `mdef`), a `*.lm.bin`/`*.lm`/`*.lm.dmp`
  /// language model and a `*.dict` dictionary.
  public static func load(directory: String, origin: String) throws(TranscriptionError)
    -> SpeechModel
  {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .modelNotFound("model folder \(directory) (from \(origin)) does not exist")
    }
    let entries = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
    let acoustic = entries.first { name in
      var isDir: ObjCBool = false
      return fm.fileExists(atPath: path(name), isDirectory: &isDir) && isDir.boolValue
        && fm.fileExists(atPath: (path(name) as NSString).appendingPathComponent("mdef"))
    }
    let lm =
      entries.first { $0.hasSuffix(".lm.bin") && !$0.contains("phone") }
      ?? entries.first { $0.hasSuffix(".lm") || $0.hasSuffix(".lm.dmp") || $0.hasSuffix(".DMP") }
    let dict = entries.first { $0.hasSuffix(".dict") }
    var missing: [String] = []
    if acoustic == nil { missing.append("an acoustic model folder (with mdef)") }
    if lm == nil { missing.append("a language model (*.lm.bin)") }
    if dict == nil { missing.append("a dictionary (*.dict)") }
    guard let acoustic, let lm, let dict else {
      throw .modelNotFound(
        "model folder \(directory) (from \(origin)) lacks \(missing.joined(separator: ", "))"
      )
    }
    return SpeechModel(
      acousticModel: path(acoustic), languageModel: path(lm), dictionary: path(dict))
  }
}
