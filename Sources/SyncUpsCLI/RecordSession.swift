import AudioCaptureClient
import Foundation
import SyncUpsFeatures

/// `syncups record`: runs the `RecordMeeting` feature in a store with the live clients and shows
/// it (a live screen on a terminal, plain lines otherwise). Keys and SIGINT/SIGTERM become
/// actions; the feature does the rest (crash safety, ending, saving).
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

    /// The feature's one input value for these flags.
    public var recordingInput: RecordMeeting.Input {
      var keeping = RecordMeeting.Keep()
      if transcribes { keeping.insert(.transcript) }
      if keepsAudio { keeping.insert(.audio) }
      if let input {
        return .file(input, pace: fast ? .fast : .realTime, keeping: keeping)
      }
      return .microphone(source, keeping: keeping)
    }
  }

  private let store: Store<RecordMeeting.State, RecordMeeting.Action>
  private let syncUp: Shared<SyncUp>
  private let output: any RecordOutput
  private var reportedNotice: String?
  /// The `--source` given, remembered once it recorded (a source that failed is not).
  private let givenSource: String?

  /// Prepares a recording of the sync-up `reference` names; fails with one line when it cannot.
  public init(reference: String, configuration: Configuration) async throws(CLIError) {
    let syncUps = try await SyncUpsStore.open()
    let syncUp = try syncUps.resolve(reference)
    try syncUps.checkWritable()
    var configuration = configuration
    if configuration.input == nil {
      configuration.source = await Self.microphone(configuration.source)
    }
    @Dependency(\.uuid) var uuid
    let state = RecordMeeting.State(
      meetingID: Meeting.ID(uuid()), syncUp: syncUp, input: configuration.recordingInput
    )
    self.syncUp = syncUp
    self.givenSource = configuration.input == nil ? configuration.source : nil
    self.store = Store(initialState: state) { RecordMeeting() }
    // `RecordMeeting` shows an utterance only once the recording store has it, so what a
    // script saw survives a SIGKILL.
    self.output = Terminal.isInteractive ? ScreenOutput() : LineOutput()
  }

  /// The microphone to record: the one given (remembered once it recorded, see `remember`),
  /// else the one last given if it still exists (said in one line), else the server's default
  /// (nil).
  static func microphone(_ given: String?) async -> String? {
    @Shared(.appStorage("record.source")) var remembered = ""
    if let given { return given }
    guard !remembered.isEmpty else { return nil }
    @Dependency(\.audioCapture) var audioCapture
    guard let sources = try? await audioCapture.sources(),
      !sources.contains(where: { $0.name == remembered })
    else {
      Console.error("using microphone \(remembered.visible) (last used; --source to change)")
      return remembered
    }
    Console.error(
      "the microphone last used, \(remembered.visible), is gone; using the default "
        + "(--source to choose one; 'syncups sources' lists them)")
    return nil
  }

  /// The microphone for the next `record` without `--source`.
  private static func remember(_ source: String) {
    @Shared(.appStorage("record.source")) var remembered = ""
    guard source != remembered else { return }
    $remembered.withLock { $0 = source }
    try? $remembered.save()
  }

  /// Records until the meeting's time is up, the input ends, the user ends it, or a signal
  /// arrives. Returns the saved meeting, or nil when the user discarded it.
  public func run() async throws(CLIError) -> Meeting? {
    let registration = Termination.onSignal { [weak self] _ in
      Task { @MainActor in self?.store.send(.endAndSaveRequested) }
      return .keepRunning
    }
    defer { registration.remove() }

    output.start(store.state)
    let keys = output.wantsKeys ? Task { await self.handleKeys() } : nil
    let redraw = output.wantsKeys ? Task { await self.redrawPeriodically() } : nil
    store.send(.onTask)
    for await state in store.states {
      output.update(state)
      report(state.notice)
      if store.isDismissed { break }
    }
    keys?.cancel()
    redraw?.cancel()
    output.finish()
    // The live screen showed it; the terminal keeps it once the screen is gone.
    if output.wantsKeys, let notice = reportedNotice { Console.error(notice) }

    if let failure = store.state.failure { throw CLIError(failure) }
    if let givenSource { Self.remember(givenSource) }
    guard var meeting = syncUp.wrappedValue.meetings[id: store.state.meetingID] else { return nil }
    // The list may hold it as a summary (after another process's change): its segments are these.
    meeting.segments = store.state.savedSegments
    return meeting
  }

  /// A problem the meeting went on after: one line on stderr as it happens (the live screen
  /// shows it instead, and it is printed once the screen is gone).
  private func report(_ notice: String?) {
    guard let notice, notice != reportedNotice else { return }
    reportedNotice = notice
    if !output.wantsKeys { Console.error(notice) }
  }

  private func handleKeys() async {
    let (keys, continuation) = AsyncStream.makeStream(of: Key.self)
    Terminal.readKeys {
      continuation.yield($0)
    } ended: {
      continuation.finish()
    }
    for await key in keys {
      if let action = RecordScreen.action(for: key, in: store.state) {
        store.send(action)
      }
    }
  }

  /// A resized terminal is redrawn between state changes.
  private func redrawPeriodically() async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(200))
      output.update(store.state)
    }
  }
}
