import Foundation

/// A notification URL as App Store Connect takes one: http or https, with a host.
public struct NotificationURL: Sendable, Equatable, CustomStringConvertible {
  /// The URL as given (credentials included, since the receiver may need them).
  public let text: String
  /// The URL with any `user:password@` replaced by `***@`: what is printed.
  public let description: String

  /// Throws ``Invalid`` (its reason printable: no credentials) unless `text` is an http(s) URL with a host.
  public init(validating text: String) throws(Invalid) {
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
      throw Invalid(reason: "'\(Self.redacted(text))' is not a URL")
    }
    guard scheme == "http" || scheme == "https" else {
      throw Invalid(reason: "the notification URL must be http or https, not '\(scheme)'")
    }
    guard let host = components.host, !host.isEmpty else {
      throw Invalid(reason: "the notification URL '\(Self.redacted(text))' has no host")
    }
    self.text = text
    description = Self.redacted(text)
  }

  /// Why a URL was refused.
  public struct Invalid: Error, Equatable {
    public var reason: String
  }

  /// `text` without the credentials between `://` and `@`.
  public static func redacted(_ text: String) -> String {
    guard let schemeEnd = text.range(of: "://") else { return text }
    let rest = text[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
    return String(text[..<schemeEnd.upperBound]) + "***" + String(rest[at...])
  }
}
