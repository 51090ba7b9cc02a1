import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class ConsumptionTests: XCTestCase {
  private let valid = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":50000,"refundPreference":"GRANT_FULL"}"#

  private func put(_ fixture: APIFixture, _ id: String, _ body: String) -> APIResponse {
    fixture.send("PUT", "/inApps/v2/transactions/consumption/\(id)", body: body)
  }

  func testAValidRequestIsAccepted() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let response = put(fixture, bought.id.description, valid)
    XCTAssertEqual(response.status, 202)
    XCTAssertTrue(response.body.isEmpty)
    let minimal = #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"UNDELIVERED_OTHER"}"#
    XCTAssertEqual(put(fixture, bought.id.description, minimal).status, 202)
  }

  func testEachInvalidMember() throws {
    let fixture = try APIFixture()
    let coins = try fixture.buy(FixtureCatalog.coins)[0].id.description
    let monthly = try fixture.buy(FixtureCatalog.monthly)[0].id.description
    let cases: [(String, String, Int64)] = [
      (coins, "not json", 4_000_000),
      (coins, "[1]", 4_000_000),
      (coins, #"{"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, 4_000_035),
      (coins, #"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, 4_000_035),
      (coins, #"{"customerConsented":1,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, 4_000_035),
      (coins, #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#, 4_000_041),
      (coins, #"{"customerConsented":true,"sampleContentProvided":"no","deliveryStatus":"DELIVERED"}"#, 4_000_041),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false}"#, 4_000_036),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"LOST"}"#, 4_000_036),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"MAYBE"}"#, 4_000_000),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":100001}"#, 4_000_000),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":-1}"#, 4_000_000),
      (coins, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"UNDELIVERED_OTHER","consumptionPercentage":10}"#, 4_000_000),
      (monthly, #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":10,"refundPreference":"GRANT_PRORATED"}"#, 4_000_000),
      ("abc", valid, 4_000_006),
      ("", valid, 4_000_006),
      ("31", valid, 4_040_010),
      (SignedPayloads.appTransactionID(account: "tester", bundleID: fixture.bundleID), valid, 4_000_048),
    ]
    for (id, body, code) in cases {
      assertAPIError(put(fixture, id, body), code)
    }
  }

  func testOtherMethodsAreNotAllowed() throws {
    let fixture = try APIFixture()
    XCTAssertEqual(fixture.get("/inApps/v2/transactions/consumption/1").status, 405)
  }
}

/// Send Consumption Information V1 (deprecated): integer codes, each checked with its own error.
final class ConsumptionV1Tests: XCTestCase {
  private let fields: [String: Any] = [
    "accountTenure": 1, "appAccountToken": "", "consumptionStatus": 3, "customerConsented": true, "deliveryStatus": 0,
    "lifetimeDollarsPurchased": 2, "lifetimeDollarsRefunded": 0, "platform": 1, "playTime": 4, "sampleContentProvided": false,
    "userStatus": 1, "refundPreference": 2,
  ]

  private func body(_ changes: [String: Any?] = [:]) throws -> String {
    var object = fields
    for (key, value) in changes { object[key] = value }
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  func testAValidReportIsStoredAsTheV2ReportItMeans() throws {
    let store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    let bought = try store.buy(FixtureCatalog.coins)
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      perform: { command throws(EngineError) in try store.queue.perform(command) })
    let response = api.handle(APIRequest(method: "PUT", path: "/inApps/v1/transactions/consumption/\(bought.id)", body: Data(try body().utf8)))
    XCTAssertEqual(response.status, 202, String(decoding: response.body, as: UTF8.self))
    XCTAssertEqual(
      try store.ledger.transactions([bought.id]).first?.consumption,
      ConsumptionInformation(
        customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED", consumptionPercentage: 100_000,
        refundPreference: "DECLINE", receivedDate: TestStore.start))
  }

  func testEachInvalidFieldHasItsCode() throws {
    let fixture = try APIFixture()
    let coins = try fixture.buy(FixtureCatalog.coins)[0].id.description
    let cases: [(String, Any?, Int64)] = [
      ("accountTenure", 8, 4_000_032), ("appAccountToken", "nope", 4_000_033), ("appAccountToken", nil, 4_000_033),
      ("consumptionStatus", 4, 4_000_034), ("customerConsented", false, 4_000_035), ("deliveryStatus", 6, 4_000_036),
      ("lifetimeDollarsPurchased", -1, 4_000_037), ("lifetimeDollarsRefunded", 8, 4_000_038), ("platform", 3, 4_000_039),
      ("playTime", "1", 4_000_040), ("sampleContentProvided", 1, 4_000_041), ("userStatus", 5, 4_000_042),
      ("refundPreference", 4, 4_000_000),
    ]
    for (field, value, code) in cases {
      let response = fixture.send("PUT", "/inApps/v1/transactions/consumption/\(coins)", body: try body([field: value]))
      assertAPIError(response, code)
    }
    assertAPIError(fixture.send("PUT", "/inApps/v1/transactions/consumption/\(coins)", body: "{"), 4_000_000)
    assertAPIError(fixture.send("PUT", "/inApps/v1/transactions/consumption/x", body: try body()), 4_000_006)
    assertAPIError(fixture.send("PUT", "/inApps/v1/transactions/consumption/5", body: try body()), 4_040_010)
  }
}

final class ConsumptionStorageTests: XCTestCase {
  func testTheInformationIsStoredOnTheTransactionAndItsJWSIsUnchanged() throws {
    let store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    let bought = try store.buy(FixtureCatalog.coins)
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      perform: { command throws(EngineError) in try store.queue.perform(command) })
    let body = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":25000,"refundPreference":"DECLINE"}"#
    let response = api.handle(APIRequest(method: "PUT", path: "/inApps/v2/transactions/consumption/\(bought.id)", body: Data(body.utf8)))
    XCTAssertEqual(response.status, 202)
    let stored = try XCTUnwrap(try store.ledger.transactions([bought.id]).first)
    XCTAssertEqual(
      stored.consumption,
      ConsumptionInformation(
        customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED", consumptionPercentage: 25_000,
        refundPreference: "DECLINE", receivedDate: TestStore.start))
    XCTAssertEqual(stored.signedTransaction, bought.signedTransaction)
  }
}
