import CFlite
import Foundation

/// Pronunciations from flite's CMU lexicon and letter-to-sound rules (libflite_cmulex), in the
/// phone set of PocketSphinx's en-us model: "grafana" is `G R EY F AE N AH`.
public enum LetterToSound {
  /// flite keeps one process-wide lexicon; lookups are serialised.
  private static let lock = NSLock()
  nonisolated(unsafe) private static var lexicon: UnsafeMutablePointer<cst_lexicon>?

  /// The phones of one word (lower case letters and apostrophes); empty when flite has none.
  public static func phones(for word: String) -> [String] {
    let word = word.lowercased()
    guard !word.isEmpty, word.allSatisfy({ ($0 >= "a" && $0 <= "z") || $0 == "'" }) else {
      return []
    }
    let flitePhones: [String] = lock.withLock {
      if lexicon == nil { lexicon = cmu_lex_init() }
      guard let lexicon, let list = lex_lookup(lexicon, word, nil, nil) else { return [] }
      defer { delete_val(list) }
      var phones: [String] = []
      var cell: UnsafePointer<cst_val>? = UnsafePointer(list)
      while let current = cell {
        if let car = val_car(current), let name = val_string(car) {
          phones.append(String(cString: name))
        }
        cell = val_cdr(current)
      }
      return phones
    }
    return flitePhones.compactMap(modelPhone)
  }

  /// flite's phone (with a stress digit) as the en-us model's phone; nil for pauses.
  /// flite's set is CMU's plus `ax` (schwa) and `axr`, which the model spells AH and ER.
  static func modelPhone(_ phone: String) -> String? {
    let bare = phone.filter { !$0.isNumber }
    switch bare {
    case "", "pau": return nil
    case "ax": return "AH"
    case "axr": return "ER"
    default: return bare.uppercased()
    }
  }
}
