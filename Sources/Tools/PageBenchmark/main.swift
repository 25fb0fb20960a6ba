import Foundation
import SyncUpsServer
import SyncUpsWire

// The meeting page of a 60-minute meeting (about 9,000 words, four speakers) rendered on the
// server, again and again: p50 and p99, against the goal of 100 ms at p99, and against a
// baseline measured in the same run: the API's JSON of the same meeting (`GET
// /api/v1/meetings/ID`, which the server answers as well). The whole request, with PostgreSQL,
// is measured by `make bench-server` (`.ci/bench-server`).

let speakers = ["Ana", "Ben", "Cleo", "Dev"]
let vocabulary = [
  "the", "staging", "server", "is", "down", "again", "we", "should", "migrate", "logs", "to",
  "new", "cluster", "yesterday", "I", "reviewed", "Grafana", "dashboards", "and", "fixed", "a",
  "flaky", "test", "today", "pairing", "with", "on", "release", "notes", "blocked", "by", "QA",
  "R&D", "<b>bold</b>", "it's", "\"quoted\"",
]
var segments: [MeetingDocument.Segment] = []
var time = 0.0
var wordCount = 0
var generator = SystemRandomNumberGenerator()
while wordCount < 9_000 {
  let count = Int.random(in: 15...45, using: &generator)
  var words: [MeetingDocument.Word] = []
  let start = time
  for _ in 0..<count {
    let length = Double.random(in: 0.2...0.46, using: &generator)
    words.append(
      .init(text: vocabulary.randomElement(using: &generator)!, start: time, end: time + length))
    time += length + Double.random(in: 0.0...0.08, using: &generator)
  }
  segments.append(
    .init(
      speaker: speakers[segments.count % speakers.count], start: start, end: time,
      text: words.map(\.text).joined(separator: " "), words: words))
  wordCount += count
  time += 0.6
}
let meeting = MeetingDocument(
  id: UUID(), syncUpID: UUID(), date: Date(), length: time, segments: segments,
  audio: .init(sha256: String(repeating: "a", count: 64), size: 57_600_000, type: "audio/flac"),
  clock: HybridClock(milliseconds: 1, device: "bench"))
let person = Person(
  id: 1, name: "Ana", memberships: [Membership(teamID: 1, team: "team", role: .reader)])

func measure(_ runs: Int, _ body: () throws -> Int) rethrows -> [Double] {
  var sink = 0
  for _ in 0..<10 { sink &+= try body() }  // warm up
  var times: [Double] = []
  for _ in 0..<runs {
    let start = ContinuousClock.now
    sink &+= try body()
    let elapsed = ContinuousClock.now - start
    times.append(
      Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
  }
  if sink == 42 { print("") }
  return times.sorted()
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "") ?? 300
var pageBytes = 0
let render = measure(runs) {
  let page = MeetingPage.render(
    meeting, title: "Platform Stand-up", theme: "teal", person: person, at: 600)
  pageBytes = page.utf8.count
  return pageBytes
}
let json = try measure(runs) { try WireJSON.bytes(of: meeting).count }
let encoder = try measure(runs) { try WireJSON.encoder().encode(meeting).count }

print(
  "Meeting page of a \(Int(time / 60))-minute meeting: \(wordCount) words, \(segments.count) segments, \(pageBytes / 1024) KiB of HTML; \(runs) runs each"
)
func line(_ name: String, _ times: [Double]) -> String {
  let p50 = percentile(times, 0.5)
  let p99 = percentile(times, 0.99)
  return name.padding(toLength: 44, withPad: " ", startingAt: 0)
    + String(
      format: "p50 %7.2f ms   p99 %7.2f ms   p99/baseline %5.2f", p50, p99,
      p99 / percentile(json, 0.99))
}
print(line("render the page (?t=600)", render))
print(line("baseline: the API's JSON of the meeting", json))
print(line("the same JSON from JSONEncoder (before)", encoder))
let p99 = percentile(render, 0.99)
print(
  String(
    format: "goal: p99 <= 100 ms to render the page: %@ (%.1f ms)", p99 <= 100 ? "met" : "NOT MET",
    p99))
if p99 > 100 { exit(1) }
