import Foundation
import Hummingbird
import NIOCore
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// A push decoded a meeting at a time (and a meeting a segment at a time) is the push
/// `JSONDecoder` reads from the whole body, and its mistakes are told in the same words, with
/// the same paths.
struct PushJSONTests {
  static func decoded(_ text: String) throws -> Push {
    try Array(text.utf8).withUnsafeBytes { try PushJSON.decode($0, with: WireJSON.decoder()) }
  }

  static func push() -> Push {
    let syncUp = Fixture.syncUp(title: #"Stand-up "A" \ {"meetings": []}, [tricky]"#)
    return Push(
      device: UUID(), pushID: UUID(), syncUps: [syncUp],
      meetings: [
        Fixture.meeting(in: syncUp.id, said: [("Ana", #"she said "]}," and left \ é 🎉"#)]),
        Fixture.meeting(in: syncUp.id, said: [("Ben", "the staging server is down")], at: 3),
      ])
  }

  @Test func aPushReadAMeetingAtATimeIsThePushReadWhole() throws {
    let push = Self.push()
    let compact = String(decoding: try WireJSON.encoder().encode(push), as: UTF8.self)
    let pretty = JSONEncoder()
    pretty.dateEncodingStrategy = .iso8601
    pretty.outputFormatting = [.prettyPrinted]
    let spaced = String(decoding: try pretty.encode(push), as: UTF8.self)
    // An escape JSONEncoder does not write.
    let escaped = compact.replacingOccurrences(of: "staging", with: #"st\u0061ging"#)
    for text in [compact, spaced, escaped] {
      #expect(try Self.decoded(text) == push)
    }
    #expect(throws: DecodingError.self) { try Self.decoded("") }
    let withoutMeetings = try Self.decoded(
      #"{"device":"\#(push.device)","pushID":"\#(push.pushID)","syncUps":[],"meetings":[]}"#)
    #expect(withoutMeetings.meetings.isEmpty)
    // `meetings` or `segments` written with an escape is not found by the scan: the push, or
    // the meeting, is read whole.
    let hidden = compact.replacingOccurrences(of: #""meetings""#, with: #""meet\u0069ngs""#)
    #expect(try Self.decoded(hidden) == push)
    let hiddenSegments = compact.replacingOccurrences(
      of: #""segments""#, with: #""s\u0065gments""#)
    #expect(try Self.decoded(hiddenSegments) == push)
  }

  @Test func aMistakeInAMeetingIsToldWithItsPathInThePush() throws {
    let compact = String(decoding: try WireJSON.encoder().encode(Self.push()), as: UTF8.self)
    func message(_ text: String) -> String? {
      do {
        _ = try Request.push(from: ByteBuffer(string: text))
        return nil
      } catch let error as APIError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    #expect(
      message(compact.replacingOccurrences(of: #""start":0,"#, with: #""start":"soon","#))
        == "the body is not the JSON this route takes: meetings[0].segments[0].start has the "
        + "wrong kind of value")
    #expect(
      message(compact.replacingOccurrences(of: #""deleted":false,"#, with: ""))
        == "the body is not the JSON this route takes: meetings[0] has no 'deleted'")
    #expect(
      message(compact.replacingOccurrences(of: #""the staging server is down""#, with: "down"))
        == "the body is not the JSON this route takes: it is not valid JSON")
    #expect(
      message(String(compact.dropLast()))
        == "the body is not the JSON this route takes: it is not valid JSON")
  }
}
