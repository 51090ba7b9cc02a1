import XCTest

@testable import StoreServer

final class LibraryTests: XCTestCase {
  func testLibmicrohttpdIsLinked() {
    XCTAssertTrue(StoreServerModule.libraryVersion.first?.isNumber == true, StoreServerModule.libraryVersion)
  }
}
