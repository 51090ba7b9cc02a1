import StoreEngine

/// The simulated app's finishing policy as a value: it reads the store's events and says what the
/// app does next. The shell (scenario runner, TUI runtime) carries the actions out, so the store
/// engine never learns that an app exists.
public struct AppFinisher: Sendable, Equatable {
  /// What the app does.
  public enum Action: Sendable, Equatable {
    /// `finishTransaction` now.
    case finish(PaymentTransaction.ID)
    /// Ask the app's server first (the shell adds the receipt and makes the call).
    case post(AppServerRequest)
  }

  public var mode: AppFinishMode
  /// Purchases whose server call has not answered yet: a redelivery meanwhile does not post twice.
  public private(set) var awaiting: Set<PaymentTransaction.ID> = []

  public init(mode: AppFinishMode = .manually) {
    self.mode = mode
  }

  /// What the app does about one store event: only `updatedTransactions` callbacks matter, as in
  /// seeds 000, 002 and 003.
  public mutating func actions(for event: StoreEvent) -> [Action] {
    guard case .transactionsUpdated(let list) = event else { return [] }
    return list.flatMap { actions(for: $0) }
  }

  private mutating func actions(for transaction: PaymentTransaction) -> [Action] {
    guard !transaction.isFinished else { return [] }
    switch (mode, transaction.state) {
    case (.manually, _), (_, .purchasing), (_, .deferred):
      return []
    case (.atOnce, _), (.afterServer, .restored), (.afterServer, .failed):
      return [.finish(transaction.id)]
    case (.afterServer(let url), .purchased):
      guard awaiting.insert(transaction.id).inserted else { return [] }
      return [.post(AppServerRequest(transaction: transaction, url: url))]
    }
  }

  /// The server answered (or did not): finish on a 2xx, otherwise leave the transaction for the next launch.
  public mutating func answered(_ answer: AppServerAnswer) -> [Action] {
    guard let id = answer.request.id else { return [] }
    awaiting.remove(id)
    return answer.accepted ? [.finish(id)] : []
  }
}
