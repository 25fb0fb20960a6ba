import AudioCaptureClient
import Foundation
import SyncUpsFeatures

/// `syncups record`: runs the `RecordMeeting` feature in a store with the live clients and shows
/// it (a live screen on a terminal, plain lines otherwise). Keys and SIGINT/SIGTERM become
/// actions; the feature does the rest (crash safety, ending, saving).
@MainActor
public final class RecordSession {
  public struct Configuration: Sendable {
    /// The PulseAudio sources to record, mixed when there are several (none: the server's
    /// default, or those last given).
    public var sources: [String]
    /// A remote stand-up: the default microphone and the monitor of the default output.
    public var call: Bool
    public var input: URL?
    public var fast = false
    public var transcribes = true
    public var keepsAudio = true
    /// What the transcription uses of what the sync-up learned (`--use-learning`).
    public var learning = LearningUse.all

    public init(
      sources: [String] = [], call: Bool = false, input: URL? = nil, fast: Bool = false,
      transcribes: Bool = true, keepsAudio: Bool = true, learning: LearningUse = .all
    ) {
      self.sources = sources
      self.call = call
      self.input = input
      self.fast = fast
      self.transcribes = transcribes
      self.keepsAudio = keepsAudio
      self.learning = learning
    }

    /// The feature's one input value for these flags.
    public var recordingInput: RecordMeeting.Input {
      var keeping = RecordMeeting.Keep()
      if transcribes { keeping.insert(.transcript) }
      if keepsAudio { keeping.insert(.audio) }
      if let input {
        return .file(input, pace: fast ? .fast : .realTime, keeping: keeping)
      }
      return sources.count > 1
        ? .mix(sources, keeping: keeping) : .microphone(sources.first, keeping: keeping)
    }
  }

  private let store: Store<RecordMeeting.State, RecordMeeting.Action>
  private let syncUp: Shared<SyncUp>
  private let output: any RecordOutput
  private var reportedNotice: String?
  /// The `--source`s given, remembered once they recorded (sources that failed are not).
  private let givenSources: [String]

  /// Prepares a recording of the sync-up `reference` names; fails with one line when it cannot.
  public init(reference: String, configuration: Configuration) async throws(CLIError) {
    let syncUps = try await EditableSyncUps.open()
    let syncUp = try syncUps.resolve(reference)
    try syncUps.checkWritable()
    var configuration = configuration
    if configuration.input == nil {
      configuration.sources =
        configuration.call
        ? try await Self.callSources() : await Self.microphones(configuration.sources)
    }
    @Dependency(\.uuid) var uuid
    let state = RecordMeeting.State(
      meetingID: Meeting.ID(uuid()), syncUp: syncUp, input: configuration.recordingInput,
      learning: configuration.learning
    )
    self.syncUp = syncUp
    self.givenSources =
      configuration.input == nil && !configuration.call ? configuration.sources : []
    self.store = Store(initialState: state) { RecordMeeting() }
    // `RecordMeeting` shows an utterance only once the recording store has it, so what a
    // script saw survives a SIGKILL.
    self.output = Terminal.isInteractive ? ScreenOutput() : LineOutput()
  }

  /// The sources to record: those given (remembered once they recorded, see `remember`), else
  /// those last given if they all still exist (said in one line), else the server's default
  /// (none).
  static func microphones(_ given: [String]) async -> [String] {
    @Shared(.appStorage("record.source")) var remembered = ""
    guard given.isEmpty else { return given }
    let last = remembered.split(separator: "\n").map(String.init)
    guard !last.isEmpty else { return [] }
    let names = last.map(\.visible).joined(separator: ", ")
    @Dependency(\.audioCapture) var audioCapture
    guard let sources = try? await audioCapture.sources(),
      !last.allSatisfy({ name in sources.contains { $0.name == name } })
    else {
      let what = last.count == 1 ? "microphone" : "sources"
      Console.error("using \(what) \(names) (last used; --source to change)")
      return last
    }
    let what =
      last.count == 1
      ? "the microphone last used, \(names), is" : "of the sources last used, \(names), some are"
    Console.error(
      "\(what) gone; using the default (--source to choose one; 'syncups sources' lists them)")
    return []
  }

  /// `--call`: the server's default microphone and the monitor of its default output.
  static func callSources() async throws(CLIError) -> [String] {
    @Dependency(\.audioCapture) var audioCapture
    let sources: [AudioSource]
    do {
      sources = try await audioCapture.sources()
    } catch {
      throw CLIError("\(error)")
    }
    return try callSources(from: sources)
  }

  /// `--call`'s sources among `sources`, or one line: what is missing and what to do.
  nonisolated public static func callSources(from sources: [AudioSource]) throws(CLIError)
    -> [String]
  {
    do {
      return try CallSources.pick(from: sources)
    } catch {
      throw CLIError(
        "--call: \(error.description.visible), or name the sources with --source "
          + "('syncups sources' lists them)")
    }
  }

  /// The sources for the next `record` without `--source`.
  private static func remember(_ sources: [String]) {
    @Shared(.appStorage("record.source")) var remembered = ""
    let joined = sources.joined(separator: "\n")
    guard !sources.isEmpty, joined != remembered else { return }
    $remembered.withLock { $0 = joined }
    try? $remembered.save()
  }

  /// Records until the meeting's time is up, the input ends, the user ends it, or a signal
  /// arrives. Returns the saved meeting, or nil when the user discarded it.
  /// The sync-up being recorded.
  public var syncUpID: SyncUp.ID { syncUp.wrappedValue.id }

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
    Self.remember(givenSources)
    // The meeting as saved (the list holds it as a summary, without its segments).
    guard case .saved(let meeting) = store.state.status else { return nil }
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
