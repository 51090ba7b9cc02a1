import XCTest

@testable import StoreServer

final class ListenAddressTests: XCTestCase {
  func testParsesAddressesAndPorts() {
    XCTAssertEqual(ListenAddress(parsing: "127.0.0.1:0"), ListenAddress(host: "127.0.0.1", port: 0))
    XCTAssertEqual(ListenAddress(parsing: "0.0.0.0:8808"), ListenAddress(host: "0.0.0.0", port: 8808))
    XCTAssertEqual(ListenAddress(parsing: "[::1]:9000"), ListenAddress(host: "::1", port: 9000))
    XCTAssertEqual(ListenAddress(parsing: "localhost:80"), ListenAddress(host: "127.0.0.1", port: 80))
  }

  func testRejectsWhatIsNotAnAddressAndPort() {
    for text in ["127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "example.com:80", "[::1]9000", ":80", "1.2.3:80"] {
      XCTAssertNil(ListenAddress(parsing: text), text)
    }
  }

  func testLoopbackIsOnlyThisMachine() {
    XCTAssertTrue(ListenAddress(host: "127.0.0.1", port: 1).isLoopback)
    XCTAssertTrue(ListenAddress(host: "127.1.2.3", port: 1).isLoopback)
    XCTAssertTrue(ListenAddress(host: "::1", port: 1).isLoopback)
    XCTAssertFalse(ListenAddress(host: "0.0.0.0", port: 1).isLoopback)
    XCTAssertFalse(ListenAddress(host: "::", port: 1).isLoopback)
    XCTAssertFalse(ListenAddress(host: "192.168.1.2", port: 1).isLoopback)
  }

  func testDescriptionBracketsIPv6() {
    XCTAssertEqual(ListenAddress(host: "::1", port: 8808).description, "[::1]:8808")
    XCTAssertEqual(ListenAddress.default.description, "127.0.0.1:8808")
  }
}
