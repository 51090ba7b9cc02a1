import Foundation
internal import StoreEngine

/// A product the App Store sells, localized from the session's locale and priced in its storefront's
/// currency.
public struct Product: Identifiable, Equatable, Hashable, Sendable {
  public let id: String
  public let type: ProductType
  public let displayName: String
  public let description: String
  /// The price in the storefront's currency, rounded to its minor units.
  public let price: Decimal
  /// The price formatted for the session's locale (`$0.99`, `₩1`).
  public let displayPrice: String
  public let isFamilyShareable: Bool
  /// The subscription side of an auto-renewable subscription.
  public let subscription: SubscriptionInfo?
  /// The catalog's product, as JSON.
  public let jsonRepresentation: Data
  let currencyCode: String
  let localeIdentifier: String

  init(
    _ product: StoreEngine.Product, locale: String, storefront: String, group: StoreEngine.SubscriptionGroup? = nil,
    catalog: StoreEngine.Catalog? = nil
  ) {
    let currency = StoreEngine.Storefront.lookup(storefront)?.currencyCode ?? "USD"
    id = product.id.rawValue
    type = ProductType(product.kind, group: group?.kind)
    displayName = product.displayName(locale: locale)
    description = product.displayDescription(locale: locale)
    price = Money.rounded(product.price, currencyCode: currency)
    displayPrice = PriceFormatter.string(for: product.price, currencyCode: currency, locale: locale)
    isFamilyShareable = product.familyShareable
    subscription = product.subscription.map {
      SubscriptionInfo($0, price: product.price, currency: currency, locale: locale, group: group, catalog: catalog)
    }
    let json: [String: Any] = [
      "id": product.id.rawValue, "type": product.kind.catalogName, "referenceName": product.referenceName,
      "price": "\(product.price)", "familyShareable": product.familyShareable,
    ]
    jsonRepresentation = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
    currencyCode = currency
    localeIdentifier = locale
  }

  /// A format style for amounts in this product's currency and the session's locale.
  public var priceFormatStyle: Decimal.FormatStyle.Currency {
    Decimal.FormatStyle.Currency(code: currencyCode, locale: Locale(identifier: localeIdentifier))
  }

  /// The products of `identifiers` the App Store sells (unknown identifiers are left out).
  ///
  /// - Throws: the ``StoreKitError`` a simulated `loadProducts` error sets.
  public static func products<Identifiers: Collection>(
    for identifiers: Identifiers
  ) async throws -> [Product] where Identifiers.Element == String {
    let environment = StoreKitEnvironment.shared
    let ids = Array(Set(identifiers)).sorted()
    let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ProductsAnswer, any Error>) in
      environment.locked {
        do {
          let store = try environment.openStore()
          environment.followDeviceSettings(store)
          if environment.glitchStrikes(.productsFail, in: store, note: "products(for:) threw SKInternalErrorDomain 3") {
            return continuation.resume(throwing: StoreKitEnvironment.productsInternalError)
          }
          let step = try environment.perform(.requestProducts(ids))
          guard let request = step.productsRequest else { return continuation.resume(throwing: StoreKitError.unknown) }
          if let early = environment.unclaimedProducts.removeValue(forKey: request) {
            continuation.resume(with: early.mapError { StoreKitEnvironment.storeKit2Error($0) })
          } else {
            environment.productCalls[request] = continuation
          }
        } catch {
          continuation.resume(throwing: StoreKitError.unknown)
        }
      }
    }
    return (try? environment.read { store in
      answer.products.compactMap { id in
        store.queue.catalog.product(id).map {
          Product(
            $0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront,
            group: $0.subscription.flatMap { store.queue.catalog.group($0.groupID) }, catalog: store.queue.catalog)
        }
      }
    }) ?? []
  }

  /// Buys the product: `.success` with the verified transaction (finish it after delivering),
  /// `.pending` (Ask to Buy; the outcome arrives in `Transaction.updates`), or `.userCancelled`.
  ///
  /// - Throws: ``Product/PurchaseError`` or ``StoreKitError`` (a simulated `purchase` error, an
  ///   invalid quantity or offer).
  public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
    let environment = StoreKitEnvironment.shared
    var payment = StoreEngine.Payment(productID: .init(id))
    var askToBuy: Bool?
    var storefrontHandler: PurchaseOption.StorefrontChangeHandler?
    for option in options where try !option.apply(to: &payment) {
      switch option.value {
      case .simulatesAskToBuyInSandbox(let on): askToBuy = on
      case .onStorefrontChange(let handler): storefrontHandler = handler
      default: break
      }
    }
    if payment.quantity < 1 || payment.quantity > 10 { throw PurchaseError.invalidQuantity }
    let request = payment
    let stuck = environment.reserveStuckPurchase()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PurchaseResult, any Error>) in
        environment.locked { buy(request, askToBuy: askToBuy, storefrontHandler: storefrontHandler, stuck: stuck, continuation) }
      }
    } onCancel: {
      environment.giveUp(stuck: stuck)
    }
  }

  /// The purchase's step, with the lock held; or a glitch of the real store instead (DECISIONS §46).
  private func buy(
    _ request: StoreEngine.Payment, askToBuy: Bool?, storefrontHandler: PurchaseOption.StorefrontChangeHandler?,
    stuck: UInt64, _ continuation: CheckedContinuation<PurchaseResult, any Error>
  ) {
    let environment = StoreKitEnvironment.shared
    do {
      let store = try environment.openStore()
      environment.followDeviceSettings(store)
      if environment.glitchStrikes(.daemonDrop, in: store, note: "purchase() of \(id) threw systemError (NSCocoaErrorDomain 4097)") {
        return continuation.resume(throwing: StoreKitEnvironment.daemonConnectionError)
      }
      if environment.glitchStrikes(.sheetNotShown, in: store, note: "the sheet for \(id) never appeared; purchase() waits") {
        return environment.park(continuation, as: stuck)
      }
      var restore: Bool?
      if let askToBuy {
        restore = try environment.read { $0.queue.controls.askToBuy }
        try environment.perform(.setControl(.askToBuy(askToBuy)))
      }
      defer { if let restore { _ = try? environment.perform(.setControl(.askToBuy(restore))) } }
      let step = try environment.perform(.buy(request)) { store in store.view.willPerform(.buy(request)) }
      guard let call = step.createdTransaction else { return continuation.resume(throwing: StoreKitError.unknown) }
      if let storefrontHandler { StoreKit2Registry.shared.setStorefrontHandler(storefrontHandler, for: call.rawValue) }
      if let early = environment.unclaimedPurchases.removeValue(forKey: call) {
        continuation.resume(with: early)
      } else {
        environment.purchaseCalls[call] = continuation
      }
    } catch {
      continuation.resume(throwing: StoreKitError.unknown)
    }
  }
}

extension Product {
  /// The kind of product.
  public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let consumable = ProductType(rawValue: "Consumable")
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    /// A subscription bundle (iOS 27): subscriptions of the app (or of several developers' apps)
    /// sold together, each also sold on its own.
    public static let subscriptionBundle = ProductType(rawValue: "Subscription Bundle")
    /// A subscription suite (iOS 27): subscriptions sold only together.
    public static let subscriptionSuite = ProductType(rawValue: "Subscription Suite")

    init(_ kind: ProductKind) { self.init(rawValue: kind.serverName) }

    /// A catalog product's type: a bundle or suite group's subscriptions are bundles or suites.
    init(_ kind: ProductKind, group: StoreEngine.SubscriptionGroup.Kind?) {
      switch group {
      case .bundle?: self = .subscriptionBundle
      case .suite?: self = .subscriptionSuite
      default: self.init(kind)
      }
    }

    public var localizedDescription: String { rawValue }
  }

  /// The result of ``Product/purchase(options:)``.
  public enum PurchaseResult: Sendable {
    case success(VerificationResult<Transaction>)
    case userCancelled
    case pending
  }

  /// Why a purchase could not be made.
  public enum PurchaseError: Error, LocalizedError, Equatable, Hashable, Sendable {
    case invalidQuantity
    case productUnavailable
    case purchaseNotAllowed
    case ineligibleForOffer
    case invalidOfferIdentifier
    case invalidOfferPrice
    case invalidOfferSignature
    case missingOfferParameters

    init?(name: String) {
      switch name {
      case "invalidQuantity": self = .invalidQuantity
      case "productUnavailable": self = .productUnavailable
      case "purchaseNotAllowed": self = .purchaseNotAllowed
      case "ineligibleForOffer": self = .ineligibleForOffer
      case "invalidOfferIdentifier": self = .invalidOfferIdentifier
      case "invalidOfferPrice": self = .invalidOfferPrice
      case "invalidOfferSignature": self = .invalidOfferSignature
      case "missingOfferParameters": self = .missingOfferParameters
      default: return nil
      }
    }

    public var errorDescription: String? {
      switch self {
      case .invalidQuantity: "The quantity is not valid."
      case .productUnavailable: "The product is not available in this storefront."
      case .purchaseNotAllowed: "This account cannot make purchases."
      case .ineligibleForOffer: "The account is not eligible for this offer."
      case .invalidOfferIdentifier: "The offer does not exist for this product."
      case .invalidOfferPrice: "The offer's price is not valid."
      case .invalidOfferSignature: "The offer's signature is not valid."
      case .missingOfferParameters: "The offer is missing its signature parameters."
      }
    }
  }
}
