import Foundation
import SyncUpsWire
import Testing

/// What is learned of an attendee, on the wire: written byte for byte as `WireJSON` writes it,
/// read from pushes and pages that have no `people`, and checked by the rules.
@Suite struct PersonDocumentTests {
  static let document = PersonDocument(
    attendeeID: UUID(), syncUpID: UUID(),
    voice: .init(meetings: 3, seconds: 120.5, model: Data("{\"x\":1}\u{0}\u{FF}".utf8)),
    adaptation: .init(seconds: 61, transform: Data("1 1 2 1 0 0 1".utf8)),
    forgotten: Date(timeIntervalSince1970: 1_795_000_000),
    clock: HybridClock(milliseconds: 1_795_000_000_123, device: "ab12"))

  @Test func theServersBytesAreTheEncodersBytes() throws {
    let expected = try WireJSON.encoder().encode(Self.document)
    #expect(try WireJSON.bytes(of: Self.document) == Array(expected))
    #expect(try WireJSON.decoder().decode(PersonDocument.self, from: expected) == Self.document)
  }

  @Test func aPushOrAPageWithoutPeopleStillReads() throws {
    let push = try WireJSON.decoder().decode(
      Push.self,
      from: Data(#"{"device":"\#(UUID())","pushID":"\#(UUID())","syncUps":[],"meetings":[]}"#.utf8))
    #expect(push.people.isEmpty)
    let page = try WireJSON.decoder().decode(
      ChangesPage.self, from: Data(#"{"version":3,"more":false,"syncUps":[],"meetings":[]}"#.utf8))
    #expect(page.people.isEmpty && page.version == 3)
  }

  @Test func transformsAreNumbersWithWholeCountsFirst() {
    for good in ["1 1 2 1 0 0 1", "2\n1\n39\n-1.5e-3 4"] {
      #expect(Rules.isTransform(Data(good.utf8)), "\(good)")
    }
    for bad in ["", "1", "0 1 2", "1.5 1 2", "1 1 nan", "1 1 inf", "1 1 two", "\u{FF}"] {
      #expect(!Rules.isTransform(Data(bad.utf8)), "\(bad)")
    }
  }
}
