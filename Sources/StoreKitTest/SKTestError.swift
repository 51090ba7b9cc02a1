import Foundation
import StoreKit

/// An error of a test session call, with Apple's codes.
public struct SKTestError: Error, Hashable, CustomNSError, LocalizedError, Sendable {
  public enum Code: Int, Sendable, Hashable {
    case unknown = 0
    case fileNotFound = 1
    case invalidAction = 2
    case invalidProductIdentifier = 3
    case invalidProductType = 4
    case invalidURL = 5
    case noSubscriptionFound = 6
    case noTransactionFound = 7
    case serviceUnavailable = 8
  }

  public let code: Code
  /// What went wrong and where (the file, product or transaction).
  public let message: String

  public init(_ code: Code, message: String) {
    self.code = code
    self.message = message
  }

  public static var errorDomain: String { "SKTestErrorDomain" }
  public var errorCode: Int { code.rawValue }
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
  public var errorDescription: String? { message }
}
