import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// What a screen shows that a fresh launch on the same ledger must show too: every Store row, the
/// header and the Transactions pane (the notice, sheets, log and scroll positions are the session's).
struct ScreenView: Equatable, CustomStringConvertible {
  var statuses: [Product.ID: ProductStatus]
  /// The present the rows derive from, and the Transactions pane's window of the history.
  var transactions: [PaymentTransaction]
  var history: [PaymentTransaction]
  var historyCount: Int
  var subscriptions: [SubscriptionRecord]
  var account: String?
  var knownAccounts: [String]
  var clock: Date
  /// The header's notification URL.
  var notificationURL: String?
  /// The Store pane and header as drawn, and the Transactions pane as drawn.
  var storeScreen: String
  var transactionsScreen: String

  @MainActor init(_ state: AppState) {
    statuses = state.statuses
    transactions = state.transactions
    history = state.history.rows
    historyCount = state.history.total
    subscriptions = state.subscriptions
    account = state.account
    knownAccounts = state.knownAccounts
    clock = state.clock
    notificationURL = state.notificationURL
    var quiet = state
    quiet.notice = nil
    quiet.sheet = nil
    quiet.inFlight = []
    quiet.isRestoring = false
    quiet.scroll = [:]
    quiet.size = Size(width: 200, height: 120)
    quiet.focus = .store
    storeScreen = render(quiet).plainText
    quiet.focus = .transactions
    transactionsScreen = render(quiet).plainText
  }

  var description: String { "\(storeScreen)\n\(transactionsScreen)" }

  /// The first difference, in words (an `==` of two screens is unreadable in a failure).
  func difference(from other: ScreenView) -> String? {
    if statuses != other.statuses { return "statuses \(statuses) vs \(other.statuses)" }
    if transactions != other.transactions {
      let mine = transactions.map { "\($0.id) \($0.productID) \($0.state.name)\($0.isFinished ? " finished" : "")" }
      let theirs = other.transactions.map { "\($0.id) \($0.productID) \($0.state.name)\($0.isFinished ? " finished" : "")" }
      if mine.count != theirs.count { return "transactions \(mine) vs \(theirs); subscriptions \(subscriptions) vs \(other.subscriptions)" }
      return "transactions \(mine) vs \(theirs)"
    }
    if history != other.history || historyCount != other.historyCount {
      return "history window \(history.map(\.id)) of \(historyCount) vs \(other.history.map(\.id)) of \(other.historyCount)"
    }
    if subscriptions != other.subscriptions { return "subscriptions \(subscriptions) vs \(other.subscriptions)" }
    if account != other.account || knownAccounts != other.knownAccounts {
      return "accounts \(String(describing: account)) \(knownAccounts) vs \(String(describing: other.account)) \(other.knownAccounts)"
    }
    if clock != other.clock { return "clock \(clock.timeIntervalSince1970) vs \(other.clock.timeIntervalSince1970)" }
    if notificationURL != other.notificationURL {
      return "notification URL \(String(describing: notificationURL)) vs \(String(describing: other.notificationURL))"
    }
    if storeScreen != other.storeScreen { return "Store pane:\n\(storeScreen)\nvs\n\(other.storeScreen)" }
    if transactionsScreen != other.transactionsScreen {
      return "Transactions pane:\n\(transactionsScreen)\nvs\n\(other.transactionsScreen)"
    }
    return nil
  }
}

/// What a fresh launch on `ledger` shows: a new payment queue and runtime, nothing carried over.
@MainActor
func freshView(
  on ledger: any LedgerStore, catalog: Catalog = FixtureCatalog.make(), environment: StoreEnvironment = TestStore.environment
) throws -> ScreenView {
  let queue = try PaymentQueue(catalog: catalog, ledger: ledger, environment: environment)
  let runtime = try AppRuntime(queue: queue, size: standardSize)
  defer { runtime.stop() }
  runtime.readHistoryWindowNow()
  return ScreenView(runtime.state)
}

/// Records an issue naming the first difference between the live screen and a fresh launch's.
@MainActor
func expectSameAsFreshLaunch(
  _ runtime: AppRuntime, on ledger: any LedgerStore, _ comment: String = "",
  environment: StoreEnvironment = TestStore.environment, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  // The Transactions pane reads its window when it shows; both screens read it as if it did.
  runtime.readHistoryWindowNow()
  let live = ScreenView(runtime.state)
  // A fresh launch sells what this screen's store sells now (an edit may have replaced the file's).
  let fresh = try freshView(on: ledger, catalog: runtime.queue.machine.catalog, environment: environment)
  if let difference = live.difference(from: fresh) {
    Issue.record("\(comment): the live screen differs from a fresh launch: \(difference)", sourceLocation: sourceLocation)
  }
}
