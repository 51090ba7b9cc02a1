import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// A data directory with an API key, and `storefront serve` on port 0 of 127.0.0.1 over it.
struct ServeFixture {
  struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
  }

  let scratch: URL
  let data: URL
  let key: CreatedKey
  let privateKey: PrivateKey

  init(_ test: XCTestCase) throws {
    scratch = try Scratch.directory(test, "serve")
    data = scratch.appendingPathComponent("data")
    (key, privateKey) = try Self.createKey(data)
  }

  static func createKey(_ dataDirectory: URL) throws -> (CreatedKey, PrivateKey) {
    let result = try StorefrontProcess.run(["keys", "create", "--json", "--data-dir", dataDirectory.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let created = try JSONDecoder().decode(CreatedKey.self, from: result.stdoutData)
    return (created, try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: created.privateKeyFile))))
  }

  /// A good `Authorization` value for the fixture's key, valid for five minutes.
  func authorization() throws -> String {
    let token = TestToken(keyID: key.keyId, issuerID: key.issuerId, expires: Date().timeIntervalSince1970 + 300)
    return "Bearer " + (try token.signed(by: privateKey.signES256))
  }

  /// `storefront serve --listen 127.0.0.1:0` (with `--json` unless `json` is false) plus `options`, and the port it reports.
  func start(_ options: [String] = [], json: Bool = true) throws -> (RunningProcess, UInt16) {
    let fifo = scratch.appendingPathComponent("ready-\(UUID().uuidString.prefix(8))").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontProcess.binary.get().start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data.path] + (json ? ["--json"] : []) + options)
    return (serve, try Self.port(fromFIFO: fifo))
  }

  /// SIGTERM, then the result (which must be exit 0, not a signal).
  static func stop(_ serve: RunningProcess) throws -> ProcessResult {
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertFalse(result.signalled)
    return result
  }

  private static func port(fromFIFO fifo: String) throws -> UInt16 {
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard descriptor >= 0, poll(&poller, 1, 60_000) == 1 else { throw Failure("serve did not write its ready file") }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = text.split(separator: ":").last.flatMap({ UInt16($0) }) else { throw Failure("bad ready file '\(text)'") }
    return port
  }
}
