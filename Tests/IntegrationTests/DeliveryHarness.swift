import Foundation
import StorefrontProcessTestSupport
import XCTest

/// What the notification delivery tests share: serve on port 0, scenarios, the outbox listing, payloads.
enum DeliveryHarness {
  /// Serve on port 0 with `arguments`; its address once listening.
  static func startServe(_ arguments: [String], data: String, in directory: TemporaryDirectory) throws -> (RunningProcess, String) {
    let fifo = directory.path("ready-\(UUID().uuidString.prefix(8))")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data] + arguments, in: directory)
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    XCTAssertEqual(poll(&poller, 1, 60_000), 1, "serve did not write its ready file")
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    return (serve, String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static func stop(_ serve: RunningProcess) throws {
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)
  }

  static func run(_ script: String, _ arguments: [String] = [], data: String, in directory: TemporaryDirectory) throws {
    let file = directory.path("s-\(UUID().uuidString.prefix(8)).scenario")
    try Data(script.utf8).write(to: URL(fileURLWithPath: file))
    let result = try StorefrontBinary.run(["run", file, "--data-dir", data] + arguments, in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
  }

  static func outbox(_ data: String, in directory: TemporaryDirectory) throws -> [[String: Any]] {
    let result = try StorefrontBinary.run(["notifications", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.stderr)
    return try result.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  /// Waits (bounded) until no entry of the outbox is pending with no attempt, or `condition` holds.
  static func waitForOutbox(
    _ data: String, in directory: TemporaryDirectory, until condition: ([[String: Any]]) -> Bool
  ) throws -> [[String: Any]] {
    let deadline = Date().addingTimeInterval(60)
    var entries = try outbox(data, in: directory)
    while !condition(entries), Date() < deadline {
      entries = try outbox(data, in: directory)
    }
    XCTAssertTrue(condition(entries), "the outbox did not get there: \(entries)")
    return entries
  }

  static func payload(_ jws: String?) -> [String: Any] {
    guard let parts = jws?.split(separator: "."), parts.count == 3 else { return [:] }
    var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text) else { return [:] }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  static func signedPayload(_ request: WebhookReceiver.Request) -> String {
    let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
    return body?["signedPayload"] as? String ?? ""
  }

  static func kind(_ type: Any?, _ subtype: Any?) -> String {
    [type as? String, subtype as? String].compactMap { $0 }.joined(separator: "/")
  }

}
