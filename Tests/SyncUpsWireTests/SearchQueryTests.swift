import Foundation
import SyncUpsWire
import Testing

@Suite struct SearchQueryTests {
  @Test(
    arguments: [
      ("deploy", "\"deploy\"", "'deploy'"),
      ("staging server", "\"staging\" \"server\"", "'staging' & 'server'"),
      ("\"staging server\"", "\"staging server\"", "('staging' <-> 'server')"),
      ("migr*", "\"migr\"*", "'migr':*"),
      ("\"staging ser\"*", "\"staging ser\"*", "('staging' <-> 'ser':*)"),
      ("\"it has been\" slow", "\"it has been\" \"slow\"", "('it' <-> 'has' <-> 'been') & 'slow'"),
      ("Ana's", "\"Ana's\"", "('ana' <-> 's')"),
    ])
  func readsWordsPrefixesAndPhrases(text: String, fts5: String, tsquery: String) {
    let query = SearchQuery(text)
    #expect(query.fts5Match == fts5)
    #expect(query.tsquery == tsquery)
  }

  @Test(arguments: [
    "a & b | !c", "x:* <-> y", "'); DROP TABLE meeting; --", "(a) & !!b", "\\' OR 1=1",
  ])
  func querySyntaxIsJustText(text: String) throws {
    let tsquery = try #require(SearchQuery(text).tsquery)
    // Only quoted lexemes of letters and digits, joined by the operators this parser writes.
    let lexemes = tsquery.split(separator: "'", omittingEmptySubsequences: false)
    for (index, part) in lexemes.enumerated() {
      if index % 2 == 1 {
        #expect(part.allSatisfy { $0.isLetter || $0.isNumber }, "\(tsquery)")
      } else {
        #expect(part.allSatisfy { " ()&<->:*".contains($0) }, "\(tsquery)")
      }
    }
  }

  @Test func aQueryOfOnlyPunctuationFindsNothing() {
    #expect(SearchQuery("  \"\" * -- ").terms.isEmpty)
    #expect(SearchQuery("--").tsquery == nil)
    #expect(SearchQuery("--").fts5Match == nil)
  }

  @Test func aMalformedQuerySaysItsProblemInWords() {
    #expect(SearchQuery.problem(in: "\"staging server")?.hasPrefix("a quote is not closed") == true)
    #expect(SearchQuery.problem(in: "mi*gr")?.hasPrefix("a * must end a word") == true)
    #expect(SearchQuery.problem(in: "*")?.hasPrefix("a * must end a word") == true)
    #expect(SearchQuery.problem(in: "  ")?.hasPrefix("nothing to search for") == true)
    #expect(SearchQuery.problem(in: "\"staging server\" migr*") == nil)
  }
}

@Suite struct DocumentTests {
  let device = "9f0c1a2b"

  @Test func clockOrderIsTextOrder() throws {
    let a = HybridClock(milliseconds: 1_732_406_400_000, counter: 3, device: device)
    let b = a.tick(now: Date(timeIntervalSince1970: 1), device: device)
    let c = b.tick(now: Date(timeIntervalSince1970: 1_800_000_000), device: "aa")
    #expect(a < b && b < c)
    #expect(a.description < b.description && b.description < c.description)
    #expect(b.counter == 4)
    #expect(HybridClock(a.description) == a)
    #expect(HybridClock("12-0001-x") == nil)
    #expect(HybridClock("0001732406400000-0000-../x") == nil)
  }

  @Test func lastWriterWinsPerField() {
    func clock(_ ms: Int64) -> HybridClock { HybridClock(milliseconds: ms, device: device) }
    let id = UUID()
    let base = SyncUpDocument(
      id: id, title: Stamped("Standup", at: clock(1)), theme: Stamped("teal", at: clock(1)),
      duration: Stamped(300, at: clock(1)), attendees: Stamped([], at: clock(1)),
      vocabulary: Stamped([], at: clock(1)), deleted: Stamped(false, at: clock(1)))
    var ana = base
    ana.title = Stamped("Morning Sync", at: clock(5))
    var ben = base
    ben.theme = Stamped("plum", at: clock(4))
    ben.title = Stamped("Old title", at: clock(3))
    let merged = ana.merged(with: ben)
    #expect(merged == ben.merged(with: ana))
    #expect(merged.title.value == "Morning Sync")
    #expect(merged.theme.value == "plum")
    #expect(merged.clock == clock(5))
  }

  @Test func pushRoundTrips() throws {
    let clock = HybridClock(milliseconds: 1_732_406_400_000, device: device)
    let push = Push(
      device: UUID(), pushID: UUID(),
      meetings: [
        MeetingDocument(
          id: UUID(), syncUpID: UUID(), date: Date(timeIntervalSince1970: 1_732_406_400),
          length: 36,
          segments: [
            .init(
              speaker: "Ana", start: 0, end: 2.5, text: "hello team",
              words: [
                .init(text: "hello", start: 0, end: 1), .init(text: "team", start: 1, end: 2.5),
              ])
          ],
          audio: .init(sha256: String(repeating: "a", count: 64), size: 10, type: "audio/flac"),
          clock: clock)
      ])
    let data = try WireJSON.encoder().encode(push)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"clock\":\"0001732406400000-0000-\(device)\""))
    #expect(text.contains("\"date\":\"2024-11-24T00:00:00Z\""))
    #expect(try WireJSON.decoder().decode(Push.self, from: data) == push)
  }

  @Test func searchHitHasTheKeysOfSearchJSON() throws {
    let hit = SearchHit(
      syncUp: "Morning Sync", meeting: "aaaaaaaa-0000-0000-0000-000000000001",
      date: Date(timeIntervalSince1970: 1_764_108_000), speaker: "Ben", start: 70, end: 74,
      text: "we should migrate")
    let object = try JSONSerialization.jsonObject(with: WireJSON.encoder().encode(hit))
    let keys = try #require(object as? [String: Any]).keys.sorted()
    #expect(keys == ["date", "end", "meeting", "speaker", "start", "syncUp", "text"])
  }
}
