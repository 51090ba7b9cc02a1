import Foundation
import SQLiteLedger
import StoreEngine
import StoreKit
import XCTest

/// B90 in an attached app: iOS 27's `presentOfferCodeRedeemSheet` opens the storefront's Redeem Code
/// sheet through the mailbox, and this test writes what a storefront writes — the code typed, then
/// its answer to the purchase sheet; the call returns the code's transaction.
final class AttachedOfferCodeSheetTests: StoreKitTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("attached-codes-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDown() {
    super.tearDown()
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }

  /// Waits (at most 10 s, for the app's ledger follower) until `condition` holds.
  func eventually(_ what: String, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(10)
    while try !condition() {
      guard Date() < deadline else { return XCTFail("never: \(what)") }
      await Task.yield()
    }
  }

  func testTheStorefrontsSheetAnswersTheCallWithTheCodesTransaction() async throws {
    let ledger = try SQLiteLedgerStore(directory: directory)
    let storefront = AttachedProcess(
      session: ProcessSession().id(of: getppid()), role: .storefront, bundleID: "com.example.storefront", since: Date(),
      showsSheets: true, catalog: try Self.catalogURL.path)
    try ledger.commit([DeviceValues.register(storefront)])
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: [
      "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": "com.example.attached", "HOME": directory.path,
    ]))
    try StoreKitEnvironment.shared.perform(
      .offerCodes(.create("GIFT100", OfferCodeOffer(productID: .init(IDs.coins100), offer: "gift"), limit: 5, expires: nil)))
    let app = ProcessSession().current().id

    let sheet = Task { try await AppStore.presentOfferCodeRedeemSheet() }
    try await eventually("the app opens its code sheet") { DeviceValues.codeSheets(in: try ledger.load().deviceValues)[app] == .waiting }
    // The storefront's user types the code (any case) and the app's engine redeems it.
    try ledger.commit([.setDeviceValue(key: "code-sheet." + app, value: "code:gift100")])
    var purchase: PaymentTransaction.ID?
    try await eventually("the code's purchase waits on its sheet") {
      purchase = try ledger.allTransactions().first { $0.state == .purchasing }?.id
      return purchase != nil
    }
    let waiting = try XCTUnwrap(purchase)
    try ledger.commit([DeviceValues.answer(waiting, .confirm)])

    let result = try await sheet.value
    guard case .verified(let transaction) = result else { return XCTFail("expected a verified transaction, got \(result)") }
    XCTAssertEqual(transaction.id, waiting.rawValue)
    XCTAssertEqual(transaction.productID, IDs.coins100)
    XCTAssertEqual(transaction.offer?.type, .code)
    XCTAssertEqual(transaction.offer?.paymentMode, .oneTime)
    XCTAssertEqual(transaction.price, 0)
    let stored = try XCTUnwrap(OfferCodeBook.code("GIFT100", in: try ledger.load().deviceValues))
    XCTAssertEqual(stored.redemptions, 1)
  }
}
