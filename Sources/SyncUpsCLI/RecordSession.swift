import AudioCaptureClient
import Foundation
import SyncUpsFeatures
import TranscriptionClient

/// `syncups record`: runs the `RecordMeeting` feature in a store with the live clients, shows it
/// (a live screen on a terminal, plain lines otherwise), journals every final utterance for crash
/// safety, ends and saves on SIGINT/SIGTERM, and says where the meeting was saved.
@MainActor
public final class RecordSession {
  public struct Configuration: Sendable {
    public var source: String?
    public var input: URL?
    public var fast = false
    public var transcribes = true
    public var keepsAudio = true

    public init(
      source: String? = nil, input: URL? = nil, fast: Bool = false, transcribes: Bool = true,
      keepsAudio: Bool = true
    ) {
      self.source = source
      self.input = input
      self.fast = fast
      self.transcribes = transcribes
      self.keepsAudio = keepsAudio
    }
  }

  private let store: Store<RecordMeeting.State, RecordMeeting.Action>
  private let syncUps: SyncUpsStore
  private let syncUp: Shared<SyncUp>
  private let meter: LevelMeter
  private let journal: MeetingJournal
  private let output: any RecordOutput

  /// Prepares a recording of the sync-up `reference` names; fails with one line when it cannot.
  public init(reference: String, configuration: Configuration) async throws(CLIError) {
    let syncUps = try SyncUpsStore.open()
    let syncUp = try syncUps.resolve(reference)
    let meter = LevelMeter()
    let (capture, recordsAudio) = try await Self.capture(for: configuration, meter: meter)
    if recordsAudio, configuration.transcribes {
      do {
        try await TranscriptionClient.liveValue.checkModel()
      } catch {
        throw CLIError("\(error)")
      }
    }
    journal = try MeetingJournal.start(for: syncUp.wrappedValue.id)
    let options = RecordMeeting.Options(
      recordsAudio: recordsAudio,
      source: configuration.source,
      transcribes: configuration.transcribes,
      keepsAudio: configuration.keepsAudio,
      followsAudioTime: configuration.input != nil && configuration.fast
    )
    self.syncUps = syncUps
    self.syncUp = syncUp
    self.meter = meter
    self.store = Store(initialState: RecordMeeting.State(syncUp: syncUp, options: options)) {
      RecordMeeting()
    } withDependencies: {
      $0.audioCapture = capture
    }
    self.output = Terminal.isInteractive ? ScreenOutput(meter: meter) : LineOutput()
  }

  /// Records until the meeting's time is up, the input ends, the user ends it, or a signal
  /// arrives. Returns the saved meeting, or nil when the user discarded it.
  public func run() async throws(CLIError) -> Meeting? {
    let meetingsBefore = syncUp.wrappedValue.meetings.count
    let registration = Termination.onSignal { [weak self] _ in
      Task { @MainActor in self?.endAndSave() }
      return .keepRunning
    }
    defer { registration.remove() }

    output.start(store.state)
    let keys = output.wantsKeys ? Task { await self.handleKeys() } : nil
    let redraw = output.wantsKeys ? Task { await self.redrawPeriodically() } : nil
    store.send(.onTask)
    for await state in store.states {
      // Every final utterance goes to the journal before anything shows it.
      try journal.record(state.segments)
      output.update(state)
      if store.isDismissed { break }
    }
    keys?.cancel()
    redraw?.cancel()
    output.finish()

    try syncUps.save()
    journal.remove()
    guard syncUp.wrappedValue.meetings.count > meetingsBefore else { return nil }
    return syncUp.wrappedValue.meetings.first
  }

  /// Ends the meeting as "End meeting → Save and end" would.
  func endAndSave() {
    guard !store.isDismissed, !store.state.isFinishing else { return }
    if store.state.alert == nil { store.send(.endMeetingButtonTapped) }
    store.send(.alert(.presented(.confirmSave)))
  }

  private func handleKeys() async {
    let (keys, continuation) = AsyncStream.makeStream(of: Key.self)
    Terminal.readKeys { continuation.yield($0) } ended: { continuation.finish() }
    for await key in keys {
      switch RecordScreen.command(for: key, in: store.state) {
      case let .send(action)?: store.send(action)
      case .endAndSave?: endAndSave()
      case nil: break
      }
    }
  }

  /// The level meter moves between state changes.
  private func redrawPeriodically() async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(200))
      output.update(store.state)
    }
  }

  /// The capture to record from, and whether there is one: a file used as the microphone, or
  /// PulseAudio. Without a PulseAudio server the meeting goes on unrecorded, unless the user
  /// asked for a particular source.
  private static func capture(
    for configuration: Configuration, meter: LevelMeter
  ) async throws(CLIError) -> (AudioCaptureClient, Bool) {
    if let input = configuration.input {
      guard FileManager.default.fileExists(atPath: input.path) else {
        throw CLIError("cannot read \(input.path): no such file")
      }
      let replay = AudioCaptureClient.replaying(input, pace: configuration.fast ? .asFastAsPossible : .realTime)
      do {
        try await replay.checkAvailability(nil)
      } catch {
        throw CLIError("\(error)")
      }
      return (replay.metered(by: meter), true)
    }
    let live = AudioCaptureClient.liveValue
    do {
      try await live.checkAvailability(configuration.source)
      return (live.metered(by: meter), true)
    } catch {
      guard configuration.source == nil else { throw CLIError("\(error)") }
      FileHandle.standardError.write(
        Data("syncups: \(error); the meeting is timed without recording or transcription\n".utf8)
      )
      return (live, false)
    }
  }
}
