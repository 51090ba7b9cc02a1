import AppStoreServerAPI
import Foundation
import XCTest

/// `Docs/openapi.json` describes exactly what the router serves: every path and method in it reaches
/// the endpoint its `operationId` names, and every endpoint has its path, so the two cannot drift.
final class OpenAPIDocumentTests: XCTestCase {
  static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Docs/openapi.json")

  /// Described (reference §2.1 rows 15–17) before the router serves them. One that routes must leave
  /// this list, so the list cannot outlive the work.
  static let describedBeforeServed: Set<String> = []

  /// Served by `storefront serve` beside the API, not by its router: the legacy `verifyReceipt`
  /// (no bearer token, HTTP 200 for every outcome).
  static let servedBesideTheAPI: [String: String] = ["verifyReceipt": "/verifyReceipt"]

  private struct Operation {
    var method: String
    var template: String
    var path: String
    var operationID: String
  }

  /// Every operation, its path parameters replaced by their examples.
  private func operations() throws -> [Operation] {
    let data = try Data(contentsOf: Self.document)
    let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let paths = try XCTUnwrap(root["paths"] as? [String: [String: Any]])
    var found: [Operation] = []
    for (template, item) in paths {
      for (method, value) in item {
        let operation = try XCTUnwrap(value as? [String: Any], "\(method) \(template)")
        var path = template
        for parameter in operation["parameters"] as? [[String: Any]] ?? [] where parameter["in"] as? String == "path" {
          let name = try XCTUnwrap(parameter["name"] as? String)
          let example = try XCTUnwrap(parameter["example"] as? String, "\(template): path parameter \(name) needs an example")
          path = path.replacingOccurrences(of: "{\(name)}", with: example)
        }
        XCTAssertFalse(path.contains("{"), "\(template): a path parameter is not described")
        let id = try XCTUnwrap(operation["operationId"] as? String, "\(method) \(template)")
        found.append(Operation(method: method.uppercased(), template: template, path: path, operationID: id))
      }
    }
    return found
  }

  func testEveryDescribedOperationReachesTheEndpointItNames() throws {
    let operations = try operations()
    XCTAssertEqual(Set(operations.map(\.operationID)).count, operations.count, "operationIds are unique")
    for operation in operations {
      if let path = Self.servedBesideTheAPI[operation.operationID] {
        XCTAssertEqual(operation.template, path)
        XCTAssertNil(APIEndpoint(method: operation.method, path: operation.path), "\(operation.operationID) is not the router's")
        continue
      }
      let reached = APIEndpoint(method: operation.method, path: operation.path)
      if Self.describedBeforeServed.contains(operation.operationID) {
        XCTAssertNil(reached, "\(operation.operationID) is served now: remove it from describedBeforeServed")
        continue
      }
      XCTAssertEqual(reached?.rawValue, operation.operationID, "\(operation.method) \(operation.template)")
      // Another method on the same path is not that endpoint.
      let other = operation.method == "GET" ? "DELETE" : "GET"
      XCTAssertNotEqual(APIEndpoint(method: other, path: operation.path), reached, "\(other) \(operation.template)")
    }
  }

  func testEveryEndpointIsDescribed() throws {
    let described = Set(try operations().map(\.operationID))
    for endpoint in APIEndpoint.allCases {
      XCTAssertTrue(described.contains(endpoint.rawValue), "\(endpoint) has no path in Docs/openapi.json")
    }
    // And nothing else: no operation names an endpoint that does not exist.
    XCTAssertEqual(
      described, Set(APIEndpoint.allCases.map(\.rawValue)).union(Self.describedBeforeServed).union(Self.servedBesideTheAPI.keys))
  }

  func testEveryOperationAnswersApplesErrorsAndThePlainText401() throws {
    let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.document)) as? [String: Any])
    let paths = try XCTUnwrap(root["paths"] as? [String: [String: [String: Any]]])
    for (template, item) in paths {
      for (method, operation) in item {
        let responses = try XCTUnwrap(operation["responses"] as? [String: Any], "\(method) \(template)")
        if let id = operation["operationId"] as? String, Self.servedBesideTheAPI[id] != nil {
          XCTAssertEqual(Array(responses.keys), ["200"], "\(id) answers 200 for every outcome")
          XCTAssertEqual((operation["security"] as? [Any])?.count, 0, "\(id) takes no token")
          continue
        }
        for status in ["401", "429", "500"] {
          XCTAssertNotNil(responses[status], "\(method) \(template) lacks \(status)")
        }
        XCTAssertEqual((responses["401"] as? [String: String])?["$ref"], "#/components/responses/Unauthenticated")
      }
    }
    let schemas = try XCTUnwrap((root["components"] as? [String: Any])?["schemas"] as? [String: Any])
    let error = try XCTUnwrap(schemas["ErrorPayload"] as? [String: Any])
    XCTAssertEqual(error["required"] as? [String], ["errorCode", "errorMessage"])
    XCTAssertEqual(error["additionalProperties"] as? Bool, false)
  }
}
