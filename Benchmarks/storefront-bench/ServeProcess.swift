import Foundation
import SandboxSigning
import StorefrontProcessTestSupport

/// A real `storefront serve --listen 127.0.0.1:0` on a data directory, with an API key made by
/// `storefront keys create` and a bearer token of Apple's longest lifetime (60 minutes) signed with it.
final class ServeProcess {
  let process: RunningProcess
  let port: UInt16
  /// `Authorization: Bearer …` for every request.
  let authorization: String

  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
  }

  /// Makes a key in `dataDirectory`, starts serve on it and waits (≤ 60 s) for its ready file.
  init(binary: String, dataDirectory: URL, scratch: URL) throws {
    let environment = StorefrontBinary.isolatedEnvironment(home: scratch)
    let created = try ChildProcess.run(
      binary, ["keys", "create", "--json", "--data-dir", dataDirectory.path], environment: environment, timeout: 60)
    guard created.status == 0, let key = try? JSONDecoder().decode(CreatedKey.self, from: created.stdoutData) else {
      throw BenchError.failed("storefront keys create failed: \(created.summary)")
    }
    let privateKey = try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: key.privateKeyFile)))
    let now = Date().timeIntervalSince1970.rounded(.down)
    let token = try TestToken(keyID: key.keyId, issuerID: key.issuerId, expires: now + 3_540, issued: now)
      .signed(by: privateKey.signES256)
    authorization = "Bearer " + token

    let fifo = scratch.appendingPathComponent("ready-\(UUID().uuidString)").path
    guard mkfifo(fifo, 0o600) == 0 else { throw BenchError.failed("mkfifo \(fifo): \(errno)") }
    defer { unlink(fifo) }
    process = try ChildProcess.start(
      binary, ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", dataDirectory.path],
      environment: environment)
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 128)
    guard descriptor >= 0, poll(&poller, 1, 60_000) == 1 else {
      kill(process.processIdentifier, SIGKILL)
      _ = try? process.wait(timeout: 10)
      throw BenchError.failed("storefront serve did not write its ready file within 60 s")
    }
    let count = read(descriptor, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = text.split(separator: ":").last.flatMap({ UInt16($0) }) else {
      throw BenchError.failed("storefront serve wrote '\(text)' to its ready file")
    }
    self.port = port
  }

  /// A GET with the token, ready to send on a keep-alive connection.
  func get(_ path: String) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: \(authorization)\r\nAccept: application/json\r\n\r\n"
  }

  /// Peak resident memory so far (`VmHWM` in `/proc/PID/status`), in MB.
  func peakRSSMegabytes() throws -> Double {
    let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { throw BenchError.failed("no VmHWM for serve (pid \(process.processIdentifier))") }
    return kilobytes / 1024
  }

  /// SIGTERM, then waits (≤ 30 s) for exit 0.
  func stop() throws {
    kill(process.processIdentifier, SIGTERM)
    let result = try process.wait(timeout: 30)
    guard result.status == 0 else { throw BenchError.failed("storefront serve exited \(result.summary)") }
  }
}
