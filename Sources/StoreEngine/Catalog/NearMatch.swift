/// "Did you mean …?" suggestions: the closest candidate by edit distance, when it is close enough.
public enum NearMatch {
  /// The candidate closest to `input` (ignoring case), if at most a third of its letters differ
  /// (and at least one edit is allowed), preferring earlier candidates on ties.
  public static func closest(to input: String, in candidates: some Sequence<String>) -> String? {
    let needle = Array(input.lowercased())
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      // A length difference beyond what is allowed already rules a candidate out; skipping it keeps
      // a huge word (a 2 MB scenario line) from costing seconds of edit-distance work.
      let length = candidate.count
      if abs(length - needle.count) > max(1, max(needle.count, length) / 3) { continue }
      let distance = editDistance(needle, Array(candidate.lowercased()))
      if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let allowed = max(1, max(needle.count, best.candidate.count) / 3)
    return best.distance <= allowed ? best.candidate : nil
  }

  /// Up to `limit` candidates within the distance ``closest(to:in:)`` allows, nearest first (ties
  /// in candidate order).
  public static func all(near input: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
    let needle = Array(input.lowercased())
    var found: [(candidate: String, distance: Int, order: Int)] = []
    for (order, candidate) in candidates.enumerated() {
      let length = candidate.count
      let allowed = max(1, max(needle.count, length) / 3)
      if abs(length - needle.count) > allowed { continue }
      let distance = editDistance(needle, Array(candidate.lowercased()))
      if distance <= allowed { found.append((candidate, distance, order)) }
    }
    return found.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(limit).map(\.candidate)
  }

  /// Levenshtein distance with adjacent transpositions counted as one edit.
  public static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
    if lhs.isEmpty { return rhs.count }
    if rhs.isEmpty { return lhs.count }
    var previousPrevious = [Int](repeating: 0, count: rhs.count + 1)
    var previous = Array(0...rhs.count)
    var current = [Int](repeating: 0, count: rhs.count + 1)
    for i in 1...lhs.count {
      current[0] = i
      for j in 1...rhs.count {
        let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[rhs.count]
  }
}
