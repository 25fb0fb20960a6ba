import Foundation

/// One word of a turn as the rules read it: normalised (lower case, contractions spelled out),
/// with the word of the transcript it came from, so a phrase is cut from the transcript itself.
struct Token: Equatable, Sendable {
  /// Lower case, letters, digits and apostrophes only ("i'll" is two tokens: "i", "will").
  var word: String
  /// The index of the transcript's word this token came from (within its segment).
  var source: Int
}

/// The transcript's words of one segment, as written (punctuation cut off their ends), and the
/// tokens the rules read. Punctuation that ends a sentence (`.`, `?`, `!`, `;`) is a `breakMark`
/// token: a sentence's end is a clause's end (the recogniser writes none; typed corrections may).
struct SegmentWords: Sendable {
  var surface: [String]
  var tokens: [Token]

  static let breakMark = "<break>"

  init(_ text: String) {
    surface = []
    tokens = []
    // Bounded: a segment longer than this is cut (the recogniser's segments are sentences).
    for raw in text.split(whereSeparator: \.isWhitespace).prefix(Words.maximumPerSegment) {
      let piece = String(raw).replacingOccurrences(of: "\u{2019}", with: "'")
      let parts = piece.split(separator: "-", omittingEmptySubsequences: true)
      for part in parts {
        let trimmed = Words.trimPunctuation(String(part))
        guard !trimmed.isEmpty else { continue }
        let index = surface.count
        surface.append(trimmed)
        for word in Words.expand(trimmed.lowercased()) {
          tokens.append(Token(word: word, source: index))
        }
      }
      if let last = raw.last, ".?!;".contains(last) {
        tokens.append(Token(word: Self.breakMark, source: max(surface.count - 1, 0)))
      }
    }
  }
}

/// The word lists the rules use. Each is small and written out, so a rule can be read and a
/// decision explained ("past tense 'finished'", "cue 'blocked on'").
enum Words {
  static let maximumPerSegment = 400

  /// A word without the punctuation around it (apostrophes inside kept).
  static func trimPunctuation(_ word: String) -> String {
    let kept = word.unicodeScalars.filter {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "'"
    }
    var text = String(String.UnicodeScalarView(kept))
    while text.hasPrefix("'") { text.removeFirst() }
    while text.hasSuffix("'") { text.removeLast() }
    return text
  }

  /// Contractions spelled out, so "i'll" and "i will" read the same.
  static func expand(_ word: String) -> [String] {
    if let whole = contractions[word] { return whole }
    for (ending, replacement) in suffixes where word.hasSuffix(ending) && word.count > ending.count
    {
      return [String(word.dropLast(ending.count)), replacement]
    }
    return [word]
  }

  private static let contractions: [String: [String]] = [
    "i'm": ["i", "am"], "im": ["i", "am"], "i'll": ["i", "will"], "i've": ["i", "have"],
    "i'd": ["i", "would"], "we're": ["we", "are"], "we'll": ["we", "will"],
    "we've": ["we", "have"], "can't": ["can", "not"], "cannot": ["can", "not"],
    "won't": ["will", "not"], "don't": ["do", "not"], "didn't": ["did", "not"],
    "isn't": ["is", "not"], "wasn't": ["was", "not"], "haven't": ["have", "not"],
    "it's": ["it", "is"], "that's": ["that", "is"], "there's": ["there", "is"],
    "gonna": ["going", "to"], "wanna": ["want", "to"], "gotta": ["got", "to"],
    "let's": ["let's"],
  ]
  private static let suffixes: [(String, String)] = [("n't", "not"), ("'ll", "will")]

  // MARK: Clause starts

  static let subjects: Set<String> = ["i", "we"]
  /// Words that join a clause to the one before it; kept out of the phrase.
  static let connectors: Set<String> = [
    "and", "but", "so", "then", "also", "plus", "um", "uh", "okay", "ok", "oh", "well", "yeah",
    "after", "afterwards", "next", "now", "anyway",
  ]
  /// A subject after these is inside the clause ("until i get", "because we", "think i").
  static let binders: Set<String> = [
    "until", "before", "because", "when", "once", "if", "that", "since", "as", "than", "what",
    "where", "how", "while", "whether", "which", "who", "unless", "till", "cause",
  ]
  /// The start of a remark about the thing just said ("it is almost done", "that took a day"):
  /// such a clause is no item of its own unless it names a blocker.
  static let remarkSubjects: Set<String> = [
    "it", "that", "this", "there", "which", "they", "he", "she", "everything", "things",
  ]
  static let remarkVerbs: Set<String> = [
    "is", "was", "are", "were", "has", "had", "will", "should", "took", "takes", "looks",
    "seems", "needs", "would", "might", "may", "can", "could", "did", "does", "went", "turned",
    "broke", "keeps", "kept", "works", "worked",
  ]
  /// Words of the one who runs the meeting, not of anyone's answers ("over" only in "over to":
  /// "the cutover", "took over" are things done).
  static let chatter: Set<String> = [
    "thanks", "thank", "morning", "hello", "hi", "let's", "bye", "cheers",
  ]

  // MARK: Time

  /// One-word time cues and what they answer.
  static let timeCues: [String: DigestQuestion] = [
    "yesterday": .yesterday, "today": .today, "tomorrow": .today, "tonight": .today,
  ]
  /// Two-word time cues.
  static let timePairs: [String: DigestQuestion] = [
    "this morning": .today, "this afternoon": .today, "later today": .today,
    "last week": .yesterday, "last friday": .yesterday, "on friday": .yesterday,
    "the weekend": .yesterday,
  ]

  // MARK: Tense

  /// Words before a verb that say it will be done (after the subject, within a few words).
  static let futureMarkers: Set<String> = [
    "will", "shall", "should", "plan", "planning", "want", "hope", "hoping", "intend", "going",
    "next", "about", "try", "trying", "aim", "expect", "continue", "continuing", "keep",
    "focus", "focusing", "start", "starting", "finish",
  ]
  /// Markers that only say "will" with "to" after them ("want to", "need to", "have to").
  static let futureWithTo: Set<String> = [
    "plan", "planning", "want", "hope", "hoping", "intend", "going", "about", "try", "trying",
    "aim", "expect", "need", "have", "got", "like", "continue",
  ]
  /// Adverbs between the subject and the verb.
  static let adverbs: Set<String> = [
    "also", "just", "finally", "mostly", "then", "already", "actually", "basically", "really",
    "mainly", "quickly", "only", "still", "probably", "hopefully", "first", "again",
    "successfully", "eventually", "partly",
  ]
  /// Past forms that do not end in "ed".
  static let irregularPast: Set<String> = [
    "did", "made", "wrote", "got", "had", "took", "went", "built", "spent", "met", "sent",
    "began", "found", "ran", "put", "gave", "saw", "came", "thought", "brought", "left", "led",
    "kept", "told", "paid", "broke", "chose", "held", "heard", "knew", "meant", "sold", "shut",
    "spoke", "stood", "taught", "threw", "understood", "set", "done", "was", "were", "fixt",
    "caught", "drew", "fed", "dug", "forgot", "lost", "rewrote", "rebuilt", "split", "sat",
  ]
  /// Words that end in "ed" but are not past forms.
  static let notPast: Set<String> = [
    "need", "proceed", "exceed", "succeed", "speed", "feed", "seed", "indeed", "bed",
    "red", "shed", "embed", "bleed", "breed", "blocked", "based", "related", "stated",
  ]

  /// "finished", "fixed", "wrote": a verb in the past.
  static func isPast(_ word: String) -> Bool {
    if irregularPast.contains(word) { return true }
    return word.count > 4 && word.hasSuffix("ed") && !notPast.contains(word)
  }

  /// Verbs that may follow "and" and start a new item ("and write the notes").
  static let commonVerbs: Set<String> = [
    "add", "fix", "write", "review", "finish", "start", "test", "deploy", "merge", "update",
    "look", "check", "work", "set", "clean", "move", "help", "pair", "prepare", "ship", "build",
    "run", "try", "make", "do", "get", "send", "open", "close", "read", "investigate",
    "debug", "refactor", "migrate", "document", "upgrade", "release", "plan", "demo", "sync",
    "meet", "call", "talk", "rewrite", "draft", "create", "configure", "install", "remove",
    "profile", "benchmark", "triage", "handle", "implement", "wrap", "finalize", "polish",
    "present", "design", "port", "split", "rename", "tune", "reply", "answer", "ask", "go",
    "pick", "continue", "spend", "sort", "follow", "rerun", "retry", "onboard", "watch",
    "monitor", "file", "translate", "publish", "sign", "approve", "cut", "rotate", "upload",
    "share", "record", "schedule", "organize", "hire", "interview", "delete", "evaluate",
    "compare", "prototype", "estimate", "measure", "announce", "respond", "join", "attend",
    "land", "push", "pull", "patch", "verify", "validate", "rebase", "restart", "fill", "give",
  ]

  static func isVerb(_ word: String) -> Bool {
    commonVerbs.contains(word) || isPast(word) || (word.count > 4 && word.hasSuffix("ing"))
  }

  // MARK: Blockers

  /// Words that name a blocker wherever they are in a clause.
  static let blockerWords: Set<String> = [
    "blocked", "blocking", "blocker", "blockers", "stuck", "waiting", "impediment",
    "impediments", "depends", "dependent", "depending",
  ]
  /// What one runs into that blocks ("ran into an issue").
  static let trouble: Set<String> = [
    "issue", "issues", "problem", "problems", "bug", "bugs", "error", "errors", "trouble", "wall",
  ]
  /// Words that name what is aimed at ("the plan for today is to ...").
  static let aims: Set<String> = ["plan", "goal", "focus", "aim", "priority", "target"]
  /// After "still": what goes on ("still on", "still working on").
  static let ongoing: Set<String> = ["on", "working", "doing", "busy", "fighting", "chasing"]
  /// What someone needs from another when "i need" names a blocker ("i need access").
  static let neededThings: Set<String> = [
    "help", "hand", "access", "review", "reviews", "approval", "someone", "somebody", "input",
    "answer", "credentials", "permission", "permissions", "feedback", "sign", "decision",
  ]
  /// The words of "that's my blocker", "this is what's blocking me" besides the blocker word.
  static let pointers: Set<String> = [
    "that", "this", "it", "is", "was", "my", "our", "the", "main", "only", "biggest", "big",
    "one", "what", "what's", "me", "us", "right", "now", "really", "kind", "of", "a",
    "mine",  // "my" as the recogniser often hears it before "blocker"
  ]
  /// Whom a stand-up asks for help ("can someone ...", "could anyone ...").
  static let anyone: Set<String> = ["someone", "somebody", "anyone", "anybody"]
  /// "no blockers", "nothing blocking me", "not blocked": said, and no item.
  static let negations: Set<String> = ["no", "nothing", "not", "none", "any", "without"]

  /// Words that carry no content on their own: a phrase of these alone is no item.
  static let empty: Set<String> = [
    "the", "a", "an", "of", "on", "in", "to", "for", "with", "and", "it", "that", "this", "is",
    "was", "be", "some", "my", "our", "me", "i", "we", "so", "yeah", "um", "uh", "more", "bit",
    "lot", "stuff", "things", "thing", "all", "everything", "nothing", "about", "from", "at",
    "as", "too", "done", "am", "are", "will", "have", "had", "been", "just", "today",
    "yesterday", "tomorrow", "then", "also", "there", "here", "not", "do", "did", "going",
    "one", "other", "again", "up", "out", "you", "your", "by",
  ]
  /// "i'll start", "i'll go first": taking a turn, not answering.
  static let turnTaking: Set<String> = [
    "start", "go", "begin", "first", "then", "quickly", "off", "it", "today", "kick", "me",
  ]
  /// Words cut from the end of a phrase ("... today", "... as well").
  static let trailing: Set<String> = [
    "today", "yesterday", "tomorrow", "too", "um", "uh", "yeah", "so", "and", "then", "now",
    "also", "again", "anyway", "though", "i", "we", "but", "or", "this", "morning",
    "afternoon", "as", "well", "the", "a", "to", "for", "of", "on", "with", "that", "my", "after",
  ]
}
