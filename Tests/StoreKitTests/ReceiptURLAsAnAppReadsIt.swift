// Only StoreKit is imported here, as in an app file that reads its receipt: Foundation comes through
// StoreKit's re-export, so `Bundle.main.appStoreReceiptURL` is StoreKit's (a file that also imports
// Foundation or XCTest itself sees Foundation's too, which is nil on Linux: Docs/storekit-library.md).
import StoreKit

/// `Bundle.main.appStoreReceiptURL`, read the way an app reads it.
func receiptURLAsAnAppReadsIt() -> URL? {
  Bundle.main.appStoreReceiptURL
}
