import Foundation

/// A receipt-refresh test property: the new receipt is expired (Apple's key, `expired`).
public let SKReceiptPropertyIsExpired: String = "expired"
/// A receipt-refresh test property: the new receipt is revoked (Apple's key, `revoked`).
public let SKReceiptPropertyIsRevoked: String = "revoked"
/// A receipt-refresh test property: the new receipt is a volume purchase (Apple's key, `vpp`).
public let SKReceiptPropertyIsVolumePurchase: String = "vpp"

/// Ends the app when its license is gone: here, when the store cannot give the app a receipt (the
/// store failed to open; the reason is reported). With a receipt, it returns, as Apple's does.
/// The process exits with status 173, the status that asks for a new receipt on a Mac.
public func SKTerminateForInvalidReceipt() {
  guard StoreKitEnvironment.shared.currentReceiptURL() == nil else { return }
  StoreKitEnvironment.shared.reportMisuse("SKTerminateForInvalidReceipt(): the app has no valid receipt; the process exits (173).")
  exit(173)
}
