import Foundation
import StoreEngine
import XCTest

/// `CommitLog.encode` writes a log row's JSON directly where it can; the bytes must be
/// `JSONSerialization`'s for every list of entries, and decode back to the entries.
final class CommitLogJSONTests: XCTestCase {
  func testEncodingMatchesJSONSerialization() {
    var generator = SplitMix64(seed: 41)
    let strings = ["mina", "", "Sandbox", "a b", "ca.key-1_x:y", "with/slash", "quote\"", "naïve", "tab\t", "back\\"]
    func string() -> String { strings[Int(generator.next() % UInt64(strings.count))] }
    func id() -> PaymentTransaction.ID {
      PaymentTransaction.ID(generator.next() % 5 == 0 ? generator.next() >> 1 : 2_000_000_000_000_000 + generator.next() % 100_000)
    }
    for _ in 0..<500 {
      let entries: [CommitLogEntry] = (0..<Int(generator.next() % 12)).map { _ in
        switch generator.next() % 11 {
        case 0: .transaction(id())
        case 1: .removedTransactions((0..<Int(generator.next() % 4)).map { _ in id() })
        case 2: .account(string())
        case 3: .subscription(id())
        case 4: .removedSubscription(id())
        case 5: .askToBuyRequest(id())
        case 6: .currentAccount
        case 7: .clock
        case 8: .notificationURL(environment: string())
        case 9: .deviceValue(key: string())
        default: .massExtension(productID: Product.ID(string()), requestID: string())
        }
      }
      let written = CommitLog.encode(entries)
      XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: CommitLog.encodeWithFoundation(entries), as: UTF8.self))
      XCTAssertEqual(CommitLog.decode(written), entries)
    }
    let beyondInt64: [CommitLogEntry] = [.transaction(PaymentTransaction.ID(UInt64.max)), .clock]
    XCTAssertEqual(CommitLog.encode(beyondInt64), CommitLog.encodeWithFoundation(beyondInt64), "left to JSONSerialization")
  }
}
