import Foundation

/// The state of a hosted-content download.
@available(*, deprecated, message: "Hosted content is no longer supported")
public enum SKDownloadState: Int, Sendable, Hashable {
  case waiting = 0
  case active = 1
  case paused = 2
  case finished = 3
  case failed = 4
  case cancelled = 5
}

/// The `timeRemaining` of a download whose end cannot be estimated (Apple's value, -1).
@available(*, deprecated, message: "Hosted content is no longer supported")
public let SKDownloadTimeRemainingUnknown: TimeInterval = -1

/// Hosted content of a transaction, as Apple declares it. `.storekit` files and the engine's catalogs
/// have no hosted content, so the store never makes one: `transaction.downloads` is always empty.
/// `SKDownload()` makes a waiting download of nothing, for a test double to subclass.
@available(*, deprecated, message: "Hosted content is no longer supported")
open class SKDownload: NSObject, @unchecked Sendable {
  /// An empty, waiting download of no transaction the store knows.
  public override init() {
    super.init()
  }

  /// Always `waiting`: nothing is ever downloaded.
  open var state: SKDownloadState { .waiting }
  @available(*, deprecated, renamed: "state")
  open var downloadState: SKDownloadState { state }
  @available(*, deprecated, renamed: "expectedContentLength")
  open var contentLength: Int64 { expectedContentLength }
  /// Zero: there is no content.
  open var expectedContentLength: Int64 { 0 }
  /// Empty: there is no content.
  open var contentIdentifier: String { "" }
  /// Where finished content would be; never set, as nothing is downloaded.
  open var contentURL: URL? { nil }
  /// Empty: there is no content.
  open var contentVersion: String { "" }
  /// Nil: a download that never starts never fails.
  open var error: (any Error)? { nil }
  /// Zero, as for a download that has not started.
  open var progress: Float { 0 }
  /// ``SKDownloadTimeRemainingUnknown``: a download that never starts has no estimate.
  open var timeRemaining: TimeInterval { SKDownloadTimeRemainingUnknown }
  /// An empty transaction no store made (Apple's is the transaction that owns the content).
  open var transaction: SKPaymentTransaction { placeholderTransaction }

  private let placeholderTransaction = SKPaymentTransaction()
}
