import Foundation
import StoreEngine

/// A random multi-account history as batches of changes, for the history-page conformance tests:
/// purchases of every kind and state (some without a signed transaction, some with ids past
/// 2^63), refunds and revocations that re-sign a row later (so it moves in last-modified order
/// but keeps its insertion place), finishes, deletions, a cleared account, and rows signed in the
/// same millisecond (the id breaks the tie).
struct HistoryScript {
  static let accounts = ["alice", "bob", "광고 제거 🎮"]
  static let products: [(Product.ID, ProductKind)] = [
    ("com.example.gems", .consumable), ("com.example.coins", .consumable), ("com.example.pro", .nonConsumable),
    ("com.example.monthly", .autoRenewableSubscription), ("com.example.season", .nonRenewingSubscription),
  ]

  /// The batches, in commit order.
  private(set) var batches: [[LedgerChange]] = []

  /// `steps` batches drawn from `seed`; a long JWS header makes some rows large enough to be
  /// stored compressed.
  init(seed: UInt64, steps: Int) {
    var random = SplitMix64(seed: seed)
    var live: [PaymentTransaction] = []
    var nextSmall: UInt64 = 1_000
    var nextLarge: UInt64 = UInt64(Int64.max) + 1
    for step in 0..<steps {
      var batch: [LedgerChange] = []
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 55 || live.isEmpty {
          let large = Int.random(in: 0..<8, using: &random) == 0
          let id = large ? nextLarge : nextSmall
          if large { nextLarge += 1 } else { nextSmall += 1 }
          let transaction = Self.purchase(id, step: step, using: &random)
          live.append(transaction)
          batch.append(.putTransaction(transaction))
        } else if roll < 75 {
          // A refund or revocation: re-signed now, so it moves to the end of last-modified order.
          let index = Int.random(in: 0..<live.count, using: &random)
          var revoked = live[index]
          let when = LedgerFixtures.baseDate.addingTimeInterval(Double(step) * 60 + 30)
          revoked.revocationDate = when
          revoked.revocationReason = Int.random(in: 0...1, using: &random)
          revoked.signedTransaction = Self.jws(signedDate: when, id: revoked.id)
          live[index] = revoked
          batch.append(.putTransaction(revoked))
        } else if roll < 90 {
          let index = Int.random(in: 0..<live.count, using: &random)
          live[index].isFinished = true
          batch.append(.putTransaction(live[index]))
        } else if roll < 98 {
          let removed = live.remove(at: Int.random(in: 0..<live.count, using: &random))
          batch.append(.deleteTransaction(removed.id))
        } else {
          let account = Self.accounts[Int.random(in: 0..<Self.accounts.count, using: &random)]
          live.removeAll { $0.account == account }
          batch.append(.clearHistory(account: account))
        }
      }
      batches.append(batch)
    }
  }

  private static func purchase(_ id: UInt64, step: Int, using random: inout SplitMix64) -> PaymentTransaction {
    let account = accounts[Int.random(in: 0..<accounts.count, using: &random)]
    let (product, kind) = products[Int.random(in: 0..<products.count, using: &random)]
    let states: [TransactionState] = [.purchased, .purchased, .purchased, .purchasing, .failed, .restored, .deferred]
    let state = states[Int.random(in: 0..<states.count, using: &random)]
    // Whole seconds of few distinct values: several rows share a millisecond.
    let date = LedgerFixtures.baseDate.addingTimeInterval(Double(step / 3) * 60)
    var transaction = PaymentTransaction(
      id: .init(id), account: account, productID: product, productKind: kind, state: state,
      quantity: Int.random(in: 1...5, using: &random), purchaseDate: date, price: 1)
    switch Int.random(in: 0..<4, using: &random) {
    case 0: break  // No signed transaction: last modified at its purchase date.
    case 1: transaction.signedTransaction = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"  // A payload without signedDate.
    default: transaction.signedTransaction = jws(signedDate: date, id: transaction.id)
    }
    return transaction
  }

  /// A compact JWS whose payload has `signedDate`, with a certificate-chain-sized header (which
  /// the SQLite store keeps once, apart from the row).
  static func jws(signedDate: Date, id: PaymentTransaction.ID) -> String {
    let header = Data(("{\"alg\":\"ES256\",\"x5c\":[\"" + String(repeating: "MIIB", count: 400) + "\"]}").utf8)
    // The payload is long enough (as a real one with its many fields is) for the row to be stored compressed.
    let payload = Data(
      "{\"signedDate\":\(SignedPayloads.milliseconds(signedDate)),\"transactionId\":\"\(id)\",\"note\":\"\(String(repeating: "x", count: 1200))\"}".utf8)
    return [header, payload, Data(repeating: 7, count: 64)].map(\.base64URLEncoded).joined(separator: ".")
  }
}
