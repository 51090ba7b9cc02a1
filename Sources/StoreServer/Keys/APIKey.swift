import Foundation

/// An In-App Purchase API key as the server knows it: the public half only.
public struct APIKey: Codable, Sendable, Equatable {
  /// Ten upper-case letters and digits, App Store Connect's form (`2X9R4HXF34`).
  public var keyID: String
  public var name: String
  /// The issuer id (a UUID) tokens signed with this key must carry in `iss`.
  public var issuerID: String
  /// PEM SubjectPublicKeyInfo.
  public var publicKeyPEM: String
  public var created: Date
  /// Set by `keys revoke`: tokens signed with the key are refused from then on.
  public var revoked: Date?

  public init(keyID: String, name: String, issuerID: String, publicKeyPEM: String, created: Date, revoked: Date? = nil) {
    self.keyID = keyID
    self.name = name
    self.issuerID = issuerID
    self.publicKeyPEM = publicKeyPEM
    self.created = created
    self.revoked = revoked
  }

  public var isRevoked: Bool { revoked != nil }
}
