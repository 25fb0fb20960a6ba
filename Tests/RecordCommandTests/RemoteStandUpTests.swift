import AudioFilesClient
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// Remote stand-ups end to end: `syncups record --source A --source B` and
/// `--call` through real PulseAudio daemons, two spoken clips played into two virtual sources
/// one after the other, as the two ends of a call take turns.
@Suite("syncups record from several sources", .serialized)
struct RemoteStandUpTests {
  let terminal = Tmux(prefix: "syncups-remote")

  /// The two clips: one for the room's microphone, one for the call; the second starts a second
  /// after the first ends.
  static func clips() throws -> (room: [Int16], call: [Int16]) {
    let room = try AudioFileReader(path: samples.appendingPathComponent("hello.wav").path)
      .readAll()
    let call = try AudioFileReader(path: samples.appendingPathComponent("vocabulary.wav").path)
      .readAll()
    return (room, [Int16](repeating: 0, count: room.count + 16_000) + call)
  }

  /// The room's and the call's virtual microphones on the private daemon, and a data folder
  /// with a sync-up of five minutes.
  static func twoMicrophones() throws -> (
    room: VirtualMicrophone, call: VirtualMicrophone, home: URL
  ) {
    (try VirtualMicrophone(), try VirtualMicrophone(), try dataDirectory(seconds: 300))
  }

  /// A daemon of its own (its default output a null sink, `syncups_out`) with a virtual
  /// microphone as its default source.
  static func daemonWithAMicrophone() throws -> (DisposablePulse, VirtualMicrophone) {
    let pulse = DisposablePulse()
    try pulse.start()
    let room = try VirtualMicrophone(environment: pulse.environment)
    try SyncUpsTestSupport.run(
      "pactl", ["set-default-source", room.name], environment: pulse.environment)
    return (pulse, room)
  }

  /// Words of each clip's script (Samples/hello.txt, Samples/vocabulary.txt) that the decoder
  /// hears on its own.
  static let roomWords = "hello world"
  static let callWords = "terraform changes"

  /// On a terminal: the level meter shows each source by name, each one moving while its clip
  /// plays, and the saved meeting holds the words of both.
  @Test func twoSourcesAreMixedIntoOneMeetingWithALevelEach() async throws {
    let pulse = try PrivatePulse.environment()
    let (room, call, home) = try Self.twoMicrophones()
    defer {
      room.remove()
      call.remove()
    }
    try terminal.start(
      "PULSE_SERVER='\(pulse["PULSE_SERVER"] ?? "")' SYNCUPS_HOME='\(home.path)' "
        + "'\(syncupsBinary.path)' record 'Morning Sync' --source \(room.name) "
        + "--source \(call.name); echo EXIT=$?; sleep 60")
    defer { terminal.kill() }
    #expect(try await terminal.waitForScreen { $0.contains("● REC") })

    let (roomClip, callClip) = try Self.clips()
    let done = Flag()
    let players = [
      Task { try await room.play(roomClip) { done.isSet } },
      Task { try await call.play(callClip) { done.isSet } },
    ]
    defer { done.set() }
    /// The meter line of `source` shows some level.
    func moving(_ source: VirtualMicrophone) -> (String) -> Bool {
      { screen in
        screen.split(separator: "\n").contains {
          $0.hasPrefix(" \(source.name) ") && $0.contains("█")
        }
      }
    }
    #expect(try await terminal.waitForScreen(moving(room)), "\((try? terminal.screen()) ?? "")")
    #expect(try await terminal.waitForScreen(moving(call)), "\((try? terminal.screen()) ?? "")")
    #expect(try await terminal.waitForScreen { $0.contains(Self.callWords) })
    try terminal.keys("q")
    #expect(
      try await terminal.waitForScreen { $0.contains("EXIT=0") },
      "\((try? terminal.screen()) ?? "")")
    done.set()
    for player in players { _ = try? await player.value }
    try await waitForSentencePasses(home)

    let meeting = try #require(try savedMeetings(home).first)
    let text = try #require(meeting["transcript"] as? String)
    #expect(text.contains(Self.roomWords) && text.contains(Self.callWords), "\(text)")
  }

  /// `--call` on a daemon of its own: its default source is a (virtual) microphone, its default
  /// output a null sink the call plays through; the meeting holds the words of both.
  @Test func callRecordsTheDefaultMicrophoneAndWhatTheDefaultOutputPlays() async throws {
    let (pulse, room) = try Self.daemonWithAMicrophone()
    defer {
      room.remove()
      pulse.remove()
    }
    let callFile = try TemporaryDirectory().url.appendingPathComponent("call.wav")
    let (roomClip, _) = try Self.clips()
    try await sox([
      samples.appendingPathComponent("vocabulary.wav").path, callFile.path, "pad",
      String(Double(roomClip.count) / 16_000 + 1), "1",
    ])

    let home = try dataDirectory(seconds: 300)
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--call"], home: home, environment: pulse.environment)
    #expect(await record.wait { $0.stdout.contains("Recording ") }, "\(record.stderr)")
    // The default microphone, then the monitor of the default output.
    #expect(
      await record.wait {
        $0.stdoutLines.contains("Sources, mixed: \(room.name), syncups_out.monitor")
      },
      "\(record.stdout)")
    let done = Flag()
    let player = Task { try await room.play(roomClip) { done.isSet } }
    defer { done.set() }
    let speakers = try ChildProcess(
      tool: "paplay", ["-d", "syncups_out", callFile.path], environment: pulse.environment)
    #expect(await speakers.finish() == 0, "\(speakers.stderr)")
    #expect(await record.wait { $0.stdout.contains(Self.callWords) }, "\(record.stdout)")
    record.signal(SIGINT)
    #expect(await record.finish() == 0, "\(record.stderr)")
    done.set()
    _ = try? await player.value
    try await waitForSentencePasses(home)

    let meeting = try #require(try savedMeetings(home).first)
    let text = try #require(meeting["transcript"] as? String)
    #expect(text.contains(Self.roomWords) && text.contains(Self.callWords), "\(text)")
  }

  /// The interactive app's call key (`c` on a sync-up) records what `--call` records: the
  /// meter shows the microphone and the call's output, and the saved meeting holds both.
  @Test func theAppsCallKeyRecordsTheMicrophoneAndTheCall() async throws {
    let (pulse, room) = try Self.daemonWithAMicrophone()
    defer {
      room.remove()
      pulse.remove()
    }
    let callFile = try TemporaryDirectory().url.appendingPathComponent("call.wav")
    let (roomClip, _) = try Self.clips()
    try await sox([
      samples.appendingPathComponent("vocabulary.wav").path, callFile.path, "pad",
      String(Double(roomClip.count) / 16_000 + 1), "1",
    ])
    let home = try dataDirectory(seconds: 300)
    try terminal.start(
      "PULSE_SERVER='\(pulse.server)' PULSE_RUNTIME_PATH='\(pulse.directory)' "
        + "SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60")
    defer { terminal.kill() }
    #expect(try await terminal.waitForScreen { $0.contains("Morning Sync") })
    try terminal.keys("Enter")
    #expect(try await terminal.waitForScreen { $0.contains("c call") })
    try terminal.keys("c")
    /// The meter has a line for `name`.
    func meter(_ name: String) -> (String) -> Bool {
      { screen in screen.split(separator: "\n").contains { $0.hasPrefix(" \(name) ") } }
    }
    #expect(
      try await terminal.waitForScreen { meter(room.name)($0) && meter("syncups_out.monitor")($0) },
      "\((try? terminal.screen()) ?? "")")

    let done = Flag()
    let player = Task { try await room.play(roomClip) { done.isSet } }
    defer { done.set() }
    let speakers = try ChildProcess(
      tool: "paplay", ["-d", "syncups_out", callFile.path], environment: pulse.environment)
    #expect(await speakers.finish() == 0, "\(speakers.stderr)")
    #expect(
      try await terminal.waitForScreen { $0.contains(Self.callWords) },
      "\((try? terminal.screen()) ?? "")")
    try terminal.keys("q")
    #expect(
      try await terminal.waitForScreen { $0.contains("Past meetings") && !$0.contains("none yet") },
      "\((try? terminal.screen()) ?? "")")
    try terminal.keys("b")
    try terminal.keys("q")
    #expect(
      try await terminal.waitForScreen { $0.contains("EXIT=0") },
      "\((try? terminal.screen()) ?? "")")
    done.set()
    _ = try? await player.value
    try await waitForSentencePasses(home)

    let meeting = try #require(try savedMeetings(home).first)
    let text = try #require(meeting["transcript"] as? String)
    #expect(text.contains(Self.roomWords) && text.contains(Self.callWords), "\(text)")
  }

  /// A source that goes away mid-meeting: one line says which and that the meeting was saved
  /// with what was heard, the exit is non-zero, and what was heard is in the meeting.
  @Test func aSourceThatGoesAwayEndsTheMeetingSavedWithWhatWasHeard() async throws {
    let (room, call, home) = try Self.twoMicrophones()
    defer {
      room.remove()
      call.remove()
    }
    let record = try RunningSyncups(
      ["record", "Morning Sync", "--source", room.name, "--source", call.name], home: home)
    #expect(await record.wait { $0.stdout.contains("Recording ") }, "\(record.stderr)")
    let (roomClip, _) = try Self.clips()
    let done = Flag()
    let players = [
      Task { try await room.play(roomClip) { done.isSet } },
      Task { try await call.play([]) { done.isSet } },
    ]
    defer { done.set() }
    #expect(await record.wait { $0.stdout.contains(Self.roomWords) }, "\(record.stdout)")
    call.remove()
    let status = await record.finish()
    done.set()
    for player in players { _ = try? await player.value }
    #expect(status == 1, "\(record.stderr)")
    #expect(
      record.stderrLines.filter { $0.contains(call.name) } == [
        "syncups: PulseAudio's source \(call.name) went away while recording (unplugged or "
          + "removed; 'syncups sources' lists those left); the meeting was saved with what was "
          + "heard until then"
      ], "\(record.stderr)")
    try await waitForSentencePasses(home)
    let meeting = try #require(try savedMeetings(home).first)
    #expect((meeting["transcript"] as? String)?.contains(Self.roomWords) == true)
  }

  /// A source that does not exist: one line, a non-zero exit, nothing saved.
  @Test func aSourceThatDoesNotExistIsOneLine() async throws {
    try PrivatePulse.start()
    let room = try VirtualMicrophone()
    defer { room.remove() }
    let home = try dataDirectory()
    let run = try await syncups(
      ["record", "Morning Sync", "--source", room.name, "--source", "syncups_no_such_source"],
      home: home)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "syncups: PulseAudio has no source named syncups_no_such_source (list them with "
        + "`pactl list short sources`)\n")
    #expect(try savedMeetings(home).isEmpty)
  }

  /// `--call` on a daemon with a microphone but no output: one line says what is missing and
  /// what to do, and nothing is recorded.
  @Test func callWithoutADefaultOutputIsOneLine() async throws {
    let (pulse, room) = try Self.daemonWithAMicrophone()
    defer {
      room.remove()
      pulse.remove()
    }
    try SyncUpsTestSupport.run(
      "pactl", ["unload-module", "module-null-sink"], environment: pulse.environment)
    let home = try dataDirectory()
    let run = try await syncups(
      ["record", "Morning Sync", "--call"], home: home, environment: pulse.environment)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "syncups: --call: PulseAudio has no default output to hear the call from; choose the "
        + "one the call plays through with 'pactl set-default-sink NAME', or name the sources "
        + "with --source ('syncups sources' lists them)\n")
    #expect(try savedMeetings(home).isEmpty)
  }
}
