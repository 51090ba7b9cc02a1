import Foundation
internal import StoreEngine

/// A purchase the user started on the App Store's side (a promoted in-app purchase, a win-back
/// offer on the product page): the app gets it in ``intents`` and buys it with `product.purchase()`.
/// On Linux the App Store's side is the storefront's terminal, a scenario or a test calling
/// `StoreKitEnvironment.startPurchaseIntent(productID:offerID:)`.
public struct PurchaseIntent: Equatable, Sendable, Identifiable {
  /// The product the user chose on the App Store.
  public let product: Product
  /// The offer the user chose on the App Store, if any.
  public let offer: Product.SubscriptionOffer?
  /// The product's id (one intent per product).
  public var id: Product.ID { product.id }

  /// The intents from now on: make it (and its iterator) before the purchase starts.
  public static var intents: PurchaseIntents { PurchaseIntents(stream: StoreKit2Registry.shared.intents()) }

  /// An asynchronous sequence of purchase intents.
  public struct PurchaseIntents: AsyncSequence, Sendable {
    public typealias Element = PurchaseIntent
    let stream: AsyncStream<PurchaseIntent>

    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<PurchaseIntent>.AsyncIterator
      public mutating func next() async -> PurchaseIntent? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
  }
}

extension StoreKitEnvironment {
  /// The user starts buying `productID` on the App Store's page, with the promotional or win-back
  /// offer `offerID` if given: every `PurchaseIntent.intents` sequence gets it. Nothing is charged
  /// until the app calls `purchase()`.
  /// - Throws: ``Product/PurchaseError/productUnavailable`` when the store does not sell the
  ///   product, ``Product/PurchaseError/invalidOfferIdentifier`` for an offer it does not have.
  package func startPurchaseIntent(productID: String, offerID: String? = nil) throws {
    let product: Product?
    do {
      product = try read { store in
        store.queue.catalog.product(.init(productID)).map {
          Product(
            $0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront,
            group: $0.subscription.flatMap { store.queue.catalog.group($0.groupID) }, catalog: store.queue.catalog)
        }
      }
    } catch {
      report("the App Store purchase of \(productID) could not start: \(describe(error))")
      throw StoreKitError.unknown
    }
    guard let product else { throw Product.PurchaseError.productUnavailable }
    var offer: Product.SubscriptionOffer?
    if let offerID {
      let offers = (product.subscription?.promotionalOffers ?? []) + (product.subscription?.winBackOffers ?? [])
      guard let chosen = offers.first(where: { $0.id == offerID }) else { throw Product.PurchaseError.invalidOfferIdentifier }
      offer = chosen
    }
    StoreKit2Registry.shared.yield(PurchaseIntent(product: product, offer: offer))
  }
}
