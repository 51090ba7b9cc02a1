import Foundation
import StoreEngine

/// A line of the StoreKit 2 view: what an app using StoreKit 2 gets back from a call or reads from
/// one of StoreKit 2's sequences. The `event` name is the API's (``name``); the fields are those of
/// the StoreKit 1 lines where they mean the same thing.
enum StoreKit2Record: Sendable, Equatable {
  /// `Product.purchase()` returned (`success` with its verification, `pending`, `userCancelled`).
  case purchaseResult(PurchaseResult)
  /// `Product.purchase()` threw a `StoreKitError` or `Product.PurchaseError`.
  case purchaseError(CallError)
  /// `Transaction.updates` emitted a transaction.
  case transactionUpdate(Transaction)
  /// `AppStore.sync()` returned (no error) or threw.
  case appStoreSync(CallOutcome)
  /// `PurchaseIntent.intents`: a purchase started on the App Store page.
  case purchaseIntent(EventRecord.StorePayment)
  /// `Product.SubscriptionInfo.Status.updates`: a subscription's status changed.
  case subscriptionStatusUpdate(EventRecord.SubscriptionStatusChange)
  /// `Product.products(for:)` returned (identifiers it does not know are simply missing).
  case products(EventRecord.ProductsResponse)
  /// `Product.products(for:)` threw.
  case productsError(CallError)
  /// `Transaction.currentEntitlements`, read by the app.
  case currentEntitlements(TransactionList)
  /// `Transaction.unfinished`, read by the app.
  case unfinished(TransactionList)
  /// `Transaction.latest(for:)`.
  case latestTransaction(Latest)
  /// `Product.SubscriptionInfo.status` of a subscription group (or what it threw).
  case subscriptionStatus(StatusList)
  /// `AppTransaction.shared` (or what it threw).
  case appTransaction(AppTransactionResult)
  /// `AppStore.showManageSubscriptions(in:)` returned (the sheet was closed) or threw.
  case manageSubscriptions(CallOutcome)
  /// `Storefront.updates`: the App Store storefront changed.
  case storefrontUpdate(StorefrontUpdate)

  /// The `event` name: the StoreKit 2 API's.
  var name: String {
    switch self {
    case .purchaseResult: "purchaseResult"
    case .purchaseError: "purchaseError"
    case .transactionUpdate: "transactionUpdate"
    case .appStoreSync: "appStoreSync"
    case .purchaseIntent: "purchaseIntent"
    case .subscriptionStatusUpdate: "subscriptionStatusUpdate"
    case .products: "products"
    case .productsError: "productsError"
    case .currentEntitlements: "currentEntitlements"
    case .unfinished: "unfinished"
    case .latestTransaction: "latestTransaction"
    case .subscriptionStatus: "subscriptionStatus"
    case .appTransaction: "appTransaction"
    case .manageSubscriptions: "manageSubscriptions"
    case .storefrontUpdate: "storefrontUpdate"
    }
  }

  /// Writes the case's fields (``EventRecord`` adds `event`).
  func encodeFields(to encoder: any Encoder) throws {
    switch self {
    case .purchaseResult(let fields): try fields.encode(to: encoder)
    case .purchaseError(let fields), .productsError(let fields): try fields.encode(to: encoder)
    case .transactionUpdate(let fields): try fields.encode(to: encoder)
    case .appStoreSync(let fields), .manageSubscriptions(let fields): try fields.encode(to: encoder)
    case .purchaseIntent(let fields): try fields.encode(to: encoder)
    case .subscriptionStatusUpdate(let fields): try fields.encode(to: encoder)
    case .products(let fields): try fields.encode(to: encoder)
    case .currentEntitlements(let fields), .unfinished(let fields): try fields.encode(to: encoder)
    case .latestTransaction(let fields): try fields.encode(to: encoder)
    case .subscriptionStatus(let fields): try fields.encode(to: encoder)
    case .appTransaction(let fields): try fields.encode(to: encoder)
    case .storefrontUpdate(let fields): try fields.encode(to: encoder)
    }
  }

  /// Reads the fields of the record called `name`, or nil when no StoreKit 2 record has that name.
  init?(name: String, from decoder: any Decoder) throws {
    switch name {
    case "purchaseResult": self = .purchaseResult(try PurchaseResult(from: decoder))
    case "purchaseError": self = .purchaseError(try CallError(from: decoder))
    case "transactionUpdate": self = .transactionUpdate(try Transaction(from: decoder))
    case "appStoreSync": self = .appStoreSync(try CallOutcome(from: decoder))
    case "purchaseIntent": self = .purchaseIntent(try EventRecord.StorePayment(from: decoder))
    case "subscriptionStatusUpdate":
      self = .subscriptionStatusUpdate(try EventRecord.SubscriptionStatusChange(from: decoder))
    case "products": self = .products(try EventRecord.ProductsResponse(from: decoder))
    case "productsError": self = .productsError(try CallError(from: decoder))
    case "currentEntitlements": self = .currentEntitlements(try TransactionList(from: decoder))
    case "unfinished": self = .unfinished(try TransactionList(from: decoder))
    case "latestTransaction": self = .latestTransaction(try Latest(from: decoder))
    case "subscriptionStatus": self = .subscriptionStatus(try StatusList(from: decoder))
    case "appTransaction": self = .appTransaction(try AppTransactionResult(from: decoder))
    case "manageSubscriptions": self = .manageSubscriptions(try CallOutcome(from: decoder))
    case "storefrontUpdate": self = .storefrontUpdate(try StorefrontUpdate(from: decoder))
    default: return nil
    }
  }
}
