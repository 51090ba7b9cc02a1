import StoreEngine

/// The modal shown over the panes, if any. Keys go to the sheet while it is up.
public enum Sheet: Equatable, Sendable {
  /// The App Store's purchase sheet, shown when the engine presents its confirm prompt.
  case purchase(PurchaseSheet)
  /// The sandbox tester sign-in sheet (from the engine's prompt, or opened with `i`).
  case signIn(SignInSheet)
  /// Ask to Buy: "Ask Permission — a request has been sent".
  case askToBuy(productName: String)
  /// A yes/no question (quit while a purchase is in flight, clear purchase history).
  case confirm(ConfirmSheet)
  /// The key list, scrolled to `firstRow`.
  case help(firstRow: Int)
  /// A decoded signed transaction.
  case jws(JWSSheet)
  /// Where to save a signed transaction.
  case export(ExportSheet)
  /// One request of the Server pane: its token and response.
  case request(RequestSheet)
  /// The app's server's notification URL (editable; empty turns notifications off).
  case notificationURL(URLSheet)
  /// A Catalog pane form (edit or add a product, a group, the settings).
  case catalogForm(CatalogForm)

  /// Whether the engine put this sheet up (it goes away on the engine's `promptDismissed`).
  var isEnginePrompt: Bool {
    switch self {
    case .purchase(let sheet): sheet.app == nil
    case .signIn(let sheet): sheet.purpose != nil
    default: false
    }
  }
}

/// "Confirm Your In-App Purchase".
public struct PurchaseSheet: Equatable, Sendable {
  public var transaction: PaymentTransaction.ID
  public var product: Product.ID
  public var productName: String
  public var quantity: Int
  /// The formatted total price.
  public var price: String
  /// The "You've already purchased this" variant.
  public var alreadyOwned: Bool
  /// An auto-renewable subscription's terms, which the sheet states instead of "buy one" (B73).
  public var terms: Terms?
  /// For a subscription bundle or suite: the names of the subscriptions it includes (§47).
  public var includes: [String] = []
  /// The attached app whose sheet this is (its bundle id); nil: the simulated app's. Its answer goes
  /// to that app, which carries it out (DECISIONS §37).
  public var app: String?

  public init(
    transaction: PaymentTransaction.ID, product: Product.ID, productName: String, quantity: Int, price: String,
    alreadyOwned: Bool, terms: Terms? = nil, app: String? = nil
  ) {
    self.app = app
    self.transaction = transaction
    self.product = product
    self.productName = productName
    self.quantity = quantity
    self.price = price
    self.alreadyOwned = alreadyOwned
    self.terms = terms
  }
}

/// The sign-in form: account name and a masked password.
public struct SignInSheet: Equatable, Sendable {
  public enum Field: Equatable, Sendable {
    case account
    case password
  }

  /// Why the engine asked; `nil` when the user opened the sheet to switch accounts.
  public var purpose: PurchasePrompt.SignInPurpose?
  public var account: String
  public var password: String
  public var field: Field
  /// The last sign-in error, shown in the sheet.
  public var error: String?
  /// The attached app whose purchase asked the device to sign in (nil: the simulated app).
  public var app: String?

  public init(
    purpose: PurchasePrompt.SignInPurpose?, account: String = "", password: String = "",
    field: Field = .account, error: String? = nil, app: String? = nil
  ) {
    self.purpose = purpose
    self.account = account
    self.password = password
    self.field = field
    self.error = error
    self.app = app
  }
}

/// A question with a confirming command.
public struct ConfirmSheet: Equatable, Sendable {
  public var title: String
  public var message: String
  public var confirmTitle: String
  public var cancelTitle: String
  /// What happens on yes.
  public var command: AppCommand
  /// A third answer (space): a retention sheet's "Cancel Subscription" beside its offer.
  public var alternative: Alternative?

  /// A third answer's button and command.
  public struct Alternative: Equatable, Sendable {
    public var title: String
    public var command: AppCommand

    public init(title: String, command: AppCommand) {
      self.title = title
      self.command = command
    }
  }

  public init(
    title: String, message: String, confirmTitle: String, cancelTitle: String = "Cancel", command: AppCommand,
    alternative: Alternative? = nil
  ) {
    self.title = title
    self.message = message
    self.confirmTitle = confirmTitle
    self.cancelTitle = cancelTitle
    self.command = command
    self.alternative = alternative
  }
}

/// A signed transaction, decoded for reading.
public struct JWSSheet: Equatable, Sendable {
  public var transaction: PaymentTransaction.ID
  /// Header and payload, pretty-printed, one entry a line.
  public var lines: [String]
  public var firstRow: Int

  public init(transaction: PaymentTransaction.ID, lines: [String], firstRow: Int = 0) {
    self.transaction = transaction
    self.lines = lines
    self.firstRow = firstRow
  }
}

/// A server request, decoded for reading.
public struct RequestSheet: Equatable, Sendable {
  /// The request's ``ServerRequest/number``.
  public var number: Int
  /// `GET /inApps/v1/transactions/1 → 200`.
  public var title: String
  /// The request, the token's header and claims, the response body and its decoded signed fields.
  public var lines: [String]
  public var firstRow: Int

  public init(number: Int, title: String, lines: [String], firstRow: Int = 0) {
    self.number = number
    self.title = title
    self.lines = lines
    self.firstRow = firstRow
  }
}

/// A URL being edited: the notification URL, or the simulated app's own server.
public struct URLSheet: Equatable, Sendable {
  /// Which URL it is.
  public enum Purpose: Equatable, Sendable {
    case notifications
    case appServer
    /// Not a URL: the offer code typed into the App Store's redemption sheet (B50).
    case offerCode
    /// The same, for an attached app (its `presentCodeRedemptionSheet()`): the app of `session`
    /// redeems what is typed.
    case attachedOfferCode(session: String, app: String)

    /// Whether a code, not a URL, is typed.
    public var isOfferCode: Bool {
      switch self {
      case .offerCode, .attachedOfferCode: true
      case .notifications, .appServer: false
      }
    }
  }

  public var url: String
  public var purpose: Purpose
  /// For an offer-code sheet: the store's codes, a line each, as the tester's list of what there is
  /// to redeem (nil until the runtime read them; DECISIONS §45).
  public var codes: [String]?

  public init(url: String, purpose: Purpose = .notifications) {
    self.url = url
    self.purpose = purpose
  }
}

/// The path to export a signed transaction to (editable).
public struct ExportSheet: Equatable, Sendable {
  public var transaction: PaymentTransaction.ID
  public var path: String
  /// Whether this saves the app receipt instead of the transaction's JWS.
  public var isReceipt = false

  public init(transaction: PaymentTransaction.ID, path: String) {
    self.transaction = transaction
    self.path = path
  }

  /// Saving the app receipt of `account` (DER), to `receipt-ACCOUNT.der` unless edited.
  public init(receiptOf account: String) {
    self.init(transaction: PaymentTransaction.ID(0), path: "receipt-\(account).der")
    isReceipt = true
  }
}
