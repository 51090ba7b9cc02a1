import Foundation
import StoreEngine
import StoreTUI

/// The app states the render and frame-byte benchmarks draw: built like the StoreTUI tests build
/// them (`AppState(catalog:size:snapshot:)` with an ``AccountSnapshot`` of the signed-in `tester`),
/// changed only through `reduce`.
enum StoreStates {
  static let size = Size(width: 200, height: 60)
  static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
  /// The row whose status changes (a consumable: the generator alternates consumable, non-consumable).
  static let changedRow = 6

  /// The Store pane of `catalog` at 200×60, signed in, with `transactions` already in the ledger.
  static func store(_ catalog: Catalog, transactions: [PaymentTransaction] = []) -> AppState {
    AppState(
      catalog: catalog, size: size,
      snapshot: AccountSnapshot(
        account: "tester", knownAccounts: ["tester"], transactions: transactions, controls: SandboxControls(),
        clock: start))
  }

  /// A finished purchase of `product` by `tester`.
  static func purchase(_ id: UInt64, _ product: Product, finished: Bool = true) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: PaymentTransaction.ID(id), account: "tester", productID: product.id, productKind: product.kind,
      state: .purchased, purchaseDate: start, price: product.price)
    transaction.isFinished = finished
    return transaction
  }

  /// A before/after pair of frames and what changed between them.
  struct Change {
    var name: String
    var before: AppState
    var after: AppState
  }

  /// The frame pairs of `row_refresh_bytes` and its supporting figures, on `catalog`'s first screen.
  ///
  /// - `row_status`: row ``changedRow`` goes from `bought ×1` to `bought ×2` (a finished purchase
  ///   event reduced into the state); the notice the event also raises is cleared, so exactly one
  ///   row's status differs. Other visible rows already show statuses, so column widths are settled.
  /// - `purchase_event`: the same event as the app shows it: the row, the notice line, and the
  ///   tabs' "1 unfinished" (the transaction is not finished yet).
  /// - `first_status`: the first status on a screen with none yet: `bought ×1` widens the Status
  ///   column, so the flexible Product column and every visible row shift.
  static func changes(_ catalog: Catalog) throws -> [Change] {
    let products = catalog.products
    guard products.count > changedRow + 4 else {
      throw BenchError.failed("the catalog has \(products.count) products; the frame benchmark needs \(changedRow + 5)")
    }
    let changed = products[changedRow]
    // Statuses on other rows of the first screen, as after a few earlier purchases.
    var earlier = [purchase(1, changed)]
    for (offset, row) in [0, 2, 4].enumerated() { earlier.append(purchase(UInt64(offset + 2), products[row])) }
    let settled = store(catalog, transactions: earlier)

    var rowStatus = settled
    _ = reduce(into: &rowStatus, action: .engine(.transactionsUpdated([purchase(100, changed)])))
    rowStatus.notice = settled.notice
    var event = settled
    _ = reduce(into: &event, action: .engine(.transactionsUpdated([purchase(100, changed, finished: false)])))

    let empty = store(catalog)
    var first = empty
    _ = reduce(into: &first, action: .engine(.transactionsUpdated([purchase(100, changed)])))
    first.notice = empty.notice

    return [
      Change(name: "row_status", before: settled, after: rowStatus),
      Change(name: "purchase_event", before: settled, after: event),
      Change(name: "first_status", before: empty, after: first),
    ]
  }
}
