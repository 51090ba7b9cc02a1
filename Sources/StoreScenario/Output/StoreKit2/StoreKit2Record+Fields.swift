import Foundation
import StoreEngine

// The fields of the StoreKit 2 lines. Names and formats are those of the StoreKit 1 lines
// (EventRecord+Fields.swift) where they mean the same; StoreKit 2 has no transaction states, so
// transactions carry their `verification` instead.

extension StoreKit2Record {
  /// A StoreKit 2 `Transaction` (always a purchased one: SK2 has no purchasing, failed, restored or
  /// deferred transactions) with its `VerificationResult`.
  struct Transaction: Sendable, Equatable, Codable {
    var transactionID: String
    var originalTransactionID: String
    var productID: String
    var quantity: Int
    var account: String
    var purchaseDate: String
    var expiresDate: String?
    var revocationDate: String?
    /// `"renewal"` for a subscription renewal, else left out.
    var reason: String?
    var appAccountToken: String?
    /// True for a period an upgrade replaced; left out otherwise.
    var isUpgraded: Bool?
    var signedTransaction: String?
    var signedRenewalInfo: String?
    /// `verified`, or `unverified` when the JWS signature does not check out.
    var verification: String

    enum CodingKeys: String, CodingKey {
      case transactionID = "transactionId"
      case originalTransactionID = "originalTransactionId"
      case productID = "productId"
      case quantity, account, purchaseDate, expiresDate, revocationDate, reason, appAccountToken, isUpgraded
      case signedTransaction, signedRenewalInfo, verification
    }

    init(_ transaction: PaymentTransaction) {
      transactionID = transaction.id.description
      originalTransactionID = transaction.originalID.description
      productID = transaction.productID.rawValue
      quantity = transaction.quantity
      account = transaction.account
      purchaseDate = EventFormatter.timestamp(transaction.purchaseDate)
      expiresDate = transaction.expiresDate.map(EventFormatter.timestamp)
      revocationDate = transaction.revocationDate.map(EventFormatter.timestamp)
      reason = transaction.reason == .renewal ? "renewal" : nil
      appAccountToken = transaction.appAccountToken
      isUpgraded = transaction.isUpgraded ? true : nil
      signedTransaction = transaction.signedTransaction
      signedRenewalInfo = transaction.signedRenewalInfo
      verification = StoreKit2View.verification(of: transaction.signedTransaction)
    }
  }

  /// A StoreKit 2 error: its Swift type (`StoreKitError`, `Product.PurchaseError`) and case.
  struct ErrorName: Sendable, Equatable, Codable {
    var type: String
    var name: String

    init(_ error: StoreKitError) {
      let modern = StoreKit2Error(for: error)
      type = modern.kind.rawValue
      name = modern.name
    }

    /// `StoreKitError.networkError`.
    var text: String { "\(type).\(name)" }
  }

  /// `purchase()`'s result: `success` with the transaction, or `pending` / `userCancelled` with only
  /// the product the app asked for.
  struct PurchaseResult: Sendable, Equatable, Codable {
    /// `success`, `pending` or `userCancelled`.
    var result: String
    var productID: String
    var transaction: Transaction?

    private enum CodingKeys: String, CodingKey {
      case result
      case productID = "productId"
    }

    init(result: String, productID: String, transaction: Transaction? = nil) {
      self.result = result
      self.productID = productID
      self.transaction = transaction
    }

    /// One object: the transaction's fields when there is one, `result` and `productId`.
    func encode(to encoder: any Encoder) throws {
      try transaction?.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(result, forKey: .result)
      if transaction == nil { try container.encode(productID, forKey: .productID) }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      result = try container.decode(String.self, forKey: .result)
      transaction = result == "success" ? try Transaction(from: decoder) : nil
      productID = try transaction?.productID ?? container.decode(String.self, forKey: .productID)
    }
  }

  /// What a call threw (with the product it was about, if any).
  struct CallError: Sendable, Equatable, Codable {
    var productID: String?
    var error: ErrorName

    enum CodingKeys: String, CodingKey {
      case productID = "productId"
      case error
    }
  }

  /// A call that returns nothing: no error when it returned, else what it threw.
  struct CallOutcome: Sendable, Equatable, Codable {
    var error: ErrorName?
  }

  /// A sequence of transactions the app read (`currentEntitlements`, `unfinished`).
  struct TransactionList: Sendable, Equatable, Codable {
    var transactions: [Transaction]
  }

  /// `Transaction.latest(for:)`: the product, and its latest transaction when it has one.
  struct Latest: Sendable, Equatable, Codable {
    var productID: String
    var transaction: Transaction?

    enum CodingKeys: String, CodingKey {
      case productID = "productId"
      case transaction
    }
  }

  /// One `Product.SubscriptionInfo.Status`: its `state`, the latest transaction and renewal info.
  struct Status: Sendable, Equatable, Codable {
    var state: String
    var productID: String
    var originalTransactionID: String
    var autoRenew: Bool
    var renewalProductID: String
    var expiresDate: String
    var signedTransaction: String?
    var signedRenewalInfo: String?
    var verification: String?

    enum CodingKeys: String, CodingKey {
      case state
      case productID = "productId"
      case originalTransactionID = "originalTransactionId"
      case autoRenew
      case renewalProductID = "renewalProductId"
      case expiresDate, signedTransaction, signedRenewalInfo, verification
    }
  }

  /// `Product.SubscriptionInfo.status` of a group: one status per subscription chain, or the error.
  struct StatusList: Sendable, Equatable, Codable {
    var group: String
    var statuses: [Status]?
    var error: ErrorName?
  }

  /// `AppTransaction.shared`: the app's bundle and environment, or the error.
  struct AppTransactionResult: Sendable, Equatable, Codable {
    var bundleID: String?
    var environment: String?
    var account: String?
    var error: ErrorName?

    enum CodingKeys: String, CodingKey {
      case bundleID = "bundleId"
      case environment, account, error
    }
  }

  /// `Storefront.updates`: the new storefront's alpha-3 country code.
  struct StorefrontUpdate: Sendable, Equatable, Codable {
    var storefront: String
  }
}
