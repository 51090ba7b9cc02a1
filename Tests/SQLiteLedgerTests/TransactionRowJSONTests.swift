import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// The direct writer of transaction rows must store exactly the bytes `JSONEncoder` stores, so a
/// ledger's rows never depend on which path wrote them.
final class TransactionRowJSONTests: XCTestCase {
  private let coder = LedgerJSONCoder()

  func testRandomRowsAreTheBytesJSONEncoderWrites() throws {
    var generator = SplitMix(seed: 23)
    var direct = 0
    for index in 0..<3_000 {
      let transaction = Self.randomTransaction(&generator)
      let expected = try coder.encodeWithFoundation(transaction)
      let written = TransactionRowJSON.encode(transaction)
      if let written {
        direct += 1
        XCTAssertEqual(written, expected, "row \(index)")
      }
      XCTAssertEqual(try coder.encode(transaction), expected, "row \(index)")
      XCTAssertEqual(try coder.decode(PaymentTransaction.self, from: try coder.encode(transaction)), transaction, "row \(index)")
    }
    // About half the random rows are plain (an odd character, an odd date, an error or consumption
    // information sends the rest to JSONEncoder; testRowsItCannotWriteGoToJSONEncoder says which).
    XCTAssertGreaterThan(direct, 1_000)
  }

  /// A renewal as the engine commits it, with its two JWS: the row a day of renewals writes.
  func testARenewalRowIsWrittenDirectly() throws {
    var renewal = PaymentTransaction(
      id: .init(2_000_000_123), originalID: .init(2_000_000_001), account: "tester",
      productID: .init("com.example.premium.monthly"), productKind: .autoRenewableSubscription, state: .purchased,
      purchaseDate: LedgerFixtures.baseDate, expiresDate: LedgerFixtures.baseDate.addingTimeInterval(2),
      price: Decimal(string: "9.99") ?? 0, reason: .renewal)
    renewal.subscriptionGroupID = "G1"
    renewal.webOrderLineItemID = 2_000_000_002
    renewal.signedTransaction = "~abc." + String(repeating: "eyJ0-_", count: 600) + ".sig"
    renewal.signedRenewalInfo = "~abc." + String(repeating: "eyJy-_", count: 580) + ".sig"
    let written = try XCTUnwrap(TransactionRowJSON.encode(renewal))
    XCTAssertEqual(written, try coder.encodeWithFoundation(renewal))
    renewal.isFinished = true
    XCTAssertEqual(TransactionRowJSON.encode(renewal), try coder.encodeWithFoundation(renewal))
  }

  /// What the writer leaves to JSONEncoder: it must say so (nil), never write something else.
  func testRowsItCannotWriteGoToJSONEncoder() throws {
    let plain = LedgerFixtures.transaction(7)
    XCTAssertNotNil(TransactionRowJSON.encode(plain))
    var cases: [(String, PaymentTransaction)] = []
    var quoted = plain
    quoted.applicationUsername = "say \"hi\""
    cases.append(("a quote", quoted))
    var backslash = plain
    backslash.ownerSession = "a\\b"
    cases.append(("a backslash", backslash))
    var control = plain
    control.offerID = "line\nbreak"
    cases.append(("a control character", control))
    var unicode = plain
    unicode.account = "zoë"
    cases.append(("a non-ASCII account", unicode))
    var inexact = plain
    inexact.purchaseDate = Date(timeIntervalSinceReferenceDate: 0.000_1)
    cases.append(("a date between milliseconds", inexact))
    var failed = plain
    failed.error = .paymentCancelled
    cases.append(("an error", failed))
    cases.append(("consumption information", LedgerFixtures.fullyPopulated()))
    for (what, transaction) in cases {
      XCTAssertNil(TransactionRowJSON.encode(transaction), what)
      XCTAssertEqual(try coder.encode(transaction), try coder.encodeWithFoundation(transaction), what)
    }
  }

  private static func randomTransaction(_ generator: inout SplitMix) -> PaymentTransaction {
    func pick<T>(_ values: [T]) -> T { values[Int(generator.next() % UInt64(values.count))] }
    func maybe<T>(_ value: @autoclosure () -> T) -> T? { generator.next() % 2 == 0 ? value() : nil }
    func date() -> Date {
      // Mostly whole milliseconds (the engine's clock); sometimes not, which only JSONEncoder writes.
      // Years 1…9999 (the ISO text's range): from 385 to 9892.
      let milliseconds = Double(Int64(generator.next() % 300_000_000_000_000) - 50_000_000_000_000)
      return Date(timeIntervalSince1970: milliseconds / 1000 + (generator.next() % 20 == 0 ? 0.000_012_5 : 0))
    }
    func text() -> String {
      let alphabet = Array("abcXYZ019.-_~/+=:@ ") + (generator.next() % 30 == 0 ? ["\"", "é", "\n"] : [])
      return String((0..<Int(generator.next() % 24)).map { _ in pick(alphabet) })
    }
    var transaction = PaymentTransaction(
      id: .init(generator.next() % 10_000_000_000 + 1), originalID: maybe(.init(generator.next() >> 1)),
      account: text(), productID: .init(text()), productKind: pick(ProductKind.allCases),
      state: pick(TransactionState.allCases), quantity: Int(generator.next() % 5) - 1, applicationUsername: maybe(text()),
      purchaseDate: date(), originalPurchaseDate: maybe(date()), expiresDate: maybe(date()),
      price: pick([0, Decimal(string: "0.99") ?? 0, Decimal(string: "1234.5") ?? 0, 1_500, Decimal(string: "-3.25") ?? 0])
        + Decimal(Int(generator.next() % 1_000)) / 100,
      currency: pick(["USD", "EUR", "KRW", "JPY"]), storefront: pick(["USA", "FRA", "KOR"]), reason: pick([.purchase, .renewal]))
    transaction.appAccountToken = maybe(text())
    transaction.appBundleID = maybe(text())
    transaction.subscriptionGroupID = maybe(text())
    transaction.webOrderLineItemID = maybe(generator.next())
    transaction.offerType = maybe(pick([.introductory, .promotional, .code, .winBack]))
    transaction.offerID = maybe(text())
    transaction.offerPaymentMode = maybe(pick(SubscriptionOffer.PaymentMode.allCases))
    transaction.offerPeriod = maybe(text())
    transaction.subscribedTransactionID = maybe(.init(generator.next()))
    transaction.revocationDate = maybe(date())
    transaction.revocationReason = maybe(Int(generator.next() % 3))
    transaction.isUpgraded = generator.next() % 2 == 0
    transaction.isFinished = generator.next() % 2 == 0
    transaction.needsResolution = generator.next() % 2 == 0
    transaction.signedTransaction = maybe(text() + "." + text())
    transaction.signedRenewalInfo = maybe(text())
    transaction.ownerSession = maybe(text())
    transaction.familySharedBy = maybe(text())
    if generator.next() % 40 == 0 { transaction.error = .paymentInvalid }
    if generator.next() % 40 == 0 {
      transaction.consumption = ConsumptionInformation(
        customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED", consumptionPercentage: 1,
        refundPreference: "GRANT_FULL", receivedDate: date())
    }
    return transaction
  }
}
