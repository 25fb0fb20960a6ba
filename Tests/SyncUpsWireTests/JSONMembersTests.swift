import Foundation
import SyncUpsWire
import Testing

/// A member of a JSON object is found by reading the object member by member, whatever the keys'
/// order and whatever the strings before it hold.
@Suite("WireJSON: a member found by reading, not by searching")
struct JSONMembersTests {
  func member(_ key: String, _ json: String) -> String? {
    let bytes = Array(json.utf8)
    return WireJSON.range(ofMember: key, in: bytes).map {
      String(decoding: bytes[$0], as: UTF8.self)
    }
  }

  @Test func aMemberIsFoundWhateverTheKeysOrder() {
    #expect(member("segments", #"{"a":1,"segments":[],"z":"x"}"#) == "[]")
    #expect(member("segments", #"{"segments":[{"a":[1,2]}],"a":1}"#) == #"[{"a":[1,2]}]"#)
    #expect(member("syncUpID", #"{"segments":[],"syncUpID":"abc"}"#) == #""abc""#)
    #expect(member("length", #"{"length":12.5,"x":null}"#) == "12.5")
    #expect(member("x", #"{"length":12.5,"x":null}"#) == "null")
  }

  @Test func keysAndBracketsInsideStringsAreNotMembers() {
    let tricky = #"{"text":"\"segments\":[ ] } {","words":[{"text":"words"}]}"#
    #expect(member("segments", tricky) == nil)
    #expect(member("words", tricky) == #"[{"text":"words"}]"#)
    #expect(member("text", tricky) == #""\"segments\":[ ] } {""#)
  }

  @Test func notAnObjectOrCutShortIsNil() {
    #expect(member("a", "[1,2]") == nil)
    #expect(member("a", #"{"a":[1,2"#) == nil)
    #expect(member("b", #"{"a":"unterminated}"#) == nil)
    #expect(member("a", "") == nil)
  }

  @Test func aMeetingsSegmentsAreWhereItsJSONHasThem() throws {
    let clock = HybridClock(milliseconds: 1_795_000_000_000, device: "a")
    let meeting = MeetingDocument(
      id: UUID(), syncUpID: UUID(), date: Date(timeIntervalSince1970: 1_795_000_000), length: 3,
      segments: [
        .init(speaker: "Ana", start: 0, end: 1, text: "hi \"there\"", words: [], original: nil)
      ], audio: nil, clock: clock)
    let json = try WireJSON.bytes(of: meeting)
    let range = try #require(WireJSON.range(ofMember: "segments", in: json))
    #expect(Array(json[range]) == (try WireJSON.bytes(of: meeting.segments)))
  }
}
