import StoreEngine

/// " Did you mean '…'?" text for messages.
enum NearMatchText {
  /// " Did you mean 'x'?" (with a leading space) when a candidate is close, else "".
  static func didYouMean(_ input: String, in candidates: [String]) -> String {
    NearMatch.closest(to: input, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }
}
