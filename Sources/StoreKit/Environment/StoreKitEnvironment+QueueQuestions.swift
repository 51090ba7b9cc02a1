import Foundation
internal import StoreEngine

/// The price-increase consent sheets of the open store: shown, or held back by the queue delegate
/// until the app calls `showPriceConsentIfNeeded()`. By subscription (original transaction id).
struct PriceConsentSheets {
  var shown: Set<UInt64> = []
  var held: Set<UInt64> = []
}

/// What the payment queue asks the app (its delegate and observers) before the store goes on: a
/// payment to continue after a storefront change, a price-consent sheet to show, a purchase the
/// App Store started to add. The questions are asked on the main queue; the answers become engine
/// commands.
extension StoreKitEnvironment {
  /// A purchase the user started on the App Store's page (a promoted in-app purchase) for
  /// `productIdentifier`: the observers are asked `paymentQueue(_:shouldAddStorePayment:for:)` on the
  /// main queue; if every one answers true the payment is added (it then goes as any payment does),
  /// otherwise nothing happens and the app may add the payment it was given later.
  /// - Throws: ``SKError/Code/storeProductNotAvailable`` when the store does not sell the product.
  package func startStorePayment(productIdentifier: String) throws {
    let product: SKProduct?
    do {
      product = try read { store in
        store.queue.catalog.product(.init(productIdentifier)).map {
          SKProduct($0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront)
        }
      }
    } catch {
      report("the App Store purchase of \(productIdentifier) could not start: \(describe(error))")
      throw SKError.reported(.unknown)
    }
    guard let product else { throw SKError.reported(.storeProductNotAvailable) }
    SKPaymentQueue.default().schedule([.storePayment(SKPayment(product: product), product)])
  }

  /// Every observer said yes to a purchase started on the App Store: the store adds it.
  func addStorePayment(_ productIdentifier: String) {
    do {
      try perform(.storePayment(.init(productIdentifier)))
    } catch {
      report("the App Store purchase of \(productIdentifier) could not be added: \(describe(error))")
    }
  }

  /// The queue delegate declined to continue `transaction` in the new storefront: it fails with
  /// `storeProductNotAvailable`, as Apple documents.
  func discontinue(_ transaction: SKPaymentTransaction) {
    guard let engineID = transaction.engineID else { return }
    do {
      try perform(.discontinueAfterStorefrontChange(.init(engineID)))
    } catch {
      report("the payment for \(transaction.payment.productIdentifier) could not be stopped: \(describe(error))")
    }
  }

  /// The delegate answered whether the consent sheet of subscription `chain` shows now.
  func answerPriceConsent(_ chain: UInt64, show: Bool) {
    locked {
      guard let store = currentStore, Self.increasePending(chain, in: store) else { return }
      if show {
        store.priceConsent.shown.insert(chain)
        store.priceConsent.held.remove(chain)
      } else {
        store.priceConsent.held.insert(chain)
      }
    }
  }

  /// `showPriceConsentIfNeeded()`: the sheets the delegate held back show now, and so does that of
  /// any increase of the signed-in account still waiting for an answer that was never shown.
  func showHeldPriceConsent() {
    locked {
      guard let store = try? openStore() else { return }
      let waiting = store.queue.subscriptions().filter(\.priceIncreasePending).map(\.originalID.rawValue)
      store.priceConsent.shown.formUnion(waiting)
      store.priceConsent.held.subtract(waiting)
    }
  }

  /// The subscriptions (original transaction ids) whose price-consent sheet is showing, for a test
  /// or a front end: answered with `SKTestSession`'s consent methods, after which it closes.
  package var priceConsentSheetsShown: [UInt64] {
    locked { currentStore?.priceConsent.shown.sorted() ?? [] }
  }

  /// The callbacks a step's event adds for the queue's questions. Called with the lock held.
  func questions(for event: StoreEvent, in store: OpenStore) -> [QueueCallback] {
    switch event {
    case .storefrontChanged(let code):
      let inProgress = store.queue.unfinishedTransactions.filter { $0.state == .purchasing }
      guard !inProgress.isEmpty else { return [] }
      let storefront = SKStorefront(countryCode: code, identifier: String(StoreEngine.Storefront.lookup(code)?.id ?? 0))
      return [.shouldContinue(inProgress.map { paymentTransaction(for: $0, in: store) }, storefront)]
    case .subscriptionChanged(let record, _) where record.account == store.queue.currentAccount:
      let chain = record.originalID.rawValue
      guard record.priceIncreasePending else {
        // Answered (or ended): its sheet closes.
        store.priceConsent.shown.remove(chain)
        store.priceConsent.held.remove(chain)
        return []
      }
      let known = store.priceConsent.shown.contains(chain) || store.priceConsent.held.contains(chain)
      return known ? [] : [.shouldShowPriceConsent(chain)]
    default:
      return []
    }
  }

  /// At launch, the queue delegate is asked again about each price increase of the signed-in
  /// account still waiting for consent, as the App Store shows its sheet when the app starts.
  /// Called with the lock held.
  func priceConsentQuestionsAtLaunch(in store: OpenStore) -> [QueueCallback] {
    store.queue.subscriptions().filter(\.priceIncreasePending).map { .shouldShowPriceConsent($0.originalID.rawValue) }
  }

  private static func increasePending(_ chain: UInt64, in store: OpenStore) -> Bool {
    store.queue.subscriptions().contains { $0.originalID.rawValue == chain && $0.priceIncreasePending }
  }
}
