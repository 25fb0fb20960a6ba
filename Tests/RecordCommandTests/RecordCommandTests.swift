import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

@Suite("syncups record", .serialized)
struct RecordCommandTests {
  @Test func fastFileInputSavesTheSampleMeetingWithItsAudio() async throws {
    let home = try dataDirectory()
    let run = try await syncups(
      [
        "record", "morning sync", "--input", samples.appendingPathComponent("standup.wav").path,
        "--fast",
      ],
      home: home
    )
    #expect(run.status == 0, "\(run.stderr)")
    // Saved with the second pass (whole sentences, the attendees' names as vocabulary): nobody
    // waits on a microphone, so the command waits for it however busy the machine is, and
    // leaves nothing to the background.
    #expect(!run.stderr.contains("the whole sentences are not ready yet"), "\(run.stderr)")
    #expect(try SyncUpsDatabase.open(DataDirectory(url: home)).pendingSentencePasses().isEmpty)
    let meeting = try #require(try savedMeetings(home).first)
    #expect(meeting["transcript"] as? String == (try committedRecording("standup")))
    // Who really spoke: the sample's voices are slt, rms, awb, slt, rms, awb, slt
    // (Samples/standup.script), each sentence named by its voice, not by whose slot it fell in
    // (by slot it was Ana, Ana, Ana, Ben, Ben, Ben, Cleo).
    #expect(
      segments(meeting).map(\.speaker) == ["Ana", "Ben", "Cleo", "Ana", "Ben", "Cleo", "Ana"])
    // Every utterance of the live pass was printed as it came, labelled by speaker.
    #expect(utteranceLines(run.stdout).count == 8)
    let audio = try #require(meeting["audioFile"] as? String)
    #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(audio).path))
    #expect(run.stdout.contains("Saved meeting"))
    // It counts what was saved (the second pass's sentences), not the lines printed.
    #expect(run.stdout.contains("(7 utterances)"), "\(run.stdout)")
    #expect(run.stdout.contains(home.appendingPathComponent("syncups.sqlite").path))
    // A normal save leaves no unfinished meeting behind.
    #expect(try SyncUpsDatabase.open(DataDirectory(url: home)).unfinished().isEmpty)
  }

  @Test func sigintEndsTheMeetingAndSavesIt() async throws {
    let home = try dataDirectory()
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path],
      home: home
    )
    #expect(await record.wait { utteranceLines($0.stdout).count >= 2 })
    record.signal(SIGINT)
    #expect(await record.finish() == 0)
    let printed = utteranceLines(record.stdout)
    let meeting = try #require(try savedMeetings(home).first)
    let saved = segments(meeting)
    #expect(saved.count >= 2)
    // Saved: the second pass over what was heard, which begins as a whole recording's does
    // (`Samples/make-samples`), or the live pass when the second had not caught up (a busy
    // machine), with the speaker the live pass printed first.
    let first = String(try #require(printed.first).drop { $0 != "]" }.dropFirst(2))
    #expect(first.hasPrefix("\(saved[0].speaker): "), "\(first)")
    #expect(
      try committedRecording("standup").hasPrefix(saved[0].text + " ")
        || first == "\(saved[0].speaker): \(saved[0].text)", "\(saved)")
    #expect(record.stdout.contains("Saved meeting"))
  }

  @Test func meetingKilledWithSIGKILLIsRecoveredByTheNextCommand() async throws {
    let home = try dataDirectory()
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path],
      home: home
    )
    #expect(await record.wait { utteranceLines($0.stdout).count >= 3 })
    record.signal(SIGKILL)
    _ = await record.finish()
    let printed = utteranceLines(record.stdout)
    #expect(try savedMeetings(home).isEmpty)

    // Any command recovers the meeting first, and says so.
    let next = try await syncups(["record", "no such sync-up"], home: home)
    #expect(next.stderr.contains("recovered an unfinished meeting of 'Morning Sync'"))
    let meeting = try #require(try savedMeetings(home).first)
    let recovered = segments(meeting).map { "\($0.speaker): \($0.text)" }
    // Every utterance finalized (and so printed) before the kill is in the recovered meeting.
    for line in printed {
      let utterance = String(line.drop { $0 != "]" }.dropFirst(2))
      #expect(recovered.contains(utterance), "missing \(utterance)")
    }
    #expect(recovered.count >= printed.count)
    #expect(meeting["audioFile"] as? String != nil)
  }

  @Test func unknownSyncUpIsOneLineWithASuggestion() async throws {
    let home = try dataDirectory()
    // ("morning" is the start of the title, so it finds it: a misspelling does not.)
    let run = try await syncups(["record", "mornin sync"], home: home)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "syncups: no sync-up matches 'mornin sync'; did you mean 'Morning Sync' (11111111)?\n")
  }

  @Test func missingOrUnreadableInputIsOneLine() async throws {
    let home = try dataDirectory()
    let missing = try await syncups(
      ["record", "Morning Sync", "--input", "/nonexistent/meeting.wav"], home: home)
    #expect(missing.status == 1)
    #expect(missing.stderr == "syncups: cannot read /nonexistent/meeting.wav: no such file\n")
    let text = try await syncups(
      [
        "record", "Morning Sync", "--input",
        repositoryRoot.appendingPathComponent("README.md").path,
      ],
      home: home
    )
    #expect(text.status == 1)
    #expect(text.stderr.split(separator: "\n").count == 1)
    #expect(text.stderr.contains("not an audio file"))
    #expect(try savedMeetings(home).isEmpty)
  }

  @Test func aDamagedDatabaseIsReportedAndLeftUntouched() async throws {
    let home = try dataDirectory()
    let damaged = Data("{\"formatVersion\": 1, \"syncUps\": [".utf8)
    try damageDatabase(home, with: damaged)
    let run = try await syncups(["record", "Morning Sync", "--input", "x.wav"], home: home)
    #expect(run.status == 1)
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(
      run.stderr.hasPrefix(
        "syncups: \(home.appendingPathComponent("syncups.sqlite").path) is damaged or not a "
          + "SyncUps database"), "\(run.stderr)")
    #expect(try Data(contentsOf: home.appendingPathComponent("syncups.sqlite")) == damaged)
  }

  @Test func noPulseAudioWithAnExplicitSourceFails() async throws {
    let home = try dataDirectory()
    let run = try await syncups(
      ["record", "Morning Sync", "--source", "virtmic"], home: home,
      environment: ["PULSE_SERVER": "unix:/nonexistent/pulse"]
    )
    #expect(run.status == 1)
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.hasPrefix("syncups: PulseAudio is not running"))
  }

  @Test func noPulseAudioOtherwiseTimesTheMeetingWithoutRecording() async throws {
    let home = try dataDirectory(seconds: 2)
    let run = try await syncups(
      ["record", "Morning Sync"], home: home,
      environment: ["PULSE_SERVER": "unix:/nonexistent/pulse"]
    )
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("syncups: PulseAudio is not running"))
    #expect(run.stderr.contains("the meeting is timed without recording or transcription"))
    let meeting = try #require(try savedMeetings(home).first)
    #expect(meeting["transcript"] as? String == "")
    #expect(meeting["audioFile"] == nil)
    // A silent meeting's length is how long it ran, not the end of its last word.
    #expect(meeting["length"] as? Double == 2)
    let meetings = try await syncups(["meetings", "Morning Sync"], home: home)
    #expect(
      meetings.stdout.split(separator: "\n").last?.contains("  00:02  ") == true,
      "\(meetings.stdout)")
  }

  /// A file named `audio` where the audio folder goes: one line says so, the meeting goes on
  /// and is saved with its transcript, without audio.
  @Test func unwritableAudioFolderIsOneLineAndTheMeetingGoesOn() async throws {
    let home = try dataDirectory()
    try Data("not a folder".utf8).write(to: home.appendingPathComponent("audio"))
    let run = try await syncups(
      [
        "record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path,
        "--fast",
      ],
      home: home
    )
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("syncups: cannot keep the meeting's audio: "))
    #expect(run.stderr.hasSuffix("; the meeting goes on without it\n"))
    #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("CodingKeys"))
    let meeting = try #require(try savedMeetings(home).first)
    // Without kept audio there is no second pass: the live pass is saved.
    #expect(
      meeting["transcript"] as? String == (try committedRecording("standup", audioKept: false)))
    #expect(meeting["audioFile"] == nil)
  }

  /// SIGTERM during a fast file recording stops it at once (not when the whole file is
  /// decoded) and saves what was heard, exactly once, whatever else arrives.
  @Test func sigtermStopsAFastRecordingAndSavesItOnce() async throws {
    let home = try dataDirectory()
    let record = try RunningSyncups(
      [
        "record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path,
        "--fast",
      ],
      home: home
    )
    #expect(await record.wait { utteranceLines($0.stdout).count >= 1 })
    record.signal(SIGTERM)
    record.signal(SIGTERM)
    record.signal(SIGINT)
    #expect(await record.finish() == 0)
    let meetings = try savedMeetings(home)
    #expect(meetings.count == 1)
    let saved = segments(try #require(meetings.first))
    #expect(saved.count == utteranceLines(record.stdout).count)
    // The file holds eight utterances; it stopped well before the end.
    #expect(saved.count < 8)
    #expect(record.stdout.contains("Saved meeting"))
  }

  /// SIGHUP (the terminal closed) and SIGQUIT end the meeting and save it as Ctrl-C does: no
  /// crash report, no meeting lost.
  @Test(arguments: [SIGHUP, SIGQUIT])
  func hangUpAndQuitEndTheMeetingAndSaveIt(signal: Int32) async throws {
    let home = try dataDirectory()
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path],
      home: home
    )
    #expect(await record.wait { utteranceLines($0.stdout).count >= 1 })
    record.signal(signal)
    #expect(await record.finish() == 0, "\(record.stderr)")
    #expect(try savedMeetings(home).count == 1)
    #expect(record.stdout.contains("Saved meeting"))
    #expect(!record.stderr.contains("Backtrace") && !record.stderr.contains("Crash"))
  }

  /// Ended before anything was heard: nothing is saved (and nothing is left to recover), and
  /// one line says so.
  @Test func meetingEndedBeforeAnythingWasHeardIsDropped() async throws {
    let home = try dataDirectory()
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path],
      home: home
    )
    #expect(await record.wait { $0.stdout.contains("Recording ") })
    record.signal(SIGINT)
    #expect(await record.finish() == 0, "\(record.stderr)")
    #expect(
      record.stderr.contains("the meeting ended before anything was heard; nothing was saved"),
      "\(record.stderr)")
    #expect(try savedMeetings(home).isEmpty)
    let next = try await syncups(["meetings", "Morning Sync"], home: home)
    #expect(!next.stderr.contains("recovered"), "\(next.stderr)")
    #expect(try savedMeetings(home).isEmpty)
    let audio = home.appendingPathComponent("audio")
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: audio.path)) ?? []).isEmpty)
  }

  /// The whole-sentence pass of a meeting saved before it caught up runs again from the kept
  /// audio: by `syncups sentences`, which any command starts in the background, once.
  @Test func aLateSentencePassFinishesFromTheKeptAudio() async throws {
    let home = try dataDirectory()
    let run = try await syncups(
      [
        "record", "Morning Sync", "--input", samples.appendingPathComponent("standup.wav").path,
        "--fast",
      ],
      home: home
    )
    #expect(run.status == 0, "\(run.stderr)")
    try await waitForSentencePasses(home)
    let before = try #require(try savedMeetings(home).first)
    let id = try #require(before["id"] as? String)
    let database = try SyncUpsDatabase.open(DataDirectory(url: home))
    try database.deferSentencePass(Meeting.ID(try #require(UUID(uuidString: id))))

    let sentences = try await syncups(["sentences"], home: home)
    #expect(sentences.status == 0, "\(sentences.stderr)")
    #expect(
      sentences.stderr.hasSuffix("the live transcript was replaced by 7 whole sentences\n"),
      "\(sentences.stderr)")
    let after = try #require(try savedMeetings(home).first)
    #expect(after["transcript"] as? String == (try committedRecording("standup")))
    #expect(segments(after).map(\.speaker) == segments(before).map(\.speaker))
    #expect(try database.pendingSentencePasses().isEmpty)

    // Left to do again (its background pass was killed, say): the next command starts it.
    try database.deferSentencePass(Meeting.ID(try #require(UUID(uuidString: id))))
    let list = try await syncups(["list"], home: home)
    #expect(list.status == 0, "\(list.stderr)")
    try await waitForSentencePasses(home)
    #expect(
      try savedMeetings(home).first?["transcript"] as? String == after["transcript"] as? String)
  }
}
