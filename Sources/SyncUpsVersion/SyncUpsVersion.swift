/// The version of SyncUps: what `syncups --version` and `syncups-server --version` print, and
/// the version of the Debian packages (`make deb` asks the built programs).
public enum SyncUpsVersion {
  public static let current = "0.1.0"
}
