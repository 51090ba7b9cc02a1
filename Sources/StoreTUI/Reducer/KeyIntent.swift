import Foundation

/// What a key asks for. ``KeyBindings`` says which keys ask for which intent in which scope, and
/// the reducer switches over the intent, never over the key.
public enum KeyIntent: Hashable, Sendable {
  // MARK: Moving through a list or a scrolling sheet

  /// One row (or line) up.
  case moveUp
  /// One row (or line) down.
  case moveDown
  /// One page up.
  case pageUp
  /// One page down.
  case pageDown
  /// To the first row.
  case top
  /// To the last row (the Log pane then follows new lines).
  case bottom

  // MARK: Everywhere

  /// The pane after the focused one.
  case nextPane
  /// The pane before the focused one.
  case previousPane
  /// Jump to a pane.
  case focus(Pane)
  /// The help overlay.
  case help
  /// Quit (asks first while a purchase is in flight).
  case quit
  /// Restore purchases.
  case restore
  /// The sign-in sheet, to switch sandbox accounts.
  case signIn
  /// Move the virtual clock forward by this many seconds.
  case advanceClock(TimeInterval)
  /// Quit and relaunch the app: unfinished transactions are delivered again.
  case relaunch

  // MARK: Store pane

  /// Buy the selected product.
  case buy
  /// Buy the selected yearly subscription on its monthly plan (a 12-month commitment).
  case buyMonthlyPlan
  /// B50: open the App Store's offer-code redemption sheet (`presentCodeRedemptionSheet()`).
  case redeemCode
  /// A purchase started on the App Store's page (a promoted in-app purchase): the app is asked
  /// `paymentQueue(_:shouldAddStorePayment:for:)` (StoreKit 2: `PurchaseIntent.intents`).
  case storePayment

  // MARK: Transactions pane

  /// Finish the selected transaction.
  case finish
  /// Approve an Ask to Buy request.
  case approve
  /// Decline an Ask to Buy request.
  case decline
  /// Resolve an interrupted purchase or a billing issue.
  case resolve
  /// Refund the selected transaction.
  case refund
  /// Show the decoded signed transaction.
  case viewJWS
  /// Save the signed transaction to a file.
  case exportJWS
  /// Turn a subscription's auto-renew on or off.
  case toggleAutoRenew
  /// Manage the subscription and move to cancel it: the App Store asks the developer's realtime
  /// endpoint what to show (Retention Messaging), then the cancel sheet.
  case cancelSubscription
  /// Expire a subscription now.
  case expireNow
  /// Renew a subscription now.
  case renewNow
  /// Show the account's app receipt, decoded.
  case viewReceipt
  /// Save the app receipt (PKCS#7 DER) to a file.
  case exportReceipt

  // MARK: Settings pane

  /// Toggle the selected setting or pick its next value.
  case nextValue
  /// Pick the selected setting's previous value.
  case previousValue

  // MARK: Log pane

  /// Scroll long lines to the left.
  case panLeft
  /// Scroll long lines to the right.
  case panRight
  /// Switch the log between the StoreKit 1 and the StoreKit 2 view of the same session.
  case toggleLogAPI

  // MARK: Server pane

  /// Open the selected request (its decoded token and the response body), or notification.
  case openRequest
  /// Switch the Server pane between its requests and its notifications.
  case toggleNotifications
  /// Deliver the selected notification again.
  case redeliver

  // MARK: Catalog pane

  /// Edit the selected product, group or the settings.
  case editCatalogEntry
  /// Add a product.
  case addProduct
  /// Duplicate the selected product.
  case duplicateProduct
  /// Delete the selected product (asks first).
  case deleteProduct
  /// Move the selected subscription one level up (toward 1) or down in its group.
  case moveLevel(Int)
  /// Read the file again from disk.
  case reloadCatalog

  // MARK: Sheets

  /// Answer yes, or submit a form.
  case confirm
  /// Answer no, or close a form without submitting it.
  case cancel
  /// Close a message that asks nothing (Ask to Buy's "Ask Permission").
  case dismiss
  /// Close a sheet that is only read (help, the decoded JWS).
  case close
  /// Move to the form's other field.
  case nextField
  /// Move to the form's previous field.
  case previousField
  /// Delete the character before the cursor.
  case erase
  /// Type this character into the focused field.
  case type(Character)
}
