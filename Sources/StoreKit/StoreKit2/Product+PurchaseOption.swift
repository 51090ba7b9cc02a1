import Foundation
package import StoreEngine

extension Product {
  /// An option of a purchase. Its ``value`` is `package`, so `SKTestSession.buyProduct(identifier:options:)`
  /// reads the same options `purchase(options:)` does.
  public struct PurchaseOption: Equatable, Hashable, Sendable {
    /// What an option asks of the store.
    package enum Value: Hashable, Sendable {
      case quantity(Int)
      case appAccountToken(UUID)
      case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
      /// A promotional offer signed as a compact JWS (`promotionalOffer(_:compactJWS:)`).
      case promotionalOfferJWS(offerID: String, compactJWS: String)
      case simulatesAskToBuyInSandbox(Bool)
      case custom(key: String, value: CustomValue)
      case onStorefrontChange(StorefrontChangeHandler)
      case winBackOffer(offerID: String)
      case introductoryOfferEligibility(compactJWS: String)
      /// The billing plan (`billingPlanType(_:)`, iOS 26.4), by Apple's server name.
      case billingPlanType(String)
      /// StoreKitTest's `promotionalOffer(id:)`: a promotional offer with no signature.
      case testPromotionalOffer(id: String)
      /// StoreKitTest's `codeOffer(referenceName:)`.
      case testCodeOffer(referenceName: String)
      /// StoreKitTest's `purchaseDate(_:renewalBehavior:)`.
      case testPurchaseDate(Date, renewalBehavior: TestRenewalBehavior)
    }

    /// A `custom(key:value:)` value, in the type it was given.
    package enum CustomValue: Hashable, Sendable {
      case string(String)
      case double(Double)
      case bool(Bool)
      case data(Data)
    }

    /// StoreKitTest's `SubscriptionRenewalBehavior`, by name, for the engine.
    package struct TestRenewalBehavior: Hashable, Sendable {
      package let rawValue: String
      package init(rawValue: String) { self.rawValue = rawValue }
    }

    /// The app's answer to a storefront change during the purchase; options compare by identity.
    package struct StorefrontChangeHandler: Hashable, Sendable {
      let id = UUID()
      package let shouldContinuePurchase: @Sendable (Storefront) -> Bool
      package static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
      package func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    package let value: Value

    package init(value: Value) { self.value = value }

    /// How many units (1 to 10).
    public static func quantity(_ quantity: Int) -> PurchaseOption { PurchaseOption(value: .quantity(quantity)) }
    /// The app's id of the user, signed into the transaction.
    public static func appAccountToken(_ token: UUID) -> PurchaseOption { PurchaseOption(value: .appAccountToken(token)) }
    /// A promotional offer signed by the developer's server (the store checks the signature).
    @available(*, deprecated, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
    public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> PurchaseOption {
      PurchaseOption(value: .promotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
    }
    /// A promotional offer with its signature in one value.
    @available(*, deprecated, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
    public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> PurchaseOption {
      .promotionalOffer(
        offerID: offerID, keyID: signature.keyID, nonce: signature.nonce, signature: signature.signature, timestamp: signature.timestamp)
    }
    /// A promotional offer signed as a compact JWS by the developer's server.
    public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
      [PurchaseOption(value: .promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
    }
    /// Ask to Buy for this purchase only.
    public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> PurchaseOption {
      PurchaseOption(value: .simulatesAskToBuyInSandbox(simulateAskToBuy))
    }
    /// A win-back offer of the product, for a lapsed subscriber (the store refuses it otherwise).
    public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> PurchaseOption {
      PurchaseOption(value: .winBackOffer(offerID: offer.id ?? ""))
    }
    /// The developer's signed statement of introductory-offer eligibility (kept on the option; the
    /// store decides eligibility from the account's history).
    public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
      PurchaseOption(value: .introductoryOfferEligibility(compactJWS: compactJWS))
    }
    /// The billing plan of a subscription sold on several (iOS 26.4): `.monthly` buys twelve
    /// monthly payments of a one-year commitment; the store refuses a plan the product lacks.
    public static func billingPlanType(_ billingPlanType: Product.SubscriptionInfo.BillingPlanType) -> PurchaseOption {
      PurchaseOption(value: .billingPlanType(billingPlanType.rawValue))
    }
    /// Asked when the storefront changes while the purchase is in progress: false stops it.
    @preconcurrency
    public static func onStorefrontChange(shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) -> PurchaseOption {
      PurchaseOption(value: .onStorefrontChange(StorefrontChangeHandler(shouldContinuePurchase: shouldContinuePurchase)))
    }
    /// A key and value for the App Store's own use.
    public static func custom(key: String, value: String) -> PurchaseOption { PurchaseOption(value: .custom(key: key, value: .string(value))) }
    /// A number for the App Store's own use.
    public static func custom(key: String, value: Double) -> PurchaseOption { PurchaseOption(value: .custom(key: key, value: .double(value))) }
    /// A flag for the App Store's own use.
    public static func custom(key: String, value: Bool) -> PurchaseOption { PurchaseOption(value: .custom(key: key, value: .bool(value))) }
    /// Bytes for the App Store's own use.
    public static func custom(key: String, value: Data) -> PurchaseOption { PurchaseOption(value: .custom(key: key, value: .data(value))) }
  }
}

extension Product.PurchaseOption: CustomDebugStringConvertible {
  /// The factory call that made the option (signatures and JWS left out).
  public var debugDescription: String {
    switch value {
    case .quantity(let count): "quantity(\(count))"
    case .appAccountToken(let token): "appAccountToken(\(token.uuidString))"
    case .promotionalOffer(let offer, let key, _, _, let timestamp): "promotionalOffer(offerID: \(offer), keyID: \(key), timestamp: \(timestamp))"
    case .promotionalOfferJWS(let offer, _): "promotionalOffer(\(offer), compactJWS:)"
    case .simulatesAskToBuyInSandbox(let on): "simulatesAskToBuyInSandbox(\(on))"
    case .custom(let key, let value): "custom(key: \(key), value: \(value))"
    case .onStorefrontChange: "onStorefrontChange"
    case .winBackOffer(let offer): "winBackOffer(\(offer))"
    case .introductoryOfferEligibility: "introductoryOfferEligibility(compactJWS:)"
    case .billingPlanType(let type): "billingPlanType(\(type))"
    case .testPromotionalOffer(let id): "promotionalOffer(id: \(id))"
    case .testCodeOffer(let name): "codeOffer(referenceName: \(name))"
    case .testPurchaseDate(let date, let behavior): "purchaseDate(\(date), renewalBehavior: \(behavior.rawValue))"
    }
  }
}

extension Product.SubscriptionOffer {
  /// A promotional offer's signature from the developer's server, in one value.
  @available(*, deprecated, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
  public struct Signature: Equatable, Hashable, Sendable {
    public var keyID: String
    public var nonce: UUID
    public var timestamp: Int
    public var signature: Data

    public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
      self.keyID = keyID
      self.nonce = nonce
      self.timestamp = timestamp
      self.signature = signature
    }
  }
}

extension Product.PurchaseOption {
  /// Sets what the option asks of the payment itself (quantity, account token, a signed or win-back
  /// offer), for `purchase(options:)` and `SKTestSession.buyProduct(identifier:options:)` alike;
  /// false for an option that acts around the payment (Ask to Buy, a storefront handler, the test-only
  /// options), which the caller handles.
  /// - Throws: ``Product/PurchaseError/invalidOfferSignature`` for an unreadable compact JWS.
  package func apply(to payment: inout StoreEngine.Payment) throws -> Bool {
    switch value {
    case .quantity(let quantity): payment.quantity = quantity
    case .appAccountToken(let token): payment.applicationUsername = token.uuidString.lowercased()
    case .promotionalOffer(let offer, let key, let nonce, let signature, let timestamp):
      payment.offerID = offer
      payment.discount = PaymentDiscount(
        identifier: offer, keyIdentifier: key, nonce: nonce, signature: signature.base64EncodedString(), timestamp: Int64(timestamp))
    case .promotionalOfferJWS(let offer, let jws):
      payment.offerID = offer
      payment.discount = try Product.discount(offerID: offer, compactJWS: jws, productID: payment.productID.rawValue)
    case .winBackOffer(let offer): payment.offerID = offer
    case .introductoryOfferEligibility(let jws): payment.introductoryOfferEligibility = try Product.signedRequest(jws)
    case .billingPlanType(let type): payment.billingPlanType = type
    case .simulatesAskToBuyInSandbox, .onStorefrontChange, .custom, .testPromotionalOffer,
      .testCodeOffer, .testPurchaseDate:
      return false
    }
    return true
  }
}

