import Foundation
import Glibc
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// What a meeting teaches does not depend on the front end that recorded it: the sample
/// stand-up played into a virtual microphone and recorded in the interactive app teaches the
/// sync-up what `syncups record` teaches it from the same audio (`--input`): its words (its own
/// language model), its attendees' voices (named by voice in the whole sentences), and the
/// sentence pass and voice adaptation run in the background.
@Suite("the interactive app learns what record learns", .serialized)
struct InteractiveLearningTests {
  let terminal = Tmux(prefix: "syncups-learn")
  static let syncUpID = SyncUp.ID(UUID(uuidString: "11111111-2222-3333-4444-555555555555")!)

  /// What a data directory learned of its sync-up, once nothing is left in the background (the
  /// app or command that saved the meeting has ended).
  struct Learned: Equatable {
    var hasWords: Bool
    var wordsHoldTheMeeting: Bool
    var voices: Set<Attendee.ID>
    var adaptations: Set<Attendee.ID>
    var pendingSentencePasses: Int
    var speakers: [String]
  }

  static func learned(_ home: URL) async throws -> Learned {
    // The sentence pass, the words it changes and the voices' adaptation run in a process of
    // their own, after the save.
    #expect(await waitForBackgroundLearning(home))
    let database = try SyncUpsDatabase.open(DataDirectory(url: home))
    let model = home.appendingPathComponent(DataDirectory.teamWordsFile(of: syncUpID))
    let words = (try? String(contentsOf: model, encoding: .utf8)) ?? ""
    let meeting = try #require(try database.exportedSyncUps().first?.meetings.first)
    return Learned(
      hasWords: !words.isEmpty,
      wordsHoldTheMeeting: words.contains(" migration") && words.contains(" yesterday"),
      voices: Set(try database.voiceProfiles(syncUpID).keys),
      adaptations: Set(try database.speakerAdaptations(syncUpID).keys),
      pendingSentencePasses: try database.pendingSentencePasses().count,
      speakers: meeting.segments.map(\.speaker))
  }

  @Test func aMeetingRecordedInTheAppTeachesWhatRecordTeaches() async throws {
    let pulse = DisposablePulse()
    try pulse.start()
    defer { pulse.remove() }
    let microphone = try VirtualMicrophone(environment: pulse.environment)
    defer { microphone.remove() }
    // The app records from the server's default microphone.
    try run("pactl", ["set-default-source", microphone.name], environment: pulse.environment)
    let raw = NSTemporaryDirectory() + "syncups-standup-\(UUID().uuidString.prefix(8)).raw"
    defer { unlink(raw) }
    let wav = samples.appendingPathComponent("standup.wav").path
    try run("sox", [wav, "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", raw])
    let audio = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes {
      Array($0.bindMemory(to: Int16.self))
    }

    // A 40-second meeting: the 32-second sample, then its time runs out and it is saved.
    let app = try seededDataDirectory(attendees: ["Ana", "Ben", "Cleo"], seconds: 40)
    defer { try? FileManager.default.removeItem(at: app) }
    let environment = pulse.environment.filter { $0.key.hasPrefix("PULSE_") }
      .map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    try terminal.start(
      "\(environment) SYNCUPS_HOME='\(app.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60")
    defer { terminal.kill() }
    #expect(try await terminal.waitForScreen { $0.contains("Morning Sync") })
    try terminal.keys("Enter")
    #expect(try await terminal.waitForScreen { $0.contains("s start meeting") })
    try terminal.keys("s")
    #expect(
      try await terminal.waitForScreen { $0.contains("Speaker 1 of 3: Ana") },
      "\((try? terminal.screen()) ?? "")")
    let done = Flag()
    let player = Task { try await microphone.play(audio) { done.isSet } }
    #expect(
      try await terminal.waitForScreen {
        $0.contains("Past meetings") && !$0.contains("none yet")
      },
      "\((try? terminal.screen()) ?? "")")
    done.set()
    _ = try? await player.value
    try terminal.keys("b")
    #expect(try await terminal.waitForScreen { $0.contains("a add · d delete · q quit") })
    try terminal.keys("q")
    #expect(try await terminal.waitForScreen { $0.contains("EXIT=0") })
    let inApp = try await Self.learned(app)

    // The same audio through `syncups record --input`.
    let command = try seededDataDirectory(attendees: ["Ana", "Ben", "Cleo"], seconds: 40)
    defer { try? FileManager.default.removeItem(at: command) }
    let record = try await runSyncups(
      ["record", Self.syncUpID.rawValue.uuidString, "--input", wav, "--fast"],
      environment: ["SYNCUPS_HOME": command.path])
    #expect(record.status == 0, "\(record)")
    let byRecord = try await Self.learned(command)

    #expect(inApp.hasWords && inApp.wordsHoldTheMeeting, "\(inApp)")
    #expect(inApp.voices.count == 3, "\(inApp)")
    #expect(inApp.pendingSentencePasses == 0)
    // Named by voice, as the sample's voices speak (Samples/standup.script).
    #expect(inApp.speakers == ["Ana", "Ben", "Cleo", "Ana", "Ben", "Cleo", "Ana"], "\(inApp)")
    #expect(inApp == byRecord)
  }
}
