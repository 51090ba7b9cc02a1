/// Where a transaction is in the payment queue, with Apple's raw values.
public enum SKPaymentTransactionState: Int, Sendable, Hashable {
  /// Being processed by the App Store.
  case purchasing = 0
  /// Charged: deliver the content, then call `finishTransaction(_:)`.
  case purchased = 1
  /// Failed or cancelled; `error` says why. Finish it.
  case failed = 2
  /// Restored from the user's purchase history; deliver, then finish.
  case restored = 3
  /// Waiting for an external action (Ask to Buy); the final state arrives later.
  case deferred = 4
}
