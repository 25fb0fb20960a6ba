/// Word error rate of `hypothesis` against `reference`: word edits over reference words.
public func wordErrorRate(_ reference: String, _ hypothesis: String) -> Double {
  let ref = reference.split(separator: " ")
  let hyp = hypothesis.split(separator: " ")
  guard !ref.isEmpty else { return hyp.isEmpty ? 0 : 1 }
  var row = Array(0...hyp.count)
  for i in 1...ref.count {
    var previous = row[0]
    row[0] = i
    for j in stride(from: 1, through: hyp.count, by: 1) {
      let substitution = previous + (ref[i - 1] == hyp[j - 1] ? 0 : 1)
      previous = row[j]
      row[j] = min(row[j] + 1, row[j - 1] + 1, substitution)
    }
  }
  return Double(row[hyp.count]) / Double(ref.count)
}
