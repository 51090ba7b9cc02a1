import AppStoreServerAPI
import XCTest

final class APIRequestTests: XCTestCase {
  func testRepeatedQueryParametersKeepTheirOrder() {
    let request = APIRequest(method: "GET", path: "/inApps/v2/history/1", query: [("productId", "a"), ("productId", "b")])
    XCTAssertEqual(request.query.map(\.value), ["a", "b"])
    XCTAssertNotEqual(request, APIRequest(method: "GET", path: "/inApps/v2/history/1", query: [("productId", "b"), ("productId", "a")]))
  }
}
