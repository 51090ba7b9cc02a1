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
