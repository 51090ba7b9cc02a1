/// The `status` values `verifyReceipt` answers (Docs/Receipts.md).
public enum VerifyReceiptStatus {
  public static let valid = 0
  /// The request was not an HTTP POST.
  public static let notPost = 21000
  /// `receipt-data` missing, malformed, or the body is not the JSON object it should be.
  public static let malformedReceipt = 21002
  /// The receipt's signature does not verify.
  public static let notAuthentic = 21003
  /// The shared secret does not match the one on file.
  public static let wrongSharedSecret = 21004
  /// A sandbox receipt was sent to the production server.
  public static let sandboxReceiptInProduction = 21007
  /// A production receipt was sent to the sandbox server.
  public static let productionReceiptInSandbox = 21008
  /// The retryable internal errors the sandbox controls can inject.
  public static let retryableRange = 21100...21199
}
