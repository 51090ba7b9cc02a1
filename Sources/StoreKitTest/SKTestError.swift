import Foundation
import StoreKit

/// The error domain of ``SKTestError``.
public let SKTestErrorDomain: String = "SKTestErrorDomain"

/// An error of a test session call: an ``SKTestError/Code`` in ``SKTestErrorDomain``, with Apple's raw
/// values (`SKTestError.h`), bridged as Apple's is: `catch SKTestError.fileNotFound`,
/// `case SKTestError.noTransactionFound` on any `Error`, `(error as NSError).code`.
public struct SKTestError: _BridgedStoredNSError, Hashable, @unchecked Sendable {
  /// The codes of `SKTestErrorDomain`, with Apple's raw values.
  public enum Code: Int, _ErrorCodeProtocol, Sendable, Hashable {
    public typealias _ErrorType = SKTestError
    case serviceUnavailable = 0
    case invalidProductIdentifier = 1
    case invalidProductType = 2
    case invalidURL = 3
    case fileNotFound = 4
    case noSubscriptionFound = 5
    case noTransactionFound = 6
    case invalidAction = 7
  }

  public let _nsError: NSError

  public init(_nsError error: NSError) { _nsError = error }

  public static var errorDomain: String { SKTestErrorDomain }
  public static var _nsErrorDomain: String { SKTestErrorDomain }

  /// An error with `message` as its localized description: what went wrong and where (the file,
  /// product or transaction).
  init(_ code: Code, message: String) {
    self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
  }

  /// What went wrong and where (the file, product or transaction).
  public var message: String { localizedDescription }

  public static var serviceUnavailable: Code { .serviceUnavailable }
  public static var invalidProductIdentifier: Code { .invalidProductIdentifier }
  public static var invalidProductType: Code { .invalidProductType }
  public static var invalidURL: Code { .invalidURL }
  public static var fileNotFound: Code { .fileNotFound }
  public static var noSubscriptionFound: Code { .noSubscriptionFound }
  public static var noTransactionFound: Code { .noTransactionFound }
  public static var invalidAction: Code { .invalidAction }
}
