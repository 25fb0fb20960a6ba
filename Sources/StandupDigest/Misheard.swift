/// What the recogniser typically makes of the words the rules look for, so a cue still reads
/// when it is heard a little wrong: a name heard as a word that sounds like it ("li" for Lea,
/// "john" for Jon), "and" heard as "in" or "him" before a second thing done.
enum Misheard {
  /// A word's sound, roughly: its first letter, then its consonants (without "h", "w", "y"; a
  /// doubled one once). "lea" and "li" sound alike ("l"), so do "jon" and "john" ("jn").
  static func soundKey(_ word: String) -> String {
    guard let first = word.first else { return "" }
    var key = String(first)
    for letter in word.dropFirst() where !"aeiouhwy".contains(letter) {
      if key.last != letter { key.append(letter) }
    }
    return key
  }

  /// The attendee's name words (`names`, lower case) that `word` is or may be heard for. A
  /// word of the rules' own lists (a verb, a function word) is never taken for a name.
  static func name(_ word: String, in names: Set<String>) -> String? {
    if names.contains(word) { return word }
    guard word.count >= 2, word.count <= 6, !Words.empty.contains(word),
      !Words.commonVerbs.contains(word), !Words.connectors.contains(word),
      !Words.trailing.contains(word), !Words.subjects.contains(word)
    else { return nil }
    let key = soundKey(word)
    let alike = names.filter { soundKey($0) == key && abs($0.count - word.count) <= 2 }
    return alike.count == 1 ? alike.first : nil
  }

  /// Words the recogniser writes for "and" between two things done ("... the report him
  /// shared it with the team").
  static let and: Set<String> = ["in", "him", "end", "an"]
}
