import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// Asserts a frame's text equals `__Snapshots__/<name>.txt`: `assertScreen(_:named:)`
/// (Support/SnapshotAssertion.swift), which records a missing baseline and fails.
func assertAppSnapshot(
  _ buffer: ScreenBuffer, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  assertScreen(buffer, named: name, filePath: filePath, sourceLocation: sourceLocation)
}

let standardSize = Size(width: 80, height: 24)

/// A catalog with Korean, Japanese, Chinese, emoji and very long names, on top of the fixture.
func wideCatalog() -> Catalog {
  var products = FixtureCatalog.make().products
  products += [
    Product(
      id: "com.example.gems", kind: .consumable, referenceName: "Gems", price: Decimal(string: "4.99") ?? 0,
      localizations: [
        Localization(locale: "en_US", displayName: "💎 500 Gems"), Localization(locale: "ko", displayName: "💎 보석 500개"),
        Localization(locale: "ja", displayName: "💎 ジェム500個"), Localization(locale: "zh_CN", displayName: "💎 500颗宝石"),
      ]),
    Product(
      id: "com.example.mega", kind: .nonConsumable, referenceName: "Mega Bundle", price: Decimal(string: "49.99") ?? 0,
      localizations: [
        Localization(locale: "en_US", displayName: "The Ultimate Mega Bundle With Every Level, Skin and Soundtrack Included"),
        Localization(locale: "ko", displayName: "모든 레벨과 스킨과 사운드트랙이 포함된 궁극의 메가 번들"),
      ]),
  ]
  return Catalog(products: products, subscriptionGroups: FixtureCatalog.make().subscriptionGroups)
}

/// A catalog of `count` consumables, for cost tests.
func largeCatalog(_ count: Int) -> Catalog {
  Catalog(products: (0..<count).map { index in
    Product(
      id: Product.ID("com.example.item\(index)"), kind: .consumable, referenceName: "Item \(index)",
      price: Decimal(index % 100) + (Decimal(string: "0.99") ?? 0))
  })
}

/// A state built straight from a catalog, signed in as `tester`, at the test store's start.
func makeState(
  catalog: Catalog = FixtureCatalog.make(), size: Size = standardSize, transactions: [PaymentTransaction] = [],
  subscriptions: [SubscriptionRecord] = [], controls: SandboxControls = SandboxControls(), account: String? = "tester"
) -> AppState {
  AppState(
    catalog: catalog, size: size,
    snapshot: AccountSnapshot(
      account: account, knownAccounts: account.map { [$0] } ?? [], transactions: transactions,
      subscriptions: subscriptions, controls: controls, clock: TestStore.start))
}

/// A transaction of `tester` at the test store's start.
func makeTransaction(
  _ id: UInt64, _ product: Product.ID, kind: ProductKind, state: TransactionState, quantity: Int = 1,
  finished: Bool = false
) -> PaymentTransaction {
  var transaction = PaymentTransaction(
    id: PaymentTransaction.ID(id), account: "tester", productID: product, productKind: kind, state: state,
    quantity: quantity, purchaseDate: TestStore.start)
  transaction.isFinished = finished
  return transaction
}

/// A well-formed (unsigned) compact JWS with a small payload, for the JWS sheet.
func sampleJWS(transactionID: String) -> String {
  func encode(_ text: String) -> String { Data(text.utf8).base64URLEncoded }
  let header = encode(#"{"alg":"ES256","typ":"JWT"}"#)
  let payload = encode(#"{"bundleId":"com.example.app","environment":"Sandbox","transactionId":"\#(transactionID)"}"#)
  return "\(header).\(payload).\(encode("signature-bytes"))"
}

/// Reduces a series of actions, returning every command in order.
@discardableResult
func send(_ state: inout AppState, _ actions: AppAction...) -> [AppCommand] {
  actions.flatMap { reduce(into: &state, action: $0) }
}

/// Reduces an array of actions, returning every command in order.
@discardableResult
func send(_ state: inout AppState, _ actions: [AppAction]) -> [AppCommand] {
  actions.flatMap { reduce(into: &state, action: $0) }
}

/// Key actions for each character of `text`.
func typing(_ text: String) -> [AppAction] { text.map { .key(.char($0)) } }

/// One engine step as the runtime delivers it: its committed changes, then its events.
@discardableResult
func step(_ state: inout AppState, _ changes: [LedgerChange], _ events: StoreEvent...) -> [AppCommand] {
  send(&state, [.committed(LedgerCommit(changes, origin: .thisProcess))] + events.map { .engine($0) })
}
