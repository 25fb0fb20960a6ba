import Foundation

extension DecodingError {
  /// The same error, its coding path starting at `prefix`: a part decoded on its own (a meeting
  /// of a push, a sync-up of a file) is reported where it stands in the whole. Data that is not
  /// JSON at all stays "not JSON", wherever it is.
  public func placed(at prefix: [any CodingKey]) -> DecodingError {
    func moved(_ context: Context) -> Context {
      Context(
        codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
        underlyingError: context.underlyingError)
    }
    switch self {
    case .keyNotFound(let key, let context): return .keyNotFound(key, moved(context))
    case .typeMismatch(let type, let context): return .typeMismatch(type, moved(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, moved(context))
    case .dataCorrupted(let context):
      // No path: the piece was not JSON at all, which is what the whole is then too.
      return context.codingPath.isEmpty ? self : .dataCorrupted(moved(context))
    @unknown default: return self
    }
  }
}
