import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import Testing
import VoiceProfiles

/// `syncups show` says what is known of people and of the team's words; `syncups forget`
/// drops it, asking first as `delete` does.
@Suite struct ForgetCommandTests {
  /// A home with sync-up Daily (Ana, Ben): Ana's voice and adaptation learned, and the team's.
  static func learned() async throws -> (Home, SyncUp) {
    let home = try Home()
    let add = try await home.run(
      "add", "--title", "Daily", "--attendee", "Ana", "--attendee", "Ben")
    #expect(add.status == 0, "\(add)")
    let syncUp = try #require(try home.load().first)
    let database = try SyncUpsDatabase.open(home.dataDirectory)
    let model = GaussianMixture(
      dimension: 2, weights: [0.5, 0.5], means: [0, 1, 2, 3], variances: [1, 1, 1, 1],
      counts: [10, 10])
    let ana = syncUp.attendees[0].id
    try database.learnVoices([ana: VoiceProfile(model: model, meetings: 2, seconds: 94.4)])
    try database.saveSpeakerAdaptations([
      ana: SpeakerAdaptation(seconds: 75, transform: Data("1 1 2 1 0 0 1 0 0 1 1".utf8)),
      syncUp.attendees[1].id: .notKept(seconds: 41),
    ])
    try database.saveTeamAdaptation(
      syncUp.id, SpeakerAdaptation(seconds: 116, transform: Data("1 1 2 1 0 0 1 0 0 1 1".utf8)))
    try database.writer.close()
    return (home, syncUp)
  }

  @Test func showSaysWhatIsKnownOfEachPersonAndOfTheWords() async throws {
    let (home, _) = try await Self.learned()
    let shown = try await home.run("show", "daily")
    #expect(shown.status == 0, "\(shown)")
    #expect(
      shown.stdout.contains(
        """
        People:       Ana: voice from 2 meetings, 94 s of speech; recogniser adapted on 75 s
                      Ben: voice not heard yet; recogniser adaptation on 41 s not used \
        (no fewer errors)
        Team's room:  recogniser adapted on 116 s of everyone's speech
        Team's words: nothing learned yet
        Meetings:     0
        """), "\(shown)")
  }

  @Test func forgetAsksFirstAndRefusesWhatIsNotThere() async throws {
    let (home, _) = try await Self.learned()
    let before = try await home.run("show", "daily").stdout
    expectOneLineFailure(
      try await home.run("forget", "daily", "--attendee", "ana"),
      containing: ["without confirmation", "add --yes"])
    expectOneLineFailure(
      try await home.run("forget", "daily", "--attendee", "Cy", "--yes"),
      containing: ["has no attendee 'Cy'", "Ana, Ben"])
    expectOneLineFailure(
      try await home.run("forget", "nothing-like-it", "--yes"), containing: ["nothing-like-it"])
    #expect(try await home.run("show", "daily").stdout == before)
  }

  @Test func forgetAnAttendeeThenTheWholeSyncUp() async throws {
    let (home, syncUp) = try await Self.learned()
    let one = try await home.run("forget", "daily", "--attendee", "ANA", "--yes")
    #expect(one.status == 0 && one.stderr.isEmpty, "\(one)")
    #expect(one.stdout.hasPrefix("Forgot what was learned of Ana in 'Daily'"), "\(one)")
    let database = try SyncUpsDatabase.open(home.dataDirectory)
    #expect(try database.voiceProfiles(syncUp.id).isEmpty)
    #expect(try database.speakerAdaptations(syncUp.id).isEmpty)
    // The team's adaptation heard Ana too: it goes with her.
    #expect(try database.teamAdaptation(syncUp.id) == nil)
    #expect(try database.wordsLearnedSince(syncUp.id) == nil)
    let shown = try await home.run("show", "daily").stdout
    #expect(!shown.contains("Team's room:"), "\(shown)")
    #expect(shown.contains("People:       Ana: voice not heard yet; forgotten "), "\(shown)")
    #expect(shown.contains("              Ben: voice not heard yet; recogniser adaptation"))

    let all = try await home.run("forget", "daily", "--yes")
    #expect(all.status == 0, "\(all)")
    #expect(all.stdout.contains("the team's words"), "\(all)")
    #expect(try database.wordsLearnedSince(syncUp.id) != nil)
    let after = try await home.run("show", "daily").stdout
    #expect(after.contains("Ben: voice not heard yet; forgotten "), "\(after)")
    #expect(after.contains("Team's words: nothing learned yet; forgotten "), "\(after)")
    try database.writer.close()
  }
}
