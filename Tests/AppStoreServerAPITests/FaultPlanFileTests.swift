import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// The fault plan another process writes into the data directory (`server-faults.json`).
final class FaultPlanFileTests: XCTestCase {
  private func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fault-plan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }

  func testTheServerCountsAFileFaultDownAndTheFileGoesWhenUsedUp() throws {
    let file = FaultPlanFile(directory: try directory())
    XCTAssertNil(file.take(for: .getTransactionInfo), "no file, no fault")
    try file.update { $0.faults[.getTransactionInfo] = .init(answer: .rateLimitExceeded, delay: .milliseconds(250), remaining: 2) }
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
    XCTAssertEqual(file.read().faults[.getTransactionInfo]?.delay, .milliseconds(250))
    XCTAssertNil(file.take(for: .getAllSubscriptionStatuses))
    XCTAssertEqual(file.take(for: .getTransactionInfo)?.answer, .rateLimitExceeded)
    XCTAssertEqual(file.read().faults[.getTransactionInfo]?.remaining, 1)
    XCTAssertEqual(file.take(for: .getTransactionInfo)?.answer, .rateLimitExceeded)
    XCTAssertNil(file.take(for: .getTransactionInfo))
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
  }

  func testAnAPIWithTheFileAnswersItsFault() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let folder = try directory()
    let file = FaultPlanFile(directory: folder)
    try file.update { $0.everyEndpoint = .init(answer: .generalInternalRetryable, remaining: 1) }
    let api = AppStoreServerAPI(
      ledger: fixture.store.ledger, environment: .sandbox, bundleID: fixture.bundleID, now: { TestStore.start }, faultFile: file)
    assertAPIError(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)")), 5_000_001)
    XCTAssertEqual(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)")).status, 200)
  }

  func testAnUnreadableFileIsNoFault() throws {
    let folder = try directory()
    let file = FaultPlanFile(directory: folder)
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: file.path))
    XCTAssertNil(file.take(for: .getTransactionInfo))
    try file.update { $0.faults[.getRefundHistory] = .init(answer: .generalInternal) }
    XCTAssertEqual(file.read(), FaultPlan(faults: [.getRefundHistory: .init(answer: .generalInternal)]), "a damaged file is replaced")
  }
}
