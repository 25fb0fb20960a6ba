import CustomDump

// How failures describe actions and values.

func dump(_ value: Any) -> String {
  var output = ""
  customDump(value, to: &output)
  return output
}

func describe(_ action: Any) -> String {
  dump(action).split(separator: "\n").prefix(3).joined(separator: "\n")
}

/// A two-line diff for things that are not state (an expected action case against what came).
func diffDescription(expected: String, actual: String) -> String {
  let minus = expected.split(separator: "\n").map { "  − \($0)" }
  let plus = actual.split(separator: "\n").map { "  + \($0)" }
  return (minus + plus).joined(separator: "\n") + "\n\n  (Expected: −, Actual: +)"
}

extension String {
  var firstLine: Substring { split(separator: "\n").first ?? "" }

  var indented: String {
    split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
      .joined(separator: "\n")
  }
}
