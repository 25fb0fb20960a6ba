import Foundation
import SyncUpsTestSupport
import Testing

/// Concurrent edits of one sync-up: `syncups edit` changes only
/// what it names, over the sync-up as stored when it writes, so edits at the same time all
/// stand.
@Suite("syncups: concurrent edits of one sync-up", .serialized)
struct ConcurrentEditTests {
  /// Twenty times, two `edit --add-attendee` at once: 41 attendees (it kept 32).
  @Test func twoEditorsAddingAttendeesAtOnceKeepEveryAttendee() async throws {
    let home = try Home()
    let added = try await home.run("add", "--title", "T", "--attendee", "Base")
    #expect(added.status == 0, "\(added)")
    for round in 0..<20 {
      let runs = await concurrently(2) { editor in
        await result {
          try await home.run("edit", "T", "--add-attendee", (editor == 0 ? "P" : "Q") + "\(round)")
        }
      }
      for run in runs {
        let run = try run.get()
        #expect(run.status == 0, "round \(round): \(run)")
      }
    }
    let attendees = try #require(try await home.listed().first?["attendees"] as? [String])
    let expected = ["Base"] + (0..<20).flatMap { ["P\($0)", "Q\($0)"] }
    #expect(attendees.count == 41)
    #expect(Set(attendees) == Set(expected))
  }

  /// Ten times, four editors at once (two adding attendees, one a word, one the duration): an
  /// edit of one field never undoes another's.
  @Test func editorsOfDifferentFieldsAtOnceKeepEveryChange() async throws {
    let home = try Home()
    let added = try await home.run("add", "--title", "Mixed", "--attendee", "Base")
    #expect(added.status == 0, "\(added)")
    let letters = Array("abcdefghij")
    for round in 0..<10 {
      let runs = await concurrently(4) { editor in
        let change: [String] =
          switch editor {
          case 0: ["--add-attendee", "P\(round)"]
          case 1: ["--add-attendee", "Q\(round)"]
          case 2: ["--add-word", "word\(letters[round])"]
          default: ["--duration", "\(round + 1)m"]
          }
        return await result { try await home.run(["edit", "Mixed"] + change) }
      }
      for run in runs {
        let run = try run.get()
        #expect(run.status == 0, "round \(round): \(run)")
      }
    }
    let show = try await home.run("show", "Mixed", "--json")
    #expect(show.status == 0, "\(show)")
    let shown = try #require(
      try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
    let attendees = try #require(shown["attendees"] as? [String])
    let newcomers: [String] = (0..<10).flatMap { (index: Int) -> [String] in
      ["P\(index)", "Q\(index)"]
    }
    #expect(Set(attendees) == Set(["Base"] + newcomers))
    #expect(attendees.count == 21)
    let words = try #require(shown["vocabulary"] as? [String])
    #expect(Set(words) == Set(letters.map { "word\($0)" }))
    #expect(shown["duration"] as? Double == 600)
  }
}
