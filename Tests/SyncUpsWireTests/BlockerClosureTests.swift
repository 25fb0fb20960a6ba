import Foundation
import SyncUpsWire
import Testing

/// A blocker closed by hand, on the wire: written byte for byte as `WireJSON` writes it, left
/// out of pushes and pages that have none (so they read as before), and checked by the rules.
@Suite struct BlockerClosureTests {
  static let closure = BlockerClosure(
    meetingID: UUID(), segment: 4, key: "c426110e5a6b3f4f", closedBy: "Ana",
    closedAt: Date(timeIntervalSince1970: 1_795_000_000))

  /// The key both sides give a phrase: the first 8 bytes of its SHA-256 (as `sha256sum`
  /// prints it), a key by the rules, and another phrase another key.
  @Test func aPhrasesKeyIsTheStartOfItsSHA256() {
    #expect(BlockerClosure.key(of: "waiting on legal") == "a0348f3da5e3372d")
    #expect(BlockerClosure.key(of: "") == "e3b0c44298fc1c14")
    #expect(BlockerClosure.isKey(BlockerClosure.key(of: "blocked on the Kafka credentials")))
    #expect(
      BlockerClosure.key(of: "waiting on legal.") != BlockerClosure.key(of: "waiting on legal"))
  }

  @Test func theServersBytesAreTheEncodersBytes() throws {
    let expected = try WireJSON.encoder().encode(Self.closure)
    #expect(try WireJSON.bytes(of: Self.closure) == Array(expected))
    #expect(try WireJSON.decoder().decode(BlockerClosure.self, from: expected) == Self.closure)
  }

  @Test func pushesAndPagesWithoutClosingsAreWrittenAsBefore() throws {
    let device = UUID()
    let pushID = UUID()
    let push = Push(device: device, pushID: pushID)
    let text = String(decoding: try WireJSON.encoder().encode(push), as: UTF8.self)
    #expect(!text.contains("blockers"))
    #expect(
      text
        == #"{"device":"\#(device)","meetings":[],"people":[],"pushID":"\#(pushID)","syncUps":[]}"#
    )
    let page = ChangesPage(version: 3, more: false, syncUps: [], meetings: [])
    #expect(
      !String(decoding: try WireJSON.encoder().encode(page), as: UTF8.self).contains("blockers"))
    // With closings, they go both ways.
    let carried = Push(device: device, pushID: pushID, blockers: [Self.closure])
    let read = try WireJSON.decoder().decode(
      Push.self, from: try WireJSON.encoder().encode(carried))
    #expect(read == carried)
    let older = try WireJSON.decoder().decode(
      ChangesPage.self,
      from: Data(#"{"version":3,"more":false,"syncUps":[],"meetings":[],"people":[]}"#.utf8))
    #expect(older.blockers.isEmpty)
  }

  @Test func closingsAreCheckedByTheRules() throws {
    try Self.closure.check()
    var laptops = Self.closure
    laptops.closedBy = nil
    try laptops.check()
    let broken: [(String, (inout BlockerClosure) -> Void)] = [
      ("is not one a meeting has", { $0.segment = 0 }),
      ("is not one a meeting has", { $0.segment = Rules.mostSegments + 1 }),
      ("16 lowercase hex digits", { $0.key = "C426110E5A6B3F4F" }),
      ("16 lowercase hex digits", { $0.key = "c426" }),
      ("16 lowercase hex digits", { $0.key = "c426110e5a6b3f4g" }),
      ("who closed it", { $0.closedBy = String(repeating: "a", count: Rules.longestName + 1) }),
      ("who closed it", { $0.closedBy = "Ana\u{1B}[2J" }),
      ("impossible date", { $0.closedAt = Date(timeIntervalSince1970: -1) }),
      ("impossible date", { $0.closedAt = .distantFuture }),
    ]
    for (words, breaking) in broken {
      var closure = Self.closure
      breaking(&closure)
      #expect(throws: DocumentProblem.self, "\(words)") { try closure.check() }
      do {
        try closure.check()
      } catch {
        #expect(error.description.contains(words), "\(error.description)")
      }
    }
  }

  @Test func aPushClosesABoundedNumberOfBlockers() throws {
    let most = (1...Rules.mostClosingsInAPush).map { segment in
      var closure = Self.closure
      closure.segment = segment
      return closure
    }
    try Push(device: UUID(), pushID: UUID(), blockers: most).check(now: Date())
    let more = Push(device: UUID(), pushID: UUID(), blockers: most + [Self.closure])
    #expect(throws: DocumentProblem.self) { try more.check(now: Date()) }
  }
}
