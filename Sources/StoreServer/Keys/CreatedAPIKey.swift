import Foundation

/// What `keys create` made: the registered key and where its private half was written.
public struct CreatedAPIKey: Sendable, Equatable {
  public var key: APIKey
  public var privateKeyFile: URL
}
