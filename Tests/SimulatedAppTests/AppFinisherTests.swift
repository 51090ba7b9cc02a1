import Foundation
import SimulatedApp
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Which store events make the simulated app finish or ask its server, and what each answer does.
final class AppFinisherTests: XCTestCase {
  private let url = "http://127.0.0.1:9/verify"

  private func transaction(_ state: TransactionState, id: UInt64 = 1_000_000_001, finished: Bool = false) throws -> PaymentTransaction {
    let store = try TestStore()
    var transaction = try store.buy(FixtureCatalog.coins)
    transaction.id = PaymentTransaction.ID(id)
    transaction.state = state
    transaction.isFinished = finished
    return transaction
  }

  private func answer(_ request: AppServerRequest, status: Int?, error: String? = nil) -> AppServerAnswer {
    AppServerAnswer(request: request, status: status, milliseconds: 3, error: error)
  }

  func testManuallyNeverActs() throws {
    var finisher = AppFinisher(mode: .manually)
    for state in TransactionState.allCases {
      XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(state)])), [], "\(state)")
    }
  }

  func testAtOnceFinishesPurchasedRestoredAndFailedOnly() throws {
    var finisher = AppFinisher(mode: .atOnce)
    for state in [TransactionState.purchased, .restored, .failed] {
      XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(state)])), [.finish(PaymentTransaction.ID(1_000_000_001))], "\(state)")
    }
    XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(.purchasing), try transaction(.deferred)])), [])
    XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(.purchased, finished: true)])), [], "already finished")
    XCTAssertEqual(finisher.actions(for: .transactionsRemoved([try transaction(.purchased)])), [], "only updatedTransactions counts")
  }

  func testAfterServerPostsPurchasesAndFinishesRestoresAtOnce() throws {
    var finisher = AppFinisher(mode: .afterServer(url: url))
    let purchased = try transaction(.purchased)
    let actions = finisher.actions(for: .transactionsUpdated([purchased]))
    XCTAssertEqual(actions, [.post(AppServerRequest(transaction: purchased, url: url))])
    XCTAssertEqual(finisher.awaiting, [purchased.id])
    // A redelivery while the call is out does not post twice.
    XCTAssertEqual(finisher.actions(for: .transactionsUpdated([purchased])), [])
    XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(.restored, id: 7)])), [.finish(PaymentTransaction.ID(7))])
    XCTAssertEqual(finisher.actions(for: .transactionsUpdated([try transaction(.failed, id: 8)])), [.finish(PaymentTransaction.ID(8))])
  }

  func testOnlyA2xxAnswerFinishes() throws {
    let purchased = try transaction(.purchased)
    let request = AppServerRequest(transaction: purchased, url: url)
    let cases: [(AppServerAnswer, Bool)] = [
      (answer(request, status: 200), true),
      (answer(request, status: 204), true),
      (answer(request, status: 500), false),
      (answer(request, status: 302), false),
      (answer(request, status: 404), false),
      (answer(request, status: nil, error: "Timeout was reached"), false),
      (answer(request, status: nil, error: "Couldn't connect to server"), false),
    ]
    for (answer, finishes) in cases {
      var finisher = AppFinisher(mode: .afterServer(url: url))
      _ = finisher.actions(for: .transactionsUpdated([purchased]))
      XCTAssertEqual(finisher.answered(answer), finishes ? [.finish(purchased.id)] : [], "\(answer)")
      XCTAssertEqual(finisher.awaiting, [], "an answered call is no longer awaited")
      // Unfinished, it is delivered again at the next launch, and posted again.
      if !finishes { XCTAssertEqual(finisher.actions(for: .transactionsUpdated([purchased])).count, 1) }
    }
  }

  func testTheBodyHasTheDocumentedShape() throws {
    var request = AppServerRequest(transaction: try transaction(.purchased), url: url)
    XCTAssertNil(request.attachReceipt { account in account == "tester" ? Data([1, 2, 3]) : nil })
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
    XCTAssertEqual(Set(object.keys), ["transactionId", "originalTransactionId", "productId", "signedTransaction", "receipt"])
    XCTAssertEqual(object["transactionId"], "1000000001")
    XCTAssertEqual(object["productId"], FixtureCatalog.coins.rawValue)
    XCTAssertEqual(object["receipt"], "AQID")
    XCTAssertEqual(object["signedTransaction"], request.signedTransaction)

    var withoutReceipt = AppServerRequest(transaction: try transaction(.purchased), url: url)
    XCTAssertNil(withoutReceipt.attachReceipt { _ in nil })
    let bare = try XCTUnwrap(try JSONSerialization.jsonObject(with: withoutReceipt.body) as? [String: String])
    XCTAssertNil(bare["receipt"], "no data, no field")

    struct Broken: Error, CustomStringConvertible { var description: String { "receipt builder failed" } }
    var failing = AppServerRequest(transaction: try transaction(.purchased), url: url)
    XCTAssertEqual(failing.attachReceipt { _ in throw Broken() }, "no receipt sent: receipt builder failed")
  }

  func testModesParse() throws {
    XCTAssertEqual(try AppFinishMode(parsing: "manually"), .manually)
    XCTAssertEqual(try AppFinishMode(parsing: "at-once"), .atOnce)
    XCTAssertEqual(try AppFinishMode(parsing: "after-server http://h:1/v"), .afterServer(url: "http://h:1/v"))
    XCTAssertEqual(try AppFinishMode(parsing: "after-server=https://h/v"), .afterServer(url: "https://h/v"))
    XCTAssertEqual(AppFinishMode.afterServer(url: "http://h:1/v").description, "after-server http://h:1/v")
    for bad in ["", "soon", "after-server", "after-server ftp://h/v", "at-once now"] {
      XCTAssertThrowsError(try AppFinishMode(parsing: bad), bad)
    }
  }
}
