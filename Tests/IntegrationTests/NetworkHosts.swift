import Foundation
import StorefrontProcessTestSupport

/// Three "machines" on this Linux host: network namespaces (`ip netns`) for a database host and two
/// client hosts A and B, each client joined to the database host by a veth pair of its own, so a
/// client's link can be cut (`ip link set … down`) while the other keeps working.
///
/// Names carry this process's id; namespaces of test processes that died without cleaning up are
/// removed on the next start. ``remove()`` (also on deinit) deletes everything it made.
final class NetworkHosts {
  /// A client host.
  enum Host: String, CaseIterable {
    case a, b

    /// The third octet of the host's link subnet.
    var subnet: Int { self == .a ? 1 : 2 }
  }

  /// Why these tests can't run here, or nil: they need root and a working `ip netns`.
  static func unavailableReason() -> String? {
    guard getuid() == 0 else { return "network-namespace tests need root (ip netns); run as root, as CI does" }
    guard FileManager.default.isExecutableFile(atPath: ip) else { return "no \(ip) (Debian: iproute2; run scripts/setup)" }
    guard let probe = try? ChildProcess.run(ip, ["netns", "list"], timeout: 10), probe.status == 0 else {
      return "`ip netns list` failed: network namespaces are unavailable in this container"
    }
    return nil
  }

  /// An `ip` command that failed, with its message.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static let ip = "/usr/sbin/ip"
  private static let prefix = "sfnet"
  let tag: String
  var database: String { "\(Self.prefix)\(tag)db" }
  private var made: [String] = []

  /// Creates the namespaces and links; on failure removes what it made and throws.
  init() throws {
    tag = String(getpid())
    Self.removeStale()
    do {
      for namespace in [database] + Host.allCases.map(namespace) {
        try Self.ip(["netns", "add", namespace])
        made.append(namespace)
        try Self.ip(["-n", namespace, "link", "set", "lo", "up"])
      }
      for host in Host.allCases {
        let (server, client) = (interface(host, end: 0), interface(host, end: 1))
        try Self.ip(["link", "add", server, "type", "veth", "peer", "name", client])
        try Self.ip(["link", "set", server, "netns", database])
        try Self.ip(["link", "set", client, "netns", namespace(host)])
        try Self.ip(["-n", database, "addr", "add", serverAddress(host) + "/24", "dev", server])
        try Self.ip(["-n", namespace(host), "addr", "add", "10.231.\(host.subnet).2/24", "dev", client])
        try Self.ip(["-n", database, "link", "set", server, "up"])
        try Self.ip(["-n", namespace(host), "link", "set", client, "up"])
      }
    } catch {
      remove()
      throw error
    }
  }

  deinit { remove() }

  func namespace(_ host: Host) -> String { "\(Self.prefix)\(tag)\(host.rawValue)" }
  private func interface(_ host: Host, end: Int) -> String { "sf\(tag)\(host.rawValue)\(end)" }

  /// The database host's address on `host`'s link.
  func serverAddress(_ host: Host) -> String { "10.231.\(host.subnet).1" }

  /// Every address the database host listens on.
  var serverAddresses: String { Host.allCases.map(serverAddress).joined(separator: ",") }

  /// Cuts `host`'s link (its end goes down: nothing passes, neither side is told by the other).
  func cut(_ host: Host) throws { try Self.ip(["-n", namespace(host), "link", "set", interface(host, end: 1), "down"]) }

  /// Brings `host`'s link back.
  func restore(_ host: Host) throws { try Self.ip(["-n", namespace(host), "link", "set", interface(host, end: 1), "up"]) }

  /// `executable arguments` as run inside `namespace`.
  func command(in namespace: String, _ executable: String, _ arguments: [String]) -> (String, [String]) {
    (Self.ip, ["netns", "exec", namespace, executable] + arguments)
  }

  /// Deletes the namespaces (their veth ends go with them); safe to call twice.
  func remove() {
    for namespace in made.reversed() { _ = try? ChildProcess.run(Self.ip, ["netns", "delete", namespace], timeout: 30) }
    made.removeAll()
  }

  /// Namespaces left by test processes that no longer run (killed before their cleanup).
  private static func removeStale() {
    guard let list = try? ChildProcess.run(ip, ["netns", "list"], timeout: 10) else { return }
    for line in list.stdout.split(separator: "\n") {
      guard let name = line.split(separator: " ").first.map(String.init), name.hasPrefix(prefix) else { continue }
      let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
      guard let pid = Int32(digits), kill(pid, 0) != 0, errno == ESRCH else { continue }
      _ = try? ChildProcess.run(ip, ["netns", "delete", name], timeout: 30)
    }
  }

  @discardableResult
  private static func ip(_ arguments: [String]) throws -> ProcessResult {
    let result = try ChildProcess.run(ip, arguments, timeout: 30)
    guard result.status == 0 else {
      throw Failure(description: "ip \(arguments.joined(separator: " ")) failed: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
    return result
  }
}
