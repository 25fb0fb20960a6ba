import Foundation
import SyncUpsWire
import Testing

/// The wire's part of the server's second round (issue 43): clocks valid by construction, and
/// corrections checked by the rules a push is kept by.
struct RoundTwoWireTests {
  /// Break 3: a clock made from any numbers reads back as itself, and keeps the order.
  @Test func clocksAreValidByConstruction() {
    let top = HybridClock(milliseconds: 1_000, counter: HybridClock.largestCounter, device: "a1")
    let next = top.successor
    #expect(next > top)
    #expect(next.description == "0000000000001001-0000-a1")
    for clock in [
      next, HybridClock(milliseconds: 5, counter: 123_456, device: "b2"),
      HybridClock(milliseconds: -7, counter: -3, device: "c3"),
      HybridClock(milliseconds: .max, counter: .max, device: "d4"),
      HybridClock(milliseconds: HybridClock.largestMilliseconds, counter: 10_000, device: "e5"),
    ] {
      #expect(HybridClock(clock.description) == clock, "\(clock)")
    }
    #expect(HybridClock(milliseconds: 5, counter: 123_456, device: "b2").milliseconds == 17)
    #expect(top.tick(now: Date(timeIntervalSince1970: 0), device: "a1") == next)
  }

  /// Break 4 (laptop and server): a correction holding a direction mark or a word longer than a
  /// spoken word may be is refused by `SegmentCorrection.checked`, which both use.
  @Test func correctionsKeepThePushRules() {
    func check(_ text: String) -> CorrectionRefused? {
      do {
        _ = try SegmentCorrection.checked(
          speaker: "Ana", text: text, current: ("Ana", "hello"), attendees: ["Ana"],
          syncUpTitle: "Morning")
        return nil
      } catch {
        return error
      }
    }
    #expect(check("x \u{202E} y")?.description.contains("control characters") == true)
    #expect(check("x\u{200F}y") != nil)
    #expect(
      check(String(repeating: "w", count: Rules.longestSpokenWord + 1))?.description
        .contains("too long for one word") == true)
    #expect(check(String(repeating: "w", count: Rules.longestSpokenWord)) == nil)
    #expect(check("fine words here") == nil)
  }
}
