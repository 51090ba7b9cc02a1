import AppStoreServerAPI
import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import StoreEngine
import XCTest

@testable import StoreServer

/// HTTPS through libmicrohttpd's GnuTLS with the sandbox CA's server certificate, checked by real
/// clients (curl, `openssl s_client`) that trust only our root and reach the server by Apple's host name.
final class HTTPServerTLSTests: XCTestCase {
  private var scratch: URL?

  override func tearDown() {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
    super.tearDown()
  }

  private func identity() throws -> TLSServerIdentity {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
    scratch = directory
    let ca = try SandboxCertificateAuthority.open(
      in: directory.appendingPathComponent("ca"), validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
    return try ca.tlsServerIdentity(now: Date())
  }

  private func start(_ identity: TLSServerIdentity) throws -> HTTPServer {
    let configuration = HTTPServerConfiguration(
      address: ListenAddress(host: "127.0.0.1", port: 0),
      tls: TLSCredentials(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM))
    XCTAssertEqual(configuration.scheme, "https")
    return try HTTPServer(configuration: configuration) { request in
      HTTPReply(APIResponse(status: 200, body: Data("{\"path\":\"\(request.path)\"}".utf8)))
    }
  }

  func testCurlReachesTheServerByApplesHostNamesTrustingOnlyOurRoot() throws {
    let identity = try identity()
    let server = try start(identity)
    let port = server.boundAddress.port
    for host in TLSServerIdentity.hostNames + ["127.0.0.1"] {
      let target = host == "127.0.0.1" ? host : "\(host):\(port):127.0.0.1"
      let result = try ChildProcess.run(
        "/usr/bin/env",
        ["curl", "--silent", "--show-error", "--max-time", "20", "--cacert", identity.rootCertificateFile.path]
          + (host == "127.0.0.1" ? [] : ["--resolve", target]) + ["https://\(host):\(port)/inApps/v1/transactions/1"],
        timeout: 30)
      XCTAssertEqual(result.status, 0, "\(host): \(result.stderr)")
      XCTAssertEqual(result.stdout, #"{"path":"/inApps/v1/transactions/1"}"#, host)
    }
    // Trusting another certificate (the signing intermediate, not the issuer), curl refuses it.
    let other = identity.rootCertificateFile.deletingLastPathComponent().appendingPathComponent("intermediate-ca.pem")
    let untrusted = try ChildProcess.run(
      "/usr/bin/env",
      ["curl", "--silent", "--max-time", "20", "--cacert", other.path, "--resolve", "api.storekit.apple.com:\(port):127.0.0.1", "https://api.storekit.apple.com:\(port)/"],
      timeout: 30)
    XCTAssertEqual(untrusted.status, 60, untrusted.stderr)  // CURLE_PEER_FAILED_VERIFICATION
  }

  func testOpenSSLVerifiesTheServedChainWithTheRoot() throws {
    let identity = try identity()
    let server = try start(identity)
    let result = try ChildProcess.run(
      "/usr/bin/env",
      ["openssl", "s_client", "-connect", "127.0.0.1:\(server.boundAddress.port)", "-servername", "api.storekit-sandbox.apple.com",
       "-verify_hostname", "api.storekit-sandbox.apple.com", "-verify_return_error", "-CAfile", identity.rootCertificateFile.path],
      timeout: 30)
    XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    XCTAssertTrue(result.stdout.contains("Verify return code: 0 (ok)"), result.stdout)
  }

  func testPlainHTTPToTheTLSPortNeverReachesTheHandler() throws {
    let identity = try identity()
    let reached = Locked(false)
    let server = try HTTPServer(
      configuration: HTTPServerConfiguration(
        address: ListenAddress(host: "127.0.0.1", port: 0), connectionTimeout: 2,
        tls: TLSCredentials(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM))
    ) { _ in
      reached.withLock { $0 = true }
      return HTTPReply(APIResponse(status: 200))
    }
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertThrowsError(try connection.receive(timeout: 10))
    XCTAssertFalse(reached.withLock { $0 })
  }

  func testAKeyThatIsNotPEMFailsToStartAndSaysTLS() throws {
    let identity = try identity()
    let configuration = HTTPServerConfiguration(
      address: ListenAddress(host: "127.0.0.1", port: 0), tls: TLSCredentials(certificatePEM: identity.certificatePEM, keyPEM: Data("junk".utf8)))
    XCTAssertThrowsError(try HTTPServer(configuration: configuration) { _ in HTTPReply(APIResponse(status: 200)) }) { error in
      XCTAssertEqual(error as? HTTPServerError, .cannotStartTLS(configuration.address))
    }
  }
}
