"""Word error rate for the benchmarks: texts lower-cased, punctuation dropped, hyphens split."""
import re


def words(text):
    return re.sub(r"[^a-z' ]", " ", text.lower().replace("-", " ")).split()


def errors(reference, hypothesis):
    """Substitutions, insertions and deletions that turn the reference's words into the
    hypothesis's (Levenshtein over words)."""
    ref, hyp = words(reference), words(hypothesis)
    cost = [[max(i, j) if 0 in (i, j) else 0 for j in range(len(hyp) + 1)]
            for i in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            same = ref[i - 1] == hyp[j - 1]
            cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                             cost[i - 1][j - 1] + (0 if same else 1))
    return cost[len(ref)][len(hyp)]


def rate(pairs):
    """Percent of word errors over (reference, hypothesis) pairs, against the references' words."""
    pairs = list(pairs)
    total = sum(len(words(reference)) for reference, _ in pairs)
    return 100.0 * sum(errors(r, h) for r, h in pairs) / total if total else 0.0
