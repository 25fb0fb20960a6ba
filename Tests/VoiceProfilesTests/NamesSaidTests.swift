import Testing
import VoiceProfiles

/// A first meeting's voices renamed after the names said: hand-overs, thanks, introductions.
@Suite struct NamesSaidTests {
  static let team = ["Ana", "Ben", "Cleo"]

  static func renamed(_ said: [(Int, String)], movable: Set<Int> = [0, 1, 2]) -> [Int] {
    SpeakerLabels.renamedBySpeech(
      speakers: said.map(\.0), texts: said.map(\.1), names: team, movable: movable)
  }

  /// Cleo runs the meeting, then Ben, then Ana speak; named in the order they first speak,
  /// Cleo's voice got Ana's name, Ben's kept his, Ana's got Cleo's.
  static let outOfOrder: [(Int, String)] = [
    (0, "good morning everyone"), (0, "yesterday i finished the login page"),
    (0, "okay ben you're next"),
    (1, "thanks cleo"), (1, "yesterday i fixed the upload test"),
    (1, "ana do you want to go"),
    (2, "sure"), (2, "today i will review the pull requests"),
  ]

  @Test func handOversAndThanksRenameVoicesNamedOutOfOrder() {
    #expect(Self.renamed(Self.outOfOrder) == [2, 1, 0])
  }

  @Test func voicesKnownBeforeAreNeverRenamed() {
    #expect(Self.renamed(Self.outOfOrder, movable: [1]) == [0, 1, 2])
    #expect(Self.renamed(Self.outOfOrder, movable: [0, 1]) == [0, 1, 2])
  }

  @Test func anIntroductionNamesItsVoice() {
    let said: [(Int, String)] = [
      (0, "hi i'm cleo"), (0, "yesterday i wrote the docs"), (1, "today i will fix the build"),
      (2, "no blockers"),
    ]
    #expect(Self.renamed(said) == [2, 1, 0])
  }

  @Test func noNameSaidKeepsTheNames() {
    let said: [(Int, String)] = [
      (0, "yesterday i finished the login page"), (1, "today i will add tests"),
      (2, "i am blocked by the build server"),
    ]
    #expect(Self.renamed(said) == [0, 1, 2])
  }

  /// Names said as part of what was done or needed ("with Ana", "I need Ben to") and a
  /// subject heard as a name ("yesterday eli onboarded") address no one.
  @Test func namesSaidInPassingKeepTheNames() {
    let said: [(Int, String)] = [
      (0, "yesterday i paired with ben"), (0, "i need cleo to review it"),
      (1, "yesterday ana onboarded the new hire"), (1, "today i will work with cleo"),
      (2, "today i will fix the checkout bugs with ana"),
    ]
    #expect(Self.renamed(said) == [0, 1, 2])
  }

  /// A voice rightly named Cleo whose words are twice heard as "cleo" (the team's names are
  /// the recogniser's words): speaking against its name alone renames no one.
  @Test func aNameHeardInPassingAloneRenamesNoOne() {
    let said: [(Int, String)] = [
      (0, "yesterday i finished the login page"), (1, "today i will add tests"),
      (2, "the cleo do you want to start"), (2, "today i will pair with whom on the cleo problem"),
    ]
    #expect(Self.renamed(said) == [0, 1, 2])
  }

  /// One name heard at the start of a turn's last sentence ("pia ticket is ready" for "the
  /// ticket"), or one hand-over alone, renames no one.
  @Test func oneNameMisheardAtATurnsEndRenamesNoOne() {
    let misheard: [(Int, String)] = [
      (0, "yesterday i finished the login page"), (0, "ana ticket is ready for testing"),
      (1, "today i will add tests"), (2, "no blockers"),
    ]
    #expect(Self.renamed(misheard) == [0, 1, 2])
    let once: [(Int, String)] = [
      (0, "yesterday i finished the login page"), (0, "ana do you want to go"),
      (1, "today i will add tests"), (2, "no blockers"),
    ]
    #expect(Self.renamed(once) == [0, 1, 2])
  }

  @Test func oneVoiceOrBadInputKeepsTheNames() {
    #expect(Self.renamed([(0, "okay ben")], movable: [0]) == [0, 1, 2])
    #expect(
      SpeakerLabels.renamedBySpeech(
        speakers: [0, 7], texts: ["okay ben", "thanks ana"], names: Self.team, movable: [0, 1, 2]
      ) == [0, 1, 2])
    #expect(
      SpeakerLabels.renamedBySpeech(speakers: [], texts: [], names: [], movable: []) == [])
  }
}
