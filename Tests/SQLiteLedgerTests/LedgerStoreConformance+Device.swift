import Foundation
import StoreEngine
import XCTest

extension LedgerStoreConformance {
  /// Device values (attached processes, sheet answers) are stored by key, read back at a load, and
  /// removed by nil.
  func deviceValuesRoundTrip() throws {
    let store = try harness.makeStore()
    let app = AttachedProcess(
      session: "app-1", role: .app, bundleID: "com.example.app", pid: 4242, host: "elsewhere",
      since: Date(timeIntervalSince1970: 1_800_000_000), showsSheets: false)
    try store.commit([DeviceValues.register(app), DeviceValues.answer(PaymentTransaction.ID(7), .confirm)])
    let loaded = try store.load().deviceValues
    XCTAssertEqual(DeviceValues.processes(in: loaded), [app])
    XCTAssertEqual(DeviceValues.answers(in: loaded), [PaymentTransaction.ID(7): .confirm])
    try store.commit([DeviceValues.unregister(session: "app-1"), DeviceValues.answer(PaymentTransaction.ID(7), nil)])
    XCTAssertEqual(try store.load().deviceValues, [:])
  }
}
