import Foundation

/// A request as libmicrohttpd handed it over: before authentication, with its headers.
public struct HTTPRequest: Sendable, Equatable {
  public var method: String
  /// The path without the query string.
  public var path: String
  /// Query parameters in the order they came, repeated names kept; a name without `=` has an empty value.
  public var query: [QueryItem]
  /// Header values by lower-cased name (the last one wins when a name repeats).
  public var headers: [String: String]
  public var body: Data

  public init(method: String, path: String, query: [QueryItem] = [], headers: [String: String] = [:], body: Data = Data()) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// The value of header `name`, compared case-insensitively.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One `name=value` pair of a query string.
public struct QueryItem: Sendable, Equatable {
  public var name: String
  public var value: String

  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
