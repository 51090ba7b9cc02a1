// Apple's StoreKit 1 declarations that Apple deprecates (hosted content, since iOS 16), named with
// Apple's signatures in a deprecated context so that naming them warns nowhere.
import Foundation
import StoreKit

/// Compiled, never called: each line type-checks one declaration against Apple's signature.
@available(*, deprecated, message: "names Apple's deprecated hosted-content declarations")
func storeKit1HostedContentSurface(_ queue: SKPaymentQueue, _ transaction: SKPaymentTransaction, _ product: SKProduct) {
  // decl: SKPaymentQueue.start(_:)
  let _: (SKPaymentQueue) -> ([SKDownload]) -> Void = SKPaymentQueue.start
  // decl: SKPaymentQueue.pause(_:)
  let _: (SKPaymentQueue) -> ([SKDownload]) -> Void = SKPaymentQueue.pause
  // decl: SKPaymentQueue.resume(_:)
  let _: (SKPaymentQueue) -> ([SKDownload]) -> Void = SKPaymentQueue.resume
  // decl: SKPaymentQueue.cancel(_:)
  let _: (SKPaymentQueue) -> ([SKDownload]) -> Void = SKPaymentQueue.cancel
  // decl: SKPaymentTransactionObserver.paymentQueue(_:updatedDownloads:)
  let observer: any SKPaymentTransactionObserver = SurfaceObserver()
  observer.paymentQueue(queue, updatedDownloads: [SKDownload]())
  // decl: SKPaymentTransaction.downloads
  let _: KeyPath<SKPaymentTransaction, [SKDownload]> = \.downloads
  // decl: SKProduct.isDownloadable
  let _: KeyPath<SKProduct, Bool> = \.isDownloadable
  // decl: SKProduct.downloadContentLengths
  let _: KeyPath<SKProduct, [NSNumber]> = \.downloadContentLengths
  // decl: SKProduct.downloadContentVersion
  let _: KeyPath<SKProduct, String> = \.downloadContentVersion

  // decl: SKDownload
  let download: SKDownload = SKDownload()
  let _: NSObject = download
  // decl: SKDownload.state
  let _: SKDownloadState = download.state
  // decl: SKDownload.downloadState
  let _: SKDownloadState = download.downloadState
  // decl: SKDownload.contentLength
  let _: Int64 = download.contentLength
  // decl: SKDownload.expectedContentLength
  let _: Int64 = download.expectedContentLength
  // decl: SKDownload.contentIdentifier
  let _: String = download.contentIdentifier
  // decl: SKDownload.contentURL
  let _: URL? = download.contentURL
  // decl: SKDownload.contentVersion
  let _: String = download.contentVersion
  // decl: SKDownload.error
  let _: Error? = download.error
  // decl: SKDownload.progress
  let _: Float = download.progress
  // decl: SKDownload.timeRemaining
  let _: TimeInterval = download.timeRemaining
  // decl: SKDownload.transaction
  let _: SKPaymentTransaction = download.transaction
  // decl: SKDownloadState
  let _: Int = SKDownloadState.waiting.rawValue
  // decl: SKDownloadState.waiting
  // decl: SKDownloadState.active
  // decl: SKDownloadState.paused
  // decl: SKDownloadState.finished
  // decl: SKDownloadState.failed
  // decl: SKDownloadState.cancelled
  let _: [SKDownloadState] = [.waiting, .active, .paused, .finished, .failed, .cancelled]
  // decl: SKDownloadTimeRemainingUnknown
  let _: TimeInterval = SKDownloadTimeRemainingUnknown
}
