import AppReceipt
import Foundation
import SQLiteLedger
import SandboxSigning
import StoreEngine
import StoreKit
import StorefrontTestSupport
import XCTest

/// An app attached to a data directory (no `SKTestSession`, issue 25), with this test writing what a
/// storefront TUI writes: its registration, then its answer to the app's sheet.
final class AttachedStoreTests: StoreKitTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("attached-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDown() {
    super.tearDown()
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }

  func testOneFollowerWatchesWhileTheSheetWaitsAndTheStorefrontsAnswerCompletesThePurchase() throws {
    let ledger = try SQLiteLedgerStore(directory: directory)
    // Our parent process stands for the storefront: alive for the whole test, and not us.
    let storefront = AttachedProcess(
      session: ProcessSession().id(of: getppid()), role: .storefront, bundleID: "com.example.storefront", since: Date(),
      showsSheets: true, catalog: try Self.catalogURL.path)
    try ledger.commit([DeviceValues.register(storefront)])
    let environment = [
      "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": "com.example.attached", "HOME": directory.path,
    ]
    let followersBefore = StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followersStarted }
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    // One thread follows the attached store's ledger.
    XCTAssertEqual(StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followersStarted }, followersBefore + 1)
    let wakesBefore = StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followerWakes }
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing"])

    // The sheet waits for the storefront: the app's transaction is purchasing, owned by this process.
    let waiting = try XCTUnwrap(ledger.allTransactions().first { $0.state == .purchasing })
    XCTAssertEqual(waiting.ownerSession, ProcessSession().current().id)
    // Several wakes go by before the answer: still one thread. A storefront shows this sheet, so the
    // follower looks by itself only every quiet interval (5 s); another process's commits wake it sooner.
    let looking = Date().addingTimeInterval(10)
    while StoreKitEnvironment.shared.locked({ StoreKitEnvironment.shared.followerWakes }) < wakesBefore + 3, Date() < looking {
      try ledger.commit([DeviceValues.register(storefront)])
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05))
    }
    XCTAssertGreaterThanOrEqual(StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followerWakes }, wakesBefore + 3)
    XCTAssertEqual(StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followersStarted }, followersBefore + 1)

    try ledger.commit([DeviceValues.answer(waiting.id, .confirm)])
    let deadline = Date().addingTimeInterval(10)
    while !observer.lines.contains("removed \(IDs.coins100)"), Date() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "updated \(IDs.coins100) purchased", "removed \(IDs.coins100)"])
    let stored = try XCTUnwrap(ledger.transactions([waiting.id]).first)
    XCTAssertEqual(stored.state, .purchased)
    XCTAssertTrue(stored.isFinished)
    // The answer was carried out, so it is taken back.
    XCTAssertNil(DeviceValues.answers(in: try ledger.load().deviceValues)[waiting.id])
    XCTAssertEqual(StoreKitEnvironment.shared.locked { StoreKitEnvironment.shared.followersStarted }, followersBefore + 1)
  }

  /// Two apps on one data directory, one after the other: each has its own receipt, at its own
  /// `appStoreReceiptURL`, listing only its own purchases.
  func testEachAttachedAppHasItsOwnReceipt() throws {
    func attach(_ bundleID: String) throws {
      try StoreKitEnvironment.shared.replace(with: .processDefault(environment: [
        "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": bundleID, "HOME": directory.path,
        "STOREKIT_CONFIGURATION": try Self.catalogURL.path, "STOREFRONT_DIALOGS": "off",
      ]))
    }
    func buy(_ product: String) throws {
      observer.lines = []
      SKPaymentQueue.default().add(SKPayment(product: try loadProduct(product)))
      let deadline = Date().addingTimeInterval(10)
      while !observer.lines.contains("removed \(product)"), Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
      }
      XCTAssertTrue(observer.lines.contains("removed \(product)"), "\(observer.lines)")
    }
    func receipt() throws -> (url: URL, contents: AppReceiptContents) {
      XCTAssertTrue(refreshReceipt())
      let url = try XCTUnwrap(receiptURLAsAnAppReadsIt())
      let authority = try SandboxCertificateAuthority.open(
        in: directory.appendingPathComponent("ca", isDirectory: true), validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      return (url, try AppReceiptDecoder(trustedRoots: [authority.root]).decode(der: try Data(contentsOf: url), at: Date()))
    }
    observer.finishes = true
    try attach("com.example.first")
    try buy(IDs.shopping)
    let first = try receipt()
    try attach("com.example.second")
    try buy(IDs.seasonPass)
    let second = try receipt()
    XCTAssertNotEqual(first.url, second.url)
    XCTAssertEqual(first.contents.bundleID, "com.example.first")
    XCTAssertEqual(second.contents.bundleID, "com.example.second")
    XCTAssertEqual(first.contents.inAppPurchases.map(\.productID), [IDs.shopping])
    XCTAssertEqual(second.contents.inAppPurchases.map(\.productID), [IDs.seasonPass], "not the first app's purchase")
  }
}

