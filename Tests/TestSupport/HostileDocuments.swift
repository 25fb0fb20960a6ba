import Foundation

/// Random sync-ups and meetings as a hostile teammate (or server) would write them: extreme
/// and odd numbers, huge and odd-unicode strings, clocks from the far future, types that are
/// not audio. Raw JSON (Foundation only), so what no encoder would write can be sent too; the
/// same seed gives the same documents.
public struct HostileDocuments {
  var random: SeededRandom
  /// Sync-up ids made so far: meetings mostly go into one of them.
  var syncUpIDs: [String] = []

  public init(seed: UInt64) { random = SeededRandom(seed: seed) }

  /// A push body: a few sync-ups and meetings.
  public mutating func push() -> Data {
    let syncUps = (0..<random.below(3)).map { _ in syncUp() }
    let meetings = (0..<random.below(3)).map { _ in meeting() }
    return json([
      "device": UUID().uuidString, "pushID": UUID().uuidString, "syncUps": syncUps,
      "meetings": meetings,
    ])
  }

  /// A page of changes with these documents, as a server answers `sync/changes`.
  public mutating func page(version: Int64) -> Data {
    let syncUps = (0..<random.below(3)).map { _ in syncUp() }
    let meetings = (0..<random.below(3)).map { _ in meeting() }
    return json(["version": version, "more": false, "syncUps": syncUps, "meetings": meetings])
  }

  public mutating func syncUp() -> [String: Any] {
    let id = random.chance(1, in: 8) ? pick(syncUpIDs + [UUID().uuidString]) : UUID().uuidString
    syncUpIDs.append(id)
    let attendees = (0..<count()).map { index in
      ["id": UUID().uuidString, "name": random.chance(3, in: 4) ? name(index) : text()]
    }
    return [
      "id": id, "title": stamped(text()), "theme": stamped(theme()),
      "duration": stamped(number()), "attendees": stamped(attendees),
      "vocabulary": stamped((0..<count()).map { _ in text() }),
      "deleted": stamped(random.chance(1, in: 6)),
    ]
  }

  public mutating func meeting() -> [String: Any] {
    var meeting: [String: Any] = [
      "id": UUID().uuidString,
      "syncUpID": syncUpIDs.isEmpty || random.chance(1, in: 6)
        ? UUID().uuidString : pick(syncUpIDs),
      "date": date(), "length": number(), "deleted": random.chance(1, in: 8), "clock": clock(),
      "segments": (0..<count()).map { _ in segment() },
    ]
    if random.chance(1, in: 3) {
      meeting["audio"] = [
        "sha256": random.chance(1, in: 2)
          ? String(repeating: "ab", count: 32) : text(),
        "size": pick([0, 1, -1, 1 << 40, Int64.max, Int64.min]),
        "type": pick(["audio/flac", "text/html", "image/svg+xml", "audio/wav", text()]),
      ]
    }
    return meeting
  }

  mutating func segment() -> [String: Any] {
    var segment: [String: Any] = [
      "speaker": text(), "start": number(), "end": number(), "text": text(),
      "words": (0..<count()).map { _ in word() },
    ]
    if random.chance(1, in: 4) {
      segment["original"] = [
        "speaker": text(), "text": text(), "words": (0..<count()).map { _ in word() },
      ]
    }
    return segment
  }

  mutating func word() -> [String: Any] {
    var word: [String: Any] = ["text": text(), "start": number(), "end": number()]
    if random.chance(1, in: 2) { word["confidence"] = number() }
    return word
  }

  // MARK: Values

  mutating func stamped(_ value: Any) -> [String: Any] { ["value": value, "clock": clock()] }

  /// Mostly sane, sometimes absurd.
  mutating func number() -> Double {
    random.chance(3, in: 4)
      ? Double(1 + random.below(3_600_000)) / 1000
      : pick([
        0, -1, -0.0, 1e300, -1e300, Double.greatestFiniteMagnitude, 5e-324, 86_400, 86_400.5,
        1e15, 9.3e18, -9.3e18, 1e-300,
      ])
  }

  mutating func count() -> Int {
    pick([0, 1, 1, 2, 3, 5, 101, random.below(40)])
  }

  mutating func text() -> String {
    if random.chance(3, in: 4) { return pick(["Ana", "Ben", "Morning Sync", "staging server"]) }
    switch random.below(14) {
    case 0: return ""
    case 1: return "  "
    case 2: return "<script>alert(document.cookie)</script>"
    case 3: return "\u{1B}[31mred\u{1B}[0m\u{07}"
    case 4: return "two\nlines\r\n"
    case 5: return "\u{202E}txt.exe\u{200B}\u{FEFF}"
    case 6: return String(repeating: "🎉", count: 1 + random.below(300))
    case 7: return "e" + String(repeating: "\u{0301}", count: 1 + random.below(500))
    case 8: return String(repeating: "x", count: pick([61, 101, 201, 10_001, 200_000]))
    case 9: return "\u{0}nul"
    case 10: return "\"'&<>\\ ../../etc/passwd"
    case 11: return "\u{D7FF}\u{E000}\u{FFFD}\u{10FFFF}"
    case 12: return "' OR 1=1; DROP TABLE meeting; --"
    default: return String(random.below(1_000_000))
    }
  }

  /// A name by the rules, different for each index: `Ana b`, `Ana c`, ...
  func name(_ index: Int) -> String {
    "Ana " + String(String(index).map { Array("bcdefghijk")[$0.wholeNumberValue ?? 0] })
  }

  mutating func theme() -> String {
    random.chance(2, in: 3) ? pick(["teal", "navy", "poppy"]) : text()
  }

  mutating func date() -> String {
    if random.chance(2, in: 3) { return "2026-11-20T10:00:00Z" }
    return pick([
      "2026-11-20T10:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
      "0001-01-01T00:00:00Z", "2101-01-01T00:00:00Z", "not a date", "2026-13-45T99:99:99Z",
    ])
  }

  mutating func clock() -> String {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let milliseconds =
      random.chance(9, in: 10)
      ? pick([1_700_000_000_000, now, now - 60_000, now + 60_000, 0])
      : pick([now + 3_600_000, 9_999_999_999_999_999])
    let counter = pick([0, 1, 9_999])
    let wall = String(milliseconds)
    let count = String(counter)
    let device = pick(["laptop-a", "b", "zzzz", "x"])
    let clock =
      String(repeating: "0", count: max(0, 16 - wall.count)) + wall + "-"
      + String(repeating: "0", count: max(0, 4 - count.count)) + count + "-" + device
    return random.chance(1, in: 200) ? pick(["", "garbage", "0-0-", clock + "\u{1B}"]) : clock
  }

  mutating func pick<T>(_ choices: [T]) -> T { choices[random.below(choices.count)] }

  func json(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
  }
}

/// SplitMix64: the same seed gives the same numbers, on every machine.
public struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number from 0 to `bound` - 1.
  public mutating func below(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(next() % UInt64(bound))
  }

  public mutating func chance(_ times: Int, in outOf: Int) -> Bool { below(outOf) < times }
}
