import AudioFilesClient
import ErrorWords
import Foundation

/// Folder making, moves, deletes and fsync with the system's own calls, so a failure says what
/// is wrong in words (the C library's message), never a Foundation error's internals.
enum FileOperations {
  /// Makes `path` and any missing parents. A file in the way is an error.
  static func createFolders(_ path: String) throws(AudioFileError) {
    if path.isEmpty { return }
    var status = stat()
    if stat(path, &status) == 0 {
      if status.st_mode & S_IFMT == S_IFDIR { return }
      throw .fileOperationFailed(
        path: path, reason: "a file of that name is in the way of a folder")
    }
    try createFolders((path as NSString).deletingLastPathComponent)
    if mkdir(path, 0o755) != 0, errno != EEXIST {
      throw .fileOperationFailed(path: path, reason: "cannot create the folder: \(reason(errno))")
    }
  }

  /// Renames `source` to `destination`, making the destination's folder. Never replaces a file.
  static func move(_ source: String, to destination: String) throws(AudioFileError) {
    if access(destination, F_OK) == 0 {
      throw .fileOperationFailed(path: destination, reason: "a file of that name already exists")
    }
    try createFolders((destination as NSString).deletingLastPathComponent)
    if rename(source, destination) != 0 {
      let error = errno
      if error == ENOENT, access(source, F_OK) != 0 { throw .notFound(path: source) }
      throw .fileOperationFailed(
        path: destination, reason: "cannot move \(source) there: \(reason(error))")
    }
    try sync((destination as NSString).deletingLastPathComponent)
  }

  static func delete(_ path: String) throws(AudioFileError) {
    if unlink(path) != 0 {
      let error = errno
      if error == ENOENT { throw .notFound(path: path) }
      throw .fileOperationFailed(path: path, reason: "cannot delete it: \(reason(error))")
    }
  }

  /// Waits until the file (or folder) is on disk.
  static func sync(_ path: String) throws(AudioFileError) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw .fileOperationFailed(path: path, reason: "cannot open it to sync: \(reason(errno))")
    }
    defer { Glibc.close(descriptor) }
    if fsync(descriptor) != 0 {
      throw .fileOperationFailed(path: path, reason: "cannot sync it to disk: \(reason(errno))")
    }
  }

  /// A system error in words, as everywhere (`ErrorWords`).
  static func reason(_ error: Int32) -> String { ErrorWords.reason(errno: error) }
}
