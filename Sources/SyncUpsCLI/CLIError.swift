/// A failure the user sees as one line on stderr ("Error: …") with a non-zero exit status:
/// what is wrong, and what to do about it.
public struct CLIError: Error, CustomStringConvertible, Equatable {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
