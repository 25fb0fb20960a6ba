import ArgumentParser
import Foundation
import SyncUpsServer

/// Where `pg_dump` and `pg_restore` are, when not where Debian keeps the database's version.
struct ToolOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The folder of pg_dump and pg_restore; default /usr/lib/postgresql/MAJOR/bin, MAJOR the "
        + "database server's version.", valueName: "dir"))
  var pgBin: String?
}

struct Backup: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the whole database (people, tokens, sync-ups, meetings, audio) to a file.",
    discussion: "PostgreSQL's pg_dump in its custom format, safe while the server serves.")
  @OptionGroup var options: DatabaseOptions
  @OptionGroup var tools: ToolOptions
  @Argument(help: "The backup file to write (replaced when it exists).") var file: String

  func run() async throws {
    let url = try options.url()
    let bytes = try await SyncUpsServer.Backup.save(url, to: file, pgBin: tools.pgBin)
    print("Wrote \(file) (\(bytes) bytes) from the database \(url.database).")
  }
}

struct Restore: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Restore a backup into a new, empty database (made with createdb).",
    discussion: "Then start the server on that database.")
  @OptionGroup var options: DatabaseOptions
  @OptionGroup var tools: ToolOptions
  @Argument(help: "A file written by syncups-server backup.") var file: String

  func run() async throws {
    let url = try options.url()
    try await SyncUpsServer.Backup.restore(file, into: url, pgBin: tools.pgBin)
    print("Restored \(file) into the database \(url.database).")
  }
}
