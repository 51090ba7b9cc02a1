import Foundation
internal import StoreEngine

/// What an engine step means to StoreKit 2's sequences beyond `Transaction.updates`: subscription
/// statuses, App Store messages, and the storefront-change question of a purchase in progress.
extension StoreKitEnvironment {
  /// Called with the lock held, for each event the signed-in account hears.
  func deliverStoreKit2News(_ event: StoreEvent, from store: OpenStore) {
    switch event {
    case .subscriptionChanged(let record, _) where record.account == store.queue.currentAccount:
      let registry = StoreKit2Registry.shared
      if registry.hasStatusListeners, let status = chainStatus(record, in: store) { registry.yield(status) }
      for reason in messageReasons(for: record, in: store) { registry.yield(Message(reason: reason)) }
    case .storefrontChanged(let code):
      askStorefrontHandlers(Storefront(code: code), in: store)
    default:
      break
    }
  }

  /// The status of `record`'s chain with its latest transaction.
  private func chainStatus(_ record: SubscriptionRecord, in store: OpenStore) -> Product.SubscriptionInfo.Status? {
    (try? statuses(group: record.groupID, in: store))?.first {
      $0.renewalInfo.unsafePayloadValue.originalTransactionID == record.originalID.rawValue
    }
  }

  /// The messages a change of `record` brings, each once per occasion: a price increase waiting
  /// for consent, a renewal that could not be billed, a lapse with win-back offers to redeem.
  private func messageReasons(for record: SubscriptionRecord, in store: OpenStore) -> [Message.Reason] {
    let registry = StoreKit2Registry.shared
    let chain = record.originalID.rawValue
    var reasons: [Message.Reason] = []
    let price = "price:\(chain)"
    if record.priceIncreasePending && record.priceIncreaseStatus != .consented {
      if registry.markSent(price) { reasons.append(.priceIncreaseConsent) }
    } else {
      registry.clearSent(price)
    }
    let billing = "billing:\(chain)"
    if record.status == .inBillingRetry || record.status == .inGracePeriod {
      if registry.markSent(billing) { reasons.append(.billingIssue) }
    } else {
      registry.clearSent(billing)
    }
    let winBack = "winback:\(chain)"
    let offers = store.queue.catalog.product(record.productID)?.subscription?.winBackOffers ?? []
    if record.status == .expired && !offers.isEmpty {
      if registry.markSent(winBack) { reasons.append(.winBackOffer) }
    } else {
      registry.clearSent(winBack)
    }
    return reasons
  }

  /// Asks the `onStorefrontChange` handler of each purchase in progress whether it goes on in
  /// `storefront`; one that answers false fails as Apple's does (`storeProductNotAvailable`). The
  /// handler runs outside the lock.
  private func askStorefrontHandlers(_ storefront: Storefront, in store: OpenStore) {
    let registry = StoreKit2Registry.shared
    let inProgress = store.queue.unfinishedTransactions.filter { $0.state == .purchasing }
    for transaction in inProgress {
      guard let handler = registry.storefrontHandler(for: transaction.id.rawValue) else { continue }
      let id = transaction.id
      Task.detached {
        guard !handler.shouldContinuePurchase(storefront) else { return }
        do {
          try StoreKitEnvironment.shared.perform(.discontinueAfterStorefrontChange(id))
        } catch {
          StoreKitEnvironment.shared.report("the purchase could not be stopped after the storefront change: \(error)")
        }
      }
    }
  }
}
