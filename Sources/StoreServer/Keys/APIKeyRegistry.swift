import Foundation

/// The contents of `api-keys.json`: the data directory's issuer id and every key made or imported.
public struct APIKeyRegistry: Codable, Sendable, Equatable {
  /// The issuer id of keys made with `keys create`, one per data directory.
  public var issuerID: String
  public var keys: [APIKey]

  public init(issuerID: String, keys: [APIKey] = []) {
    self.issuerID = issuerID
    self.keys = keys
  }

  /// The key with id `keyID`, revoked or not.
  public func key(_ keyID: String) -> APIKey? { keys.first { $0.keyID == keyID } }
}
