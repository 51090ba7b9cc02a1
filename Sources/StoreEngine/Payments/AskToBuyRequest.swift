import Foundation

/// One Ask to Buy request: a child's payment waiting for a parent's answer.
///
/// The request lives in the ledger, not in one process's memory, as Apple's lives on its server:
/// an answer scheduled for later survives a relaunch and is carried out by whichever process moves
/// the clock past it. Requests for a product the account already asked for are consolidated into
/// one (Apple: "only resets the 24-hour timer. Once approved, only 1 purchase is completed").
public struct AskToBuyRequest: Sendable, Equatable, Codable, Identifiable {
  /// Where the request stands.
  public enum Status: String, Sendable, Equatable, Codable {
    case pending
    /// The parent said no. StoreKit tells the app nothing; a later approval still completes it.
    case declined
    /// The purchase was made; the request is over.
    case approved
  }

  /// An answer the parent gives at a later moment of virtual time.
  public struct ScheduledAnswer: Sendable, Equatable, Codable {
    public var approve: Bool
    public var date: Date
    public init(approve: Bool, date: Date) {
      self.approve = approve
      self.date = date
    }
  }

  /// The first deferred transaction of the request.
  public var id: PaymentTransaction.ID
  public var account: String
  public var productID: Product.ID
  /// The payment as the child made it: what a purchase made on approval carries.
  public var quantity: Int
  public var applicationUsername: String?
  public var offerID: String?
  /// Every deferred transaction the request consolidates, oldest first.
  public var transactionIDs: [PaymentTransaction.ID]
  /// When the child last asked (a duplicate request moves it).
  public var requestedDate: Date
  public var status: Status
  public var scheduledAnswer: ScheduledAnswer?
  /// The transaction the approval delivered.
  public var purchasedTransactionID: PaymentTransaction.ID?

  public init(
    id: PaymentTransaction.ID, account: String, productID: Product.ID, quantity: Int = 1,
    applicationUsername: String? = nil, offerID: String? = nil, transactionIDs: [PaymentTransaction.ID], requestedDate: Date, status: Status = .pending, scheduledAnswer: ScheduledAnswer? = nil,
    purchasedTransactionID: PaymentTransaction.ID? = nil
  ) {
    self.id = id
    self.account = account
    self.productID = productID
    self.quantity = quantity
    self.applicationUsername = applicationUsername
    self.offerID = offerID
    self.transactionIDs = transactionIDs
    self.requestedDate = requestedDate
    self.status = status
    self.scheduledAnswer = scheduledAnswer
    self.purchasedTransactionID = purchasedTransactionID
  }

  /// Not yet approved: it can still be answered.
  public var isOpen: Bool { status != .approved }
}
