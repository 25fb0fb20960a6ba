import WorkerThreads

/// A flag one task sets and another polls (e.g. "stop playing into the microphone"): the same
/// flag worker threads' jobs poll to stop early.
public typealias Flag = StopFlag
