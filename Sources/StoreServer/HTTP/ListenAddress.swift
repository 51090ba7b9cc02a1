import Foundation

/// Where the server listens: an IPv4 or IPv6 literal and a port (0 = any free port).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The port `storefront serve` uses when `--listen` is not given.
  public static let defaultPort: UInt16 = 8808
  /// `127.0.0.1:8808`.
  public static let `default` = ListenAddress(host: "127.0.0.1", port: defaultPort)

  /// The numeric address as written (`127.0.0.1`, `::1`).
  public var host: String
  public var port: UInt16

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Parses `ADDR:PORT`, `[IPv6]:PORT`, or `localhost:PORT`; nil for anything else.
  public init?(parsing text: String) {
    let hostPart: Substring
    let portPart: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
      hostPart = text[text.index(after: text.startIndex)..<close]
      portPart = text[text.index(close, offsetBy: 2)...]
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
    }
    guard !portPart.isEmpty, portPart.allSatisfy(\.isASCII), portPart.allSatisfy(\.isNumber), let port = UInt16(portPart) else {
      return nil
    }
    let host = hostPart == "localhost" ? "127.0.0.1" : String(hostPart)
    guard Self.isIPv4(host) || Self.isIPv6(host) else { return nil }
    self.init(host: host, port: port)
  }

  public var isIPv6: Bool { Self.isIPv6(host) }

  /// 127.0.0.0/8 and ::1: only this machine can connect.
  public var isLoopback: Bool {
    if isIPv6 {
      var address = in6_addr()
      return inet_pton(AF_INET6, host, &address) == 1 && withUnsafeBytes(of: &address) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
    }
    return host.split(separator: ".").first == "127"
  }

  /// `127.0.0.1:8808`, `[::1]:8808`.
  public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Calls `body` with the address as a `sockaddr` for `bind`.
  func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      _ = inet_pton(AF_INET6, host, &address.sin6_addr)
      return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    _ = inet_pton(AF_INET, host, &address.sin_addr)
    return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
  }

  private static func isIPv4(_ host: String) -> Bool {
    var address = in_addr()
    return inet_pton(AF_INET, host, &address) == 1
  }

  private static func isIPv6(_ host: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET6, host, &address) == 1
  }
}
