import Foundation
import StoreEngine

// The fields of each kind of event line. Property names are Swift's; the coding keys are the JSON
// keys. Optional fields are left out of the object when nil (the sign-out's `account: null` is the
// one explicit null). Dates are ISO 8601 strings at seconds precision, ids decimal strings, prices
// decimal strings ("2.97"), counts numbers.

extension EventRecord {
  /// `productsResponse`: `productsRequest(_:didReceive:)`.
  struct ProductsResponse: Sendable, Equatable, Codable {
    var request: Int
    var products: [String]
    var invalidProductIdentifiers: [String]
  }

  /// `productsRequestFailed`: `request(_:didFailWithError:)`.
  struct ProductsRequestFailed: Sendable, Equatable, Codable {
    var request: Int
    var error: ErrorObject
  }

  /// `transactionUpdated`, `transactionRemoved` and `transactionRevoked`; in `transactions --json`
  /// (no event) also `finished`, and `price` with `currency`.
  ///
  /// B3: StoreKit leaves `transactionIdentifier`, `transactionDate` and `originalTransaction`
  /// undefined unless the state is purchased or restored, so events of purchasing, deferred and
  /// failed transactions leave them out; `queueId` is the handle `finish`, `approve` and the other
  /// verbs take (it becomes the `transactionId` when the purchase goes through).
  struct Transaction: Sendable, Equatable, Codable {
    var queueID: String
    var transactionID: String?
    var originalTransactionID: String?
    var productID: String
    var state: String
    var quantity: Int
    var account: String
    var purchaseDate: String?
    var error: ErrorObject?
    var signedTransaction: String?
    var signedRenewalInfo: String?
    var expiresDate: String?
    var revocationDate: String?
    /// `"renewal"` for a subscription renewal, else left out.
    var reason: String?
    var applicationUsername: String?
    /// Listing only: whether the app finished it.
    var finished: Bool?
    /// Listing only: what was charged, when anything was (or it was purchased).
    var price: String?
    var currency: String?
    /// Listing only: the order id of a charge, as Apple's e-mail receipt shows it.
    var orderID: String?
    /// Listing only: the StoreKit 2 `appAccountToken` (the app's, or the server's Set App Account Token).
    var appAccountToken: String?
    /// Listing only: what the app's server last reported with Send Consumption Information.
    var consumption: Consumption?
    /// A bundle's component transaction and a switch's link (§47), named as in the signed payload.
    var bundleProductID: String?
    var bundleTransactionID: String?
    var bundleOriginalTransactionID: String?
    var bundleSubscriptionGroupIdentifier: String?
    var previousOriginalTransactionID: String?

    /// A Send Consumption Information report, Apple's field names.
    struct Consumption: Sendable, Equatable, Codable {
      var customerConsented: Bool
      var sampleContentProvided: Bool
      var deliveryStatus: String
      var consumptionPercentage: Int?
      var refundPreference: String?
      var receivedDate: String

      init(_ information: ConsumptionInformation) {
        customerConsented = information.customerConsented
        sampleContentProvided = information.sampleContentProvided
        deliveryStatus = information.deliveryStatus
        consumptionPercentage = information.consumptionPercentage
        refundPreference = information.refundPreference
        receivedDate = EventFormatter.timestamp(information.receivedDate)
      }
    }

    enum CodingKeys: String, CodingKey {
      case queueID = "queueId"
      case transactionID = "transactionId"
      case originalTransactionID = "originalTransactionId"
      case productID = "productId"
      case state, quantity, account, purchaseDate, error, signedTransaction, signedRenewalInfo, expiresDate
      case revocationDate, reason, applicationUsername, finished, price, currency
      case orderID = "orderId"
      case appAccountToken, consumption
      case bundleProductID = "bundleProductId"
      case bundleTransactionID = "bundleTransactionId"
      case bundleOriginalTransactionID = "bundleOriginalTransactionId"
      case bundleSubscriptionGroupIdentifier
      case previousOriginalTransactionID = "previousOriginalTransactionId"
    }

    /// The event fields of `transaction` (none of the listing's).
    init(_ transaction: PaymentTransaction) {
      queueID = transaction.id.description
      let defined = transaction.state == .purchased || transaction.state == .restored
      transactionID = defined ? transaction.id.description : nil
      originalTransactionID = defined ? transaction.originalID.description : nil
      productID = transaction.productID.rawValue
      state = transaction.state.name
      quantity = transaction.quantity
      account = transaction.account
      purchaseDate = defined ? EventFormatter.timestamp(transaction.purchaseDate) : nil
      error = transaction.error.map(ErrorObject.init)
      signedTransaction = transaction.signedTransaction
      signedRenewalInfo = transaction.signedRenewalInfo
      expiresDate = transaction.expiresDate.map(EventFormatter.timestamp)
      revocationDate = transaction.revocationDate.map(EventFormatter.timestamp)
      reason = transaction.reason == .renewal ? "renewal" : nil
      applicationUsername = transaction.applicationUsername
      if let bundle = transaction.bundle {
        bundleProductID = bundle.productID?.rawValue
        bundleTransactionID = bundle.transactionID?.description
        bundleOriginalTransactionID = bundle.originalTransactionID?.description
        bundleSubscriptionGroupIdentifier = bundle.subscriptionGroupID
        previousOriginalTransactionID = bundle.previousOriginalID?.description
      }
    }

    /// The `transactions --json` object of `transaction`: the event fields plus `finished`, and
    /// the price when something was charged or the transaction is purchased.
    init(listing transaction: PaymentTransaction) {
      self.init(transaction)
      // The ledger's view, not StoreKit's: every row has its ids and date.
      transactionID = transaction.id.description
      originalTransactionID = transaction.originalID.description
      purchaseDate = EventFormatter.timestamp(transaction.purchaseDate)
      finished = transaction.isFinished
      if transaction.price != 0 || transaction.state == .purchased {
        price = transaction.price.description
        currency = transaction.currency
      }
      orderID = transaction.orderID
      appAccountToken = transaction.appAccountToken
      consumption = transaction.consumption.map(Consumption.init)
    }
  }

  /// `restoreFinished`: `paymentQueueRestoreCompletedTransactionsFinished(_:)`.
  struct RestoreFinished: Sendable, Equatable, Codable {
    var restoredCount: Int
  }

  /// `restoreFailed`: `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`.
  struct RestoreFailed: Sendable, Equatable, Codable {
    var error: ErrorObject
  }

  /// `shouldAddStorePayment`: a purchase started on the App Store page.
  struct StorePayment: Sendable, Equatable, Codable {
    var productID: String

    enum CodingKeys: String, CodingKey {
      case productID = "productId"
    }
  }

  /// `sheetPresented`: the purchase sheet (`confirmPurchase`, `alreadyPurchased`) with what
  /// confirming charges, or the sign-in sheet for a purchase or `for: restore`. A subscription's
  /// sheet adds its terms (B73): the period and price it renews at, and the offer it starts with
  /// (`offerType` and `offerDiscountType` as signed transactions name them).
  struct Sheet: Sendable, Equatable, Codable {
    var sheet: String
    var transactionID: String?
    var productID: String?
    var quantity: Int?
    var price: String?
    var currency: String?
    /// `"restore"` when signing in for a restore.
    var purpose: String?
    var subscriptionPeriod: String?
    var renewalPrice: String?
    var offerType: Int?
    var offerDiscountType: String?
    /// One offer period (`P1M`); the offer lasts `offerPeriodCount` of them.
    var offerPeriod: String?
    var offerPeriodCount: Int?
    var offerPrice: String?
    /// A monthly plan's commitment (iOS 26.4): how many monthly payments, and their total.
    var commitmentPayments: Int?
    var commitmentPrice: String?

    enum CodingKeys: String, CodingKey {
      case sheet
      case transactionID = "transactionId"
      case productID = "productId"
      case quantity, price, currency
      case purpose = "for"
      case subscriptionPeriod, renewalPrice, offerType, offerDiscountType, offerPeriod, offerPeriodCount, offerPrice
      case commitmentPayments, commitmentPrice
    }

    init(
      sheet: String, transactionID: String? = nil, productID: String? = nil, quantity: Int? = nil,
      price: String? = nil, currency: String? = nil, purpose: String? = nil
    ) {
      self.sheet = sheet
      self.transactionID = transactionID
      self.productID = productID
      self.quantity = quantity
      self.price = price
      self.currency = currency
      self.purpose = purpose
    }

    init(_ prompt: PurchasePrompt) {
      switch prompt {
      case .confirm(let id, let product, let quantity, let owned, let price, let terms):
        self.init(
          sheet: owned ? "alreadyPurchased" : "confirmPurchase", transactionID: id.description,
          productID: product.rawValue, quantity: quantity, price: price.decimalString, currency: price.currencyCode)
        if let terms {
          subscriptionPeriod = terms.regularPeriod.iso8601
          renewalPrice = terms.regularPrice.decimalString
          if let offer = terms.offer {
            offerType = offer.kind.rawValue
            offerDiscountType = offer.paymentMode.discountType
            offerPeriod = offer.period.iso8601
            offerPeriodCount = offer.numberOfPeriods
            offerPrice = offer.price.decimalString
          }
          commitmentPayments = terms.commitment?.payments
          commitmentPrice = terms.commitment?.total.decimalString
        }
      case .signIn(.purchase(let id)):
        self.init(sheet: "signIn", transactionID: id.description)
      case .signIn(.restore):
        self.init(sheet: "signIn", purpose: "restore")
      }
    }
  }

  /// `accountChanged`: the account signed in, or `null` for a sign-out.
  struct AccountChange: Sendable, Equatable, Codable {
    var account: String?

    enum CodingKeys: String, CodingKey {
      case account
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if let account {
        try container.encode(account, forKey: .account)
      } else {
        try container.encodeNil(forKey: .account)
      }
    }
  }

  /// `subscriptionStatusChanged`: a subscription chain's status now, and why it changed.
  struct SubscriptionStatusChange: Sendable, Equatable, Codable {
    var productID: String
    var originalTransactionID: String
    var status: String
    var reason: String
    /// The renewal info as it is after the change (B40), signed; nil when the store does not sign.
    var signedRenewalInfo: String? = nil

    enum CodingKeys: String, CodingKey {
      case productID = "productId"
      case originalTransactionID = "originalTransactionId"
      case status, reason, signedRenewalInfo
    }
  }

  /// `historyCleared`: "Clear Purchase History" for an account.
  struct HistoryCleared: Sendable, Equatable, Codable {
    var account: String
  }

  /// `askToBuyAnswered`: the parent's answer (not a StoreKit callback; a decline reaches the app as
  /// nothing at all).
  struct AskToBuyAnswer: Sendable, Equatable, Codable {
    var transactionIDs: [String]
    var productID: String
    var account: String
    var answer: String

    enum CodingKeys: String, CodingKey {
      case transactionIDs = "transactionIds"
      case productID = "productId"
      case account, answer
    }

    init(_ request: AskToBuyRequest, approved: Bool) {
      transactionIDs = request.transactionIDs.map(\.description)
      productID = request.productID.rawValue
      account = request.account
      answer = approved ? "approved" : "declined"
    }
  }

  /// `storefrontChanged`: `paymentQueueDidChangeStorefront(_:)`.
  struct StorefrontChange: Sendable, Equatable, Codable {
    var storefront: String
  }

  /// `error`: the misuse's case name and the sentence the scenario language words it in.
  struct Misuse: Sendable, Equatable, Codable {
    var error: String
    var message: String
  }

  /// A StoreKit error as JSON: `{code, domain, name}` (`SKErrorDomain` numbers, or e.g. 5002).
  struct ErrorObject: Sendable, Equatable, Codable {
    var code: Int
    var domain: String
    var name: String

    init(_ error: StoreKitError) {
      code = error.code
      domain = error.domain
      name = error.name
    }
  }
}
