import Foundation
import StoreEngine

/// One in-app purchase receipt (attribute 17) of an app receipt: a transaction as the receipt
/// shows it.
public struct InAppPurchaseReceipt: Sendable, Equatable {
  public var quantity: Int
  public var productID: String
  public var transactionID: String
  public var originalTransactionID: String
  public var purchaseDate: Date
  public var originalPurchaseDate: Date
  /// Subscriptions only.
  public var expiresDate: Date?
  /// Auto-renewable subscriptions only.
  public var webOrderLineItemID: Int64?
  /// Refunded (revoked) transactions only.
  public var cancellationDate: Date?
  /// Auto-renewable subscriptions only: in a free trial.
  public var isTrialPeriod: Bool?
  /// Auto-renewable subscriptions only: in a pay-as-you-go or pay-up-front introductory offer.
  public var isInIntroOfferPeriod: Bool?
  public var promotionalOfferID: String?

  public init(
    quantity: Int, productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date,
    originalPurchaseDate: Date, expiresDate: Date? = nil, webOrderLineItemID: Int64? = nil, cancellationDate: Date? = nil,
    isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil, promotionalOfferID: String? = nil
  ) {
    self.quantity = quantity
    self.productID = productID
    self.transactionID = transactionID
    self.originalTransactionID = originalTransactionID
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.webOrderLineItemID = webOrderLineItemID
    self.cancellationDate = cancellationDate
    self.isTrialPeriod = isTrialPeriod
    self.isInIntroOfferPeriod = isInIntroOfferPeriod
    self.promotionalOfferID = promotionalOfferID
  }

  /// The receipt's view of a ledger transaction.
  public init(_ transaction: PaymentTransaction) {
    let autoRenewable = transaction.productKind == .autoRenewableSubscription
    let introductory = transaction.offerType == .introductory
    self.init(
      quantity: transaction.quantity, productID: transaction.productID.rawValue, transactionID: transaction.id.description,
      originalTransactionID: transaction.originalID.description, purchaseDate: transaction.purchaseDate,
      originalPurchaseDate: transaction.originalPurchaseDate, expiresDate: transaction.expiresDate,
      webOrderLineItemID: autoRenewable ? transaction.webOrderLineItemID.map { Int64(clamping: $0) } : nil,
      cancellationDate: transaction.revocationDate,
      isTrialPeriod: autoRenewable ? introductory && transaction.offerPaymentMode == .freeTrial : nil,
      isInIntroOfferPeriod: autoRenewable ? introductory && transaction.offerPaymentMode != .freeTrial : nil,
      promotionalOfferID: transaction.offerType == .promotional ? transaction.offerID : nil)
  }

  /// The SET OF ReceiptAttribute that attribute 17 holds.
  public var attributes: [ReceiptAttribute] {
    typealias T = ReceiptAttributeType
    var list: [ReceiptAttribute] = [
      ReceiptAttribute(T.quantity, .integer(Int64(quantity))),
      ReceiptAttribute(T.productID, .utf8(productID)),
      ReceiptAttribute(T.transactionID, .utf8(transactionID)),
      ReceiptAttribute(T.purchaseDate, .date(purchaseDate)),
      ReceiptAttribute(T.originalTransactionID, .utf8(originalTransactionID)),
      ReceiptAttribute(T.originalPurchaseDateInApp, .date(originalPurchaseDate)),
    ]
    if let expiresDate { list.append(ReceiptAttribute(T.expiresDate, .date(expiresDate))) }
    if let webOrderLineItemID { list.append(ReceiptAttribute(T.webOrderLineItemID, .integer(webOrderLineItemID))) }
    if let cancellationDate { list.append(ReceiptAttribute(T.cancellationDate, .date(cancellationDate))) }
    if let isTrialPeriod { list.append(ReceiptAttribute(T.isTrialPeriod, .integer(isTrialPeriod ? 1 : 0))) }
    if let isInIntroOfferPeriod { list.append(ReceiptAttribute(T.isInIntroOfferPeriod, .integer(isInIntroOfferPeriod ? 1 : 0))) }
    if let promotionalOfferID { list.append(ReceiptAttribute(T.promotionalOfferID, .utf8(promotionalOfferID))) }
    return list
  }

  /// Reads an in-app purchase receipt back; nil when a required attribute is missing.
  public init?(attributes: [ReceiptAttribute]) {
    typealias T = ReceiptAttributeType
    guard let quantity = attributes.value(T.quantity)?.integer, let productID = attributes.value(T.productID)?.string,
      let transactionID = attributes.value(T.transactionID)?.string, let purchaseDate = attributes.value(T.purchaseDate)?.date
    else { return nil }
    self.init(
      quantity: Int(clamping: quantity), productID: productID, transactionID: transactionID,
      originalTransactionID: attributes.value(T.originalTransactionID)?.string ?? transactionID, purchaseDate: purchaseDate,
      originalPurchaseDate: attributes.value(T.originalPurchaseDateInApp)?.date ?? purchaseDate,
      expiresDate: attributes.value(T.expiresDate)?.date, webOrderLineItemID: attributes.value(T.webOrderLineItemID)?.integer,
      cancellationDate: attributes.value(T.cancellationDate)?.date,
      isTrialPeriod: attributes.value(T.isTrialPeriod)?.integer.map { $0 != 0 },
      isInIntroOfferPeriod: attributes.value(T.isInIntroOfferPeriod)?.integer.map { $0 != 0 },
      promotionalOfferID: attributes.value(T.promotionalOfferID)?.string)
  }
}
