import Foundation

/// A bearer token that passed every check.
public struct VerifiedToken: Sendable, Equatable {
  public var keyID: String
  public var issuerID: String
  public var bundleID: String
  public var expires: Date
}
