import Foundation
import Hummingbird
import NIOCore
import SyncUpsWire

/// A JSON answer (or, should the value not encode, an error saying so).
extension Response {
  static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    let bytes = (try? WireJSON.bytes(of: value)) ?? Array(#"{"error":"unencodable"}"#.utf8)
    return Response(
      status: status, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}

/// Reading what requests bring: ids, numbers, dates, JSON bodies; each mistake a 400 in words.
extension Request {
  func uuid(_ name: String, in context: TeamContext) throws -> UUID {
    let text = context.parameters.get(name) ?? ""
    guard let id = UUID(uuidString: text) else {
      throw APIError(.badRequest, "'\(text)' is not an id; ids look like 1a2b3c4d-…")
    }
    return id
  }

  func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
    guard let text = uri.queryParameters[Substring(name)] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw APIError(
        .badRequest,
        "?\(name)= takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return number
  }

  /// The body, at most `limit` bytes (413 past that).
  func collectBody(limit: Int) async throws -> ByteBuffer {
    do {
      return try await self.body.collect(upTo: limit)
    } catch {
      throw APIError(
        .contentTooLarge, "the request body is larger than this server takes (\(limit) bytes)")
    }
  }

  /// A push from its collected body, read where it is (not copied) a meeting at a time (see
  /// `PushJSON`); each mistake a 400 in words.
  static func push(from body: ByteBuffer) throws -> Push {
    do {
      return try body.withUnsafeReadableBytes { try PushJSON.decode($0, with: WireJSON.decoder()) }
    } catch let error as DecodingError {
      throw APIError(.badRequest, "the body is not the JSON this route takes: \(Self.words(error))")
    } catch {
      throw APIError(.badRequest, "the body is not JSON")
    }
  }

  private static func words(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        .joined()
      return path.isEmpty ? "the document" : String(path.drop(while: { $0 == "." }))
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context)) has no '\(key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(path(context)) has the wrong kind of value"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "it is not valid JSON" : "\(path(context)): \(context.debugDescription)"
    @unknown default:
      return "it cannot be read"
    }
  }
}
