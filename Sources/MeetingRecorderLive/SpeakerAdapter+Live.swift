import AudioCore
import Dependencies
import Foundation
import MeetingRecorder
import TranscriptionClient
import TranscriptionClientLive
import WorkerThreads

extension SpeakerAdapter: DependencyKey {
  /// SphinxTrain's `bw` and `mllr_solve`, and a PocketSphinx decoder with `-mllr`, each on a
  /// worker thread (never the cooperative pool).
  public static let liveValue = SpeakerAdapter(
    estimate: { recordings in
      try await WorkerThread.run(name: "syncups-adapt") {
        try SpeakerTransforms.estimate(recordings.map { ($0.audioFile, $0.spans) }).map {
          Estimate(transform: $0.transform, seconds: $0.seconds)
        }
      }
    },
    redecode: { audioFile, spans, transform, vocabulary, teamModel in
      let options = DecoderOptions().sentencePass(
        TranscriptionOptions(vocabulary: vocabulary, teamModel: teamModel?.path))
      return try await WorkerThread(
        name: "syncups-adapted-pass", stackSize: SpeechDecoder.stackSize
      ).run {
        try SpeakerTransforms.redecode(
          audio: audioFile, spans: spans, transform: transform, options: options)
      }
    }
  )
}
