import Foundation
import StoreEngine
@testable import StoreScenario
import Testing

/// The event lines byte for byte, in both formats: `storefront run --json` objects (keys, value
/// types, escaping, which keys are left out) and the text lines of `storefront run` and the TUI's
/// log; and the objects of `storefront transactions --json`. Scripts and CI parse these lines, so
/// a change here is a change of the output format.
@Suite struct EventFormatterTests {
  static let json = EventFormatter(json: true)
  static let text = EventFormatter(json: false)

  @Test(arguments: EventFixtures.everyKind.map(\.name))
  func jsonLine(_ name: String) throws {
    let pin = try #require(EventFixtures.everyKind.first { $0.name == name })
    let expected = try #require(Self.expected[name])
    #expect(Self.json.lines(for: pin.event, at: pin.time, line: pin.line) == expected.json)
  }

  @Test(arguments: EventFixtures.everyKind.map(\.name))
  func textLine(_ name: String) throws {
    let pin = try #require(EventFixtures.everyKind.first { $0.name == name })
    let expected = try #require(Self.expected[name])
    #expect(Self.text.lines(for: pin.event, at: pin.time, line: pin.line) == expected.text)
  }

  @Test func everyFixtureIsPinned() {
    #expect(Set(EventFixtures.everyKind.map(\.name)) == Set(Self.expected.keys))
  }

  @Test func transactionsListingObjects() {
    let transactions = [
      EventFixtures.purchasing, EventFixtures.purchased, EventFixtures.failed, EventFixtures.renewal,
      EventFixtures.refunded,
    ]
    #expect(transactions.map(EventFormatter.json(of:)) == Self.listing)
  }

  /// A pinned line read back as an ``EventLine`` encodes to the same bytes: the model has every
  /// key of every kind, and what it decodes is what it encodes.
  @Test(arguments: EventFixtures.everyKind.map(\.name))
  func jsonLineRoundTrips(_ name: String) throws {
    for text in try #require(Self.expected[name]).json {
      let line = try JSONDecoder().decode(EventLine.self, from: Data(text.utf8))
      #expect(EventLine.json(line) == text)
    }
  }

  @Test func anUnknownEventDoesNotDecode() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(EventLine.self, from: Data(#"{"event":"bogus","time":"2026-01-01T00:00:00Z"}"#.utf8))
    }
  }

  /// Strings are escaped exactly as `JSONSerialization` (which wrote these lines before) escapes
  /// them: account names, application usernames and misuse messages are the user's text. Every
  /// scalar of the Basic Multilingual Plane (where the escaped ones and U+2028/U+2029 are), and
  /// every 257th of the others.
  @Test func stringsAreEscapedAsJSONSerializationEscapedThem() throws {
    let values = Array(0...0xFFFF) + Array(stride(from: 0x10000, through: 0x10FFFF, by: 257))
    let scalars = values.compactMap(Unicode.Scalar.init).map(Character.init)
    for chunk in scalars.chunked(by: 4096) {
      let account = String(chunk)
      let line = try #require(Self.json.lines(for: .historyCleared(account: account), at: EventFixtures.start).first)
      let reference = try JSONSerialization.data(
        withJSONObject: ["account": account, "event": "historyCleared", "time": "2026-01-01T00:00:00Z"],
        options: [.sortedKeys, .withoutEscapingSlashes])
      #expect(line == String(decoding: reference, as: UTF8.self))
    }
  }

  // B27: the line a crash prints (not an engine event: the runner's own).
  @Test func appCrashedLine() throws {
    let crash = try #require(AppCrash(.cannotFinishPurchasing(EventFixtures.id(1))))
    let record = EventRecord.appCrashed(EventRecord.AppCrashed(crash))
    #expect(Self.json.lines(for: [record], at: EventFixtures.start, line: 3) == [
      #"{"event":"appCrashed","exception":"NSInternalInconsistencyException","line":3,"message":"The app would have crashed: finishTransaction on transaction 2000000000000001, still purchasing, raises NSInternalInconsistencyException ('Cannot finish a purchasing transaction').","reason":"Cannot finish a purchasing transaction","time":"2026-01-01T00:00:00Z","transactionId":"2000000000000001"}"#
    ])
    #expect(Self.text.lines(for: [record], at: EventFixtures.start, line: 3) == [
      "[2026-01-01T00:00:00Z] appCrashed: The app would have crashed: finishTransaction on transaction 2000000000000001, still purchasing, raises NSInternalInconsistencyException ('Cannot finish a purchasing transaction')."
    ])
    #expect(AppCrash(.alreadyFinished(EventFixtures.id(1))) == nil, "finishing twice is ignored by StoreKit, not a crash")
  }

  static let expected: [String: (json: [String], text: [String])] = [
    // B10: what the app's refund sheet returned.
    "refund request granted": (
      json: [#"{"event":"refundRequest","line":25,"result":"success","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000006"}"#],
      text: [#"[2026-01-08T01:01:01Z] refundRequest result=success transactionId=2000000000000006"#]),
    "refund request failed": (
      json: [#"{"error":{"code":0,"domain":"StoreKit.Transaction.RefundRequestError","name":"duplicateRequest"},"event":"refundRequest","line":26,"result":"failed","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000006"}"#],
      text: [#"[2026-01-08T01:01:01Z] refundRequest error=["code": 0, "domain": "StoreKit.Transaction.RefundRequestError", "name": "duplicateRequest"] result=failed transactionId=2000000000000006"#]),
    "account signed in at launch": (
      json: [#"{"account":"jake","event":"accountChanged","time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] accountChanged account=jake"#]),
    "products response": (
      json: [#"{"event":"productsResponse","invalidProductIdentifiers":["com.example/not.in.store","a\"b\\c/d\te\nf\u0001g\#u{7F}h é 한 👍🏽 \#u{2028}"],"line":2,"products":["com.jake.sample.ExInAppPurchase.shopping","com.jake.sample.ExInAppPurchase.coins100"],"request":1,"time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] productsResponse invalidProductIdentifiers=["com.example/not.in.store", "a\"b\\c/d\te\nf\u{01}g\u{7F}h é 한 👍🏽 \#u{2028}"] products=["com.jake.sample.ExInAppPurchase.shopping", "com.jake.sample.ExInAppPurchase.coins100"] request=1"#]),
    "empty products response": (
      json: [#"{"event":"productsResponse","invalidProductIdentifiers":[],"line":3,"products":[],"request":2,"time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] productsResponse invalidProductIdentifiers=[] products=[] request=2"#]),
    "products request failed": (
      json: [#"{"error":{"code":5002,"domain":"SSServerErrorDomain","name":"unknownServerError"},"event":"productsRequestFailed","line":4,"request":3,"time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] productsRequestFailed error=["code": 5002, "domain": "SSServerErrorDomain", "name": "unknownServerError"] request=3"#]),
    "store payment": (
      json: [#"{"event":"shouldAddStorePayment","line":5,"productId":"com.jake.sample.ExInAppPurchase.shopping","time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] shouldAddStorePayment productId=com.jake.sample.ExInAppPurchase.shopping"#]),
    "purchasing": (
      json: [#"{"account":"jake","event":"transactionUpdated","line":6,"productId":"com.jake.sample.ExInAppPurchase.shopping","quantity":1,"queueId":"2000000000000001","state":"purchasing","time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] updatedTransactions: com.jake.sample.ExInAppPurchase.shopping purchasing (queue 2000000000000001, no transactionIdentifier, quantity 1)"#]),
    "confirm sheet": (
      json: [#"{"currency":"USD","event":"sheetPresented","line":6,"price":"2.97","productId":"com.jake.sample.ExInAppPurchase.shopping","quantity":1,"sheet":"confirmPurchase","time":"2026-01-01T00:00:00Z","transactionId":"2000000000000001"}"#],
      text: [#"[2026-01-01T00:00:00Z] sheetPresented currency=USD price=2.97 productId=com.jake.sample.ExInAppPurchase.shopping quantity=1 sheet=confirmPurchase transactionId=2000000000000001"#]),
    "already purchased sheet": (
      json: [#"{"currency":"KRW","event":"sheetPresented","line":7,"price":"0","productId":"com.jake.sample.ExInAppPurchase.shopping","quantity":2,"sheet":"alreadyPurchased","time":"2026-01-01T00:00:00Z","transactionId":"2000000000000007"}"#],
      text: [#"[2026-01-01T00:00:00Z] sheetPresented currency=KRW price=0 productId=com.jake.sample.ExInAppPurchase.shopping quantity=2 sheet=alreadyPurchased transactionId=2000000000000007"#]),
    "sign-in sheet for a purchase": (
      json: [#"{"event":"sheetPresented","line":8,"sheet":"signIn","time":"2026-01-01T00:00:00Z","transactionId":"2000000000000001"}"#],
      text: [#"[2026-01-01T00:00:00Z] sheetPresented sheet=signIn transactionId=2000000000000001"#]),
    "sign-in sheet for a restore": (
      json: [#"{"event":"sheetPresented","for":"restore","line":9,"sheet":"signIn","time":"2026-01-01T00:00:00Z"}"#],
      text: [#"[2026-01-01T00:00:00Z] sheetPresented for=restore sheet=signIn"#]),
    "sheet dismissed": (
      json: [#"{"event":"sheetDismissed","line":10,"time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] sheetDismissed"#]),
    "purchased and failed in one batch": (
      json: [
        #"{"account":"jake","applicationUsername":"a\"b\\c/d\te\nf\u0001g\#u{7F}h é 한 👍🏽 \#u{2028}","event":"transactionUpdated","line":11,"originalTransactionId":"2000000000000002","productId":"com.jake.sample.ExInAppPurchase.coins100","purchaseDate":"2026-01-01T00:00:00Z","quantity":3,"queueId":"2000000000000002","signedTransaction":"eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJl_-","state":"purchased","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000002"}"#,
        #"{"account":"jake","error":{"code":2,"domain":"SKErrorDomain","name":"paymentCancelled"},"event":"transactionUpdated","line":11,"productId":"com.jake.sample.ExInAppPurchase.coins100","quantity":1,"queueId":"2000000000000003","state":"failed","time":"2026-01-08T01:01:01Z"}"#,
      ],
      text: [
        #"[2026-01-08T01:01:01Z] updatedTransactions: com.jake.sample.ExInAppPurchase.coins100 purchased (id 2000000000000002, original 2000000000000002, quantity 3)"#,
        #"[2026-01-08T01:01:01Z] updatedTransactions: com.jake.sample.ExInAppPurchase.coins100 failed (queue 2000000000000003, no transactionIdentifier, quantity 1) error paymentCancelled (2)"#,
      ]),
    "finished": (
      json: [#"{"account":"jake","applicationUsername":"a\"b\\c/d\te\nf\u0001g\#u{7F}h é 한 👍🏽 \#u{2028}","event":"transactionRemoved","line":12,"originalTransactionId":"2000000000000002","productId":"com.jake.sample.ExInAppPurchase.coins100","purchaseDate":"2026-01-01T00:00:00Z","quantity":3,"queueId":"2000000000000002","signedTransaction":"eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJl_-","state":"purchased","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000002"}"#],
      text: [#"[2026-01-08T01:01:01Z] removedTransactions: com.jake.sample.ExInAppPurchase.coins100 purchased (id 2000000000000002, original 2000000000000002, quantity 3)"#]),
    "renewal": (
      json: [#"{"account":"robin","event":"transactionUpdated","expiresDate":"2026-02-07T01:01:01Z","line":13,"originalTransactionId":"2000000000000004","productId":"com.jake.sample.ExInAppPurchase.premium.monthly","purchaseDate":"2026-01-08T01:01:01Z","quantity":1,"queueId":"2000000000000005","reason":"renewal","signedRenewalInfo":"h.info.s","signedTransaction":"h.renewal.s","state":"purchased","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000005"}"#],
      text: [#"[2026-01-08T01:01:01Z] updatedTransactions: com.jake.sample.ExInAppPurchase.premium.monthly purchased (id 2000000000000005, original 2000000000000004, quantity 1) expires 2026-02-07T01:01:01Z"#]),
    "subscription status": (
      json: [#"{"event":"subscriptionStatusChanged","line":13,"originalTransactionId":"2000000000000004","productId":"com.jake.sample.ExInAppPurchase.premium.monthly","reason":"billing retry","status":"inBillingRetry","time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] subscriptionStatusChanged originalTransactionId=2000000000000004 productId=com.jake.sample.ExInAppPurchase.premium.monthly reason=billing retry status=inBillingRetry"#]),
    "restore finished": (
      json: [#"{"event":"restoreFinished","line":14,"restoredCount":2,"time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] paymentQueueRestoreCompletedTransactionsFinished (2 restored)"#]),
    "restore failed": (
      json: [#"{"error":{"code":7,"domain":"SKErrorDomain","name":"cloudServiceNetworkConnectionFailed"},"event":"restoreFailed","line":15,"time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] restoreCompletedTransactionsFailedWithError: cloudServiceNetworkConnectionFailed (7)"#]),
    "refund": (
      json: [#"{"account":"","event":"transactionRevoked","line":16,"originalTransactionId":"2000000000000006","productId":"com.jake.sample.ExInAppPurchase.shopping","purchaseDate":"2026-01-01T00:00:00Z","quantity":1,"queueId":"2000000000000006","revocationDate":"2026-01-08T01:01:01Z","signedTransaction":"h.refunded.s","state":"purchased","time":"2026-01-08T01:01:01Z","transactionId":"2000000000000006"}"#],
      text: [#"[2026-01-08T01:01:01Z] revoked: com.jake.sample.ExInAppPurchase.shopping purchased (id 2000000000000006, original 2000000000000006, quantity 1)"#]),
    "finishing twice": (
      json: [#"{"error":"alreadyFinished","event":"error","line":17,"message":"Transaction 2000000000000002 is already finished; finishing it again does nothing.","time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] error: Transaction 2000000000000002 is already finished; finishing it again does nothing."#]),
    "unknown transaction": (
      json: [#"{"error":"unknownTransaction","event":"error","line":18,"message":"No transaction 'a\"b\\c/d\te\nf\u0001g\#u{7F}h é 한 👍🏽 \#u{2028}' in this account's history. List them with `storefront transactions`.","time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] error: No transaction 'a"b\c/d\#u{9}e\#u{A}f\#u{1}g\#u{7F}h é 한 👍🏽 \#u{2028}' in this account's history. List them with `storefront transactions`."#]),
    "history cleared": (
      json: [#"{"account":"robin","event":"historyCleared","line":19,"time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] historyCleared account=robin"#]),
    "signed out": (
      json: [#"{"account":null,"event":"accountChanged","line":20,"time":"2026-01-08T01:01:01Z"}"#],
      text: [#"[2026-01-08T01:01:01Z] accountChanged account=<null>"#]),
    "empty batch": (
      json: [],
      text: []),
    "amended": (
      json: [],
      text: []),
    "controls": (
      json: [],
      text: []),
    "clock": (
      json: [],
      text: []),
  ]

  static let listing: [String] = [
    #"{"account":"jake","currency":"USD","finished":false,"originalTransactionId":"2000000000000001","price":"2.97","productId":"com.jake.sample.ExInAppPurchase.shopping","purchaseDate":"2026-01-01T00:00:00Z","quantity":1,"queueId":"2000000000000001","state":"purchasing","transactionId":"2000000000000001"}"#,
    #"{"account":"jake","applicationUsername":"a\"b\\c/d\te\nf\u0001g\#u{7F}h é 한 👍🏽 \#u{2028}","currency":"USD","finished":false,"orderId":"NXYXCM9OQH","originalTransactionId":"2000000000000002","price":"2.97","productId":"com.jake.sample.ExInAppPurchase.coins100","purchaseDate":"2026-01-01T00:00:00Z","quantity":3,"queueId":"2000000000000002","signedTransaction":"eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJl_-","state":"purchased","transactionId":"2000000000000002"}"#,
    #"{"account":"jake","error":{"code":2,"domain":"SKErrorDomain","name":"paymentCancelled"},"finished":false,"originalTransactionId":"2000000000000003","productId":"com.jake.sample.ExInAppPurchase.coins100","purchaseDate":"2026-01-01T00:00:00Z","quantity":1,"queueId":"2000000000000003","state":"failed","transactionId":"2000000000000003"}"#,
    #"{"account":"robin","currency":"USD","expiresDate":"2026-02-07T01:01:01Z","finished":true,"orderId":"UCQH6RIBGE","originalTransactionId":"2000000000000004","price":"4.99","productId":"com.jake.sample.ExInAppPurchase.premium.monthly","purchaseDate":"2026-01-08T01:01:01Z","quantity":1,"queueId":"2000000000000005","reason":"renewal","signedRenewalInfo":"h.info.s","signedTransaction":"h.renewal.s","state":"purchased","transactionId":"2000000000000005"}"#,
    #"{"account":"","currency":"USD","finished":true,"orderId":"KHNNST9711","originalTransactionId":"2000000000000006","price":"2.99","productId":"com.jake.sample.ExInAppPurchase.shopping","purchaseDate":"2026-01-01T00:00:00Z","quantity":1,"queueId":"2000000000000006","revocationDate":"2026-01-08T01:01:01Z","signedTransaction":"h.refunded.s","state":"purchased","transactionId":"2000000000000006"}"#,
  ]
}

extension Array {
  fileprivate func chunked(by size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}
