// The stores the benchmark times: one sync-up of N meetings of 15 minutes (+ 4 others), built
// through the database API, and the in-process search and save a child runs.
import Dependencies
import Foundation
import SharingGRDB
import SyncUpsStore

let mainID = SyncUp.ID(UUID(uuidString: "11111111-1111-1111-1111-111111111111")!)
/// 3000 made-up words of 1 to 3 syllables, drawn with a Zipf-like law as speech is: a few very
/// common words, a long tail of rare ones. The searched words are real ones put in by hand.
let syllables =
  ("ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu "
  + "na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu")
  .split(separator: " ").map(String.init)
let words: [String] = (0..<3000).map { index in
  var generator = SplitMix(seed: UInt64(index) &* 7919)
  let count = 1 + index % 3
  return (0..<count).map { _ in syllables[Int(generator.next() % UInt64(syllables.count))] }
    .joined() + (index < 20 ? "" : "\(index % 7)")
}

func zipfWord(_ generator: inout SplitMix) -> String {
  let uniform = Double(generator.next() % 1_000_000) / 1_000_000
  let index = Int(pow(Double(words.count), uniform)) - 1
  return words[max(0, min(words.count - 1, index))]
}

/// A 15-minute meeting: 150 utterances of 14 words, each word with times and a confidence.
func meeting(_ index: Int, date: Date) -> Meeting {
  var generator = SplitMix(seed: UInt64(index + 1))
  let segments = (0..<150).map { number -> Meeting.Segment in
    let start = Double(number) * 6
    let count = 14
    var text = (0..<count).map { _ in zipfWord(&generator) }
    // What the search looks for: a phrase three times a meeting, a word once.
    if number % 50 == 7 {
      text[3] = "staging"
      text[4] = "server"
    }
    if number == 91 { text[8] = ["deployed", "deployment", "deploys"][index % 3] }
    return Meeting.Segment(
      speaker: ["Ana", "Ben", "Cleo"][number % 3], start: start, end: start + 5.5,
      text: text.joined(separator: " "),
      words: text.enumerated().map { offset, word in
        Meeting.Word(
          word: word, start: start + Double(offset) * 0.38,
          end: start + Double(offset) * 0.38 + 0.3,
          confidence: Double(generator.next() % 1000) / 1000)
      }
    )
  }
  return Meeting(
    id: Meeting.ID(UUID()), date: date, transcript: segments.map(\.text).joined(separator: " "),
    segments: segments)
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func attendees() -> IdentifiedArrayOf<Attendee> {
  IdentifiedArray(
    uniqueElements: ["Ana", "Ben", "Cleo"].map { Attendee(id: Attendee.ID(UUID()), name: $0) })
}

func build(_ directory: DataDirectory, meetings: Int) throws {
  let database = try SyncUpsDatabase.open(directory)
  let start = Date(timeIntervalSince1970: 1_780_000_000)
  var syncUps: IdentifiedArrayOf<SyncUp> = [
    SyncUp(
      id: mainID, attendees: attendees(), duration: .seconds(900), theme: .teal, title: "Daily")
  ]
  for other in 0..<4 {
    syncUps.append(SyncUp(id: SyncUp.ID(UUID()), attendees: attendees(), title: "Team \(other)"))
  }
  // Imported 25 meetings a transaction (what a recording commits segment by segment is timed
  // by `measure`).
  let chunk = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID()).json")
  defer { try? FileManager.default.removeItem(at: chunk) }
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  struct File: Encodable {
    var formatVersion = 1
    var syncUps: IdentifiedArrayOf<SyncUp>
  }
  try encoder.encode(File(syncUps: syncUps)).write(to: chunk)
  try database.importFile(chunk)
  for first in stride(from: 0, to: meetings, by: 25) {
    var daily = syncUps[0]
    daily.meetings = IdentifiedArray(
      uniqueElements: (first..<min(meetings, first + 25)).map { index in
        meeting(index, date: start.addingTimeInterval(Double(index) * 86_400))
      })
    try encoder.encode(File(syncUps: [daily])).write(to: chunk)
    try database.importFile(chunk)
  }
}

/// The search in process, as `syncups search` would run it: open, search, print.
func search(_ directory: DataDirectory, _ text: String) throws {
  let database = try SyncUpsDatabase.open(directory)
  let hits = try database.search(TranscriptSearch(text, limit: 20))
  guard !hits.isEmpty else { fail("search \(text) found nothing") }
  for hit in hits { print("\(hit.syncUpTitle)\t\(hit.date)\t\(hit.speaker)\t\(hit.text)") }
}

/// A recorded meeting's save: its 150 segments committed one by one as they are heard, then
/// the transaction that finishes it. Prints the seconds of the finish, then of the whole.
func save(_ directory: DataDirectory) throws {
  let database = try SyncUpsDatabase.open(directory)
  let recorded = meeting(9999, date: Date())
  var finish = 0.0
  let whole = try seconds {
    try database.begin(
      Meeting(id: recorded.id, date: recorded.date, transcript: ""), syncUpID: mainID)
    for segment in recorded.segments { _ = try database.append(segment, meetingID: recorded.id) }
    finish = try seconds { _ = try database.finish(recorded.id) }
  }
  print("\(finish)\t\(whole)")
}
