import Foundation
import StoreEngine

/// What one output line reports: the event's name (`event` in JSON) and its fields, one case per
/// kind of line. A batch of transactions is one record per transaction; clock ticks, control
/// changes and amended rows have none.
///
/// Encoded, a record is the JSON object of its line without `time` and `line` (``EventLine``
/// adds those): the case's fields, plus `event`.
enum EventRecord: Sendable, Equatable {
  case productsResponse(ProductsResponse)
  case productsRequestFailed(ProductsRequestFailed)
  case transactionUpdated(Transaction)
  case transactionRemoved(Transaction)
  case transactionRevoked(Transaction)
  case restoreFinished(RestoreFinished)
  case restoreFailed(RestoreFailed)
  case shouldAddStorePayment(StorePayment)
  case sheetPresented(Sheet)
  case sheetDismissed
  case accountChanged(AccountChange)
  case subscriptionStatusChanged(SubscriptionStatusChange)
  case historyCleared(HistoryCleared)
  case askToBuyAnswered(AskToBuyAnswer)
  case storefrontChanged(StorefrontChange)
  case transactionDeleted(Transaction)
  /// API misuse, such as finishing twice: the `error` event.
  case error(Misuse)
  case refundRequest(RefundRequest)
  case appCrashed(AppCrashed)
  case notificationQueued(NotificationQueued)
  /// The simulated app's call to its own server and the answer (`app finishes after-server`).
  case appServerCall(AppServerCall)
  case retentionSheet(RetentionSheetShown)
  /// A line of the StoreKit 2 view (``StoreKit2View``), named after the StoreKit 2 API.
  case storeKit2(StoreKit2Record)

  /// The records of one event, in order.
  static func records(for event: StoreEvent) -> [EventRecord] {
    switch event {
    case .productsResponse(let request, let products, let invalid):
      [.productsResponse(ProductsResponse(request: request, products: products.map(\.rawValue), invalidProductIdentifiers: invalid))]
    case .productsRequestFailed(let request, let error):
      [.productsRequestFailed(ProductsRequestFailed(request: request, error: ErrorObject(error)))]
    case .transactionsUpdated(let list): list.map { .transactionUpdated(Transaction($0)) }
    case .transactionsRemoved(let list): list.map { .transactionRemoved(Transaction($0)) }
    case .restoreFinished(let count): [.restoreFinished(RestoreFinished(restoredCount: count))]
    case .restoreFailed(let error): [.restoreFailed(RestoreFailed(error: ErrorObject(error)))]
    case .shouldAddStorePayment(let product): [.shouldAddStorePayment(StorePayment(productID: product.rawValue))]
    case .promptPresented(let prompt): [.sheetPresented(Sheet(prompt))]
    case .promptDismissed: [.sheetDismissed]
    case .accountChanged(let name): [.accountChanged(AccountChange(account: name))]
    case .transactionRevoked(let transaction): [.transactionRevoked(Transaction(transaction))]
    case .subscriptionChanged(let record, let reason):
      [
        .subscriptionStatusChanged(
          SubscriptionStatusChange(
            productID: record.productID.rawValue, originalTransactionID: record.originalID.description,
            status: record.status.rawValue, reason: reason, signedRenewalInfo: record.signedRenewalInfo))
      ]
    case .historyCleared(let account): [.historyCleared(HistoryCleared(account: account))]
    case .askToBuyAnswered(let request, let approved): [.askToBuyAnswered(AskToBuyAnswer(request, approved: approved))]
    case .storefrontChanged(let code): [.storefrontChanged(StorefrontChange(storefront: code))]
    case .transactionDeleted(let transaction): [.transactionDeleted(Transaction(transaction))]
    case .misuse(let error): [.error(Misuse(error: error.name, message: ScenarioErrorText.message(for: error)))]
    case .refundRequestFinished(let id, let result): [.refundRequest(RefundRequest(id, result))]
    case .notificationQueued(let notification): [.notificationQueued(NotificationQueued(notification))]
    case .controlsChanged, .transactionsAmended, .transactionsChangedElsewhere, .clockAdvanced, .catalogChanged: []
    }
  }

  /// The event's name: `event` in JSON, and what `expect last-event` compares.
  var name: String {
    switch self {
    case .productsResponse: "productsResponse"
    case .productsRequestFailed: "productsRequestFailed"
    case .transactionUpdated: "transactionUpdated"
    case .transactionRemoved: "transactionRemoved"
    case .transactionRevoked: "transactionRevoked"
    case .restoreFinished: "restoreFinished"
    case .restoreFailed: "restoreFailed"
    case .shouldAddStorePayment: "shouldAddStorePayment"
    case .sheetPresented: "sheetPresented"
    case .sheetDismissed: "sheetDismissed"
    case .accountChanged: "accountChanged"
    case .subscriptionStatusChanged: "subscriptionStatusChanged"
    case .historyCleared: "historyCleared"
    case .askToBuyAnswered: "askToBuyAnswered"
    case .storefrontChanged: "storefrontChanged"
    case .transactionDeleted: "transactionDeleted"
    case .error: "error"
    case .refundRequest: "refundRequest"
    case .appCrashed: "appCrashed"
    case .notificationQueued: "notificationQueued"
    case .appServerCall: "appServerCall"
    case .retentionSheet: "retentionSheet"
    case .storeKit2(let record): record.name
    }
  }
}

extension EventRecord: Codable {
  private enum CodingKeys: String, CodingKey {
    case event
  }

  /// The case's fields and `event`, in one object.
  func encode(to encoder: any Encoder) throws {
    switch self {
    case .productsResponse(let fields): try fields.encode(to: encoder)
    case .productsRequestFailed(let fields): try fields.encode(to: encoder)
    case .transactionUpdated(let fields), .transactionRemoved(let fields), .transactionRevoked(let fields),
      .transactionDeleted(let fields):
      try fields.encode(to: encoder)
    case .restoreFinished(let fields): try fields.encode(to: encoder)
    case .restoreFailed(let fields): try fields.encode(to: encoder)
    case .shouldAddStorePayment(let fields): try fields.encode(to: encoder)
    case .sheetPresented(let fields): try fields.encode(to: encoder)
    case .sheetDismissed: break
    case .accountChanged(let fields): try fields.encode(to: encoder)
    case .subscriptionStatusChanged(let fields): try fields.encode(to: encoder)
    case .historyCleared(let fields): try fields.encode(to: encoder)
    case .askToBuyAnswered(let fields): try fields.encode(to: encoder)
    case .storefrontChanged(let fields): try fields.encode(to: encoder)
    case .error(let fields): try fields.encode(to: encoder)
    case .refundRequest(let fields): try fields.encode(to: encoder)
    case .appCrashed(let fields): try fields.encode(to: encoder)
    case .notificationQueued(let fields): try fields.encode(to: encoder)
    case .appServerCall(let fields): try fields.encode(to: encoder)
    case .retentionSheet(let fields): try fields.encode(to: encoder)
    case .storeKit2(let record): try record.encodeFields(to: encoder)
    }
    // The same object: a keyed container asked for again at this level adds to the fields above.
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .event)
  }

  /// Reads `event`, then the fields of that kind from the same object.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .event)
    switch name {
    case "productsResponse": self = .productsResponse(try ProductsResponse(from: decoder))
    case "productsRequestFailed": self = .productsRequestFailed(try ProductsRequestFailed(from: decoder))
    case "transactionUpdated": self = .transactionUpdated(try Transaction(from: decoder))
    case "transactionRemoved": self = .transactionRemoved(try Transaction(from: decoder))
    case "transactionRevoked": self = .transactionRevoked(try Transaction(from: decoder))
    case "restoreFinished": self = .restoreFinished(try RestoreFinished(from: decoder))
    case "restoreFailed": self = .restoreFailed(try RestoreFailed(from: decoder))
    case "shouldAddStorePayment": self = .shouldAddStorePayment(try StorePayment(from: decoder))
    case "sheetPresented": self = .sheetPresented(try Sheet(from: decoder))
    case "sheetDismissed": self = .sheetDismissed
    case "accountChanged": self = .accountChanged(try AccountChange(from: decoder))
    case "subscriptionStatusChanged": self = .subscriptionStatusChanged(try SubscriptionStatusChange(from: decoder))
    case "historyCleared": self = .historyCleared(try HistoryCleared(from: decoder))
    case "askToBuyAnswered": self = .askToBuyAnswered(try AskToBuyAnswer(from: decoder))
    case "storefrontChanged": self = .storefrontChanged(try StorefrontChange(from: decoder))
    case "transactionDeleted": self = .transactionDeleted(try Transaction(from: decoder))
    case "error": self = .error(try Misuse(from: decoder))
    case "refundRequest": self = .refundRequest(try RefundRequest(from: decoder))
    case "appCrashed": self = .appCrashed(try AppCrashed(from: decoder))
    case "notificationQueued": self = .notificationQueued(try NotificationQueued(from: decoder))
    case "appServerCall": self = .appServerCall(try AppServerCall(from: decoder))
    case "retentionSheet": self = .retentionSheet(try RetentionSheetShown(from: decoder))
    default:
      if let record = try StoreKit2Record(name: name, from: decoder) {
        self = .storeKit2(record)
        return
      }
      throw DecodingError.dataCorruptedError(forKey: .event, in: container, debugDescription: "Unknown event '\(name)'.")
    }
  }
}
