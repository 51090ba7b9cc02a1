import StoreEngine
import XCTest

/// Newest-first history pages, revocation pages and one account's subscription records: every store
/// answers as the references (``LedgerStore/page(of:order:before:limit:)``,
/// ``LedgerStore/revokedPage(of:descending:from:limit:)``) over the in-memory store's history do.
extension LedgerStoreConformance {
  /// ``HistoryScript``'s histories, checked as they grow: for every account and for all of them,
  /// both orders, every limit from 1 to n + 1, newest-first pages hold the reference's rows page
  /// for page and walk the whole history newest first; for every account, revocation pages both
  /// ways do the same over its revoked rows.
  func backwardAndRevokedPagesFollowTheReference() throws {
    var revocations = 0
    for seed in UInt64(1)...3 {
      let store = try harness.makeStore()
      let reference = InMemoryLedgerStore()
      let script = HistoryScript(seed: seed, steps: 36)
      for (step, batch) in script.batches.enumerated() {
        try store.commit(batch)
        try reference.commit(batch)
        if step % 12 == 11 { revocations += try Self.assertBackwardPagesMatch(store, reference, "seed \(seed), step \(step)") }
      }
    }
    XCTAssertGreaterThan(revocations, 10, "the scripts revoked rows to page through")
  }

  /// The check of `store` against `reference` as they are now; returns how many revoked rows it paged.
  static func assertBackwardPagesMatch(
    _ store: any LedgerStore, _ reference: InMemoryLedgerStore, _ context: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Int {
    var revoked = 0
    for account in HistoryScript.accounts + [nil] {
      let all = try account.map { try reference.history(account: $0) } ?? reference.allTransactions()
      let limits = Array(1...(all.count + 1))
      for order in [HistoryOrder.insertion, .lastModified] {
        let whole = InMemoryLedgerStore.page(of: all, order: order, before: nil, limit: all.count + 1).rows
        for limit in limits {
          let label = "\(context), account \(account ?? "all"), \(order) descending, limit \(limit)"
          var expected = InMemoryLedgerStore.page(of: all, order: order, before: nil, limit: limit)
          var page = try store.historyPage(account: account, order: order, before: nil, limit: limit)
          var walked: [PaymentTransaction] = []
          for _ in 0...all.count {
            XCTAssertEqual(page.rows.map(\.id), expected.rows.map(\.id), label, file: file, line: line)
            XCTAssertEqual(page.next == nil, expected.next == nil, "the last page is the last (\(label))", file: file, line: line)
            walked += page.rows
            guard let next = page.next, let expectedNext = expected.next else { break }
            page = try store.historyPage(account: account, order: order, before: next, limit: limit)
            expected = InMemoryLedgerStore.page(of: all, order: order, before: expectedNext, limit: limit)
          }
          XCTAssertEqual(walked, whole, "the pages make the whole history newest first (\(label))", file: file, line: line)
        }
      }
      guard let account else { continue }
      for descending in [false, true] {
        let whole = InMemoryLedgerStore.revokedPage(of: all, descending: descending, from: nil, limit: all.count + 1).rows
        XCTAssertTrue(whole.allSatisfy { $0.account == account && $0.revocationDate != nil }, context, file: file, line: line)
        if !descending { revoked += whole.count }
        for limit in 1...(whole.count + 1) {
          let label = "\(context), account \(account), revocations \(descending ? "newest" : "oldest") first, limit \(limit)"
          var expected = InMemoryLedgerStore.revokedPage(of: all, descending: descending, from: nil, limit: limit)
          var page =
            descending
            ? try store.revokedPage(account: account, before: nil, limit: limit)
            : try store.revokedPage(account: account, after: nil, limit: limit)
          var walked: [PaymentTransaction] = []
          for _ in 0...whole.count {
            XCTAssertEqual(page, expected, label, file: file, line: line)
            walked += page.rows
            guard let next = page.next else { break }
            page =
              descending
              ? try store.revokedPage(account: account, before: next, limit: limit)
              : try store.revokedPage(account: account, after: next, limit: limit)
            expected = InMemoryLedgerStore.revokedPage(of: all, descending: descending, from: next, limit: limit)
          }
          XCTAssertEqual(walked, whole, "the pages make every revocation (\(label))", file: file, line: line)
        }
      }
    }
    return revoked
  }

  /// An empty history is one empty page both ways; a revocation re-signed later moves in
  /// revocation order; a row no longer revoked leaves it; an id past 2^63 sorts after smaller ones.
  func revokedPageEdges() throws {
    let store = try harness.makeStore()
    XCTAssertEqual(try store.historyPage(account: "alice", order: .lastModified, before: nil, limit: 3), HistoryPage(rows: [], next: nil))
    XCTAssertEqual(try store.revokedPage(account: "alice", after: nil, limit: 3), RevokedPage(rows: [], next: nil))
    XCTAssertEqual(try store.revokedPage(account: "alice", before: nil, limit: 3), RevokedPage(rows: [], next: nil))
    let large = UInt64(Int64.max) + 5
    var rows = [UInt64(1), 2, large].map { LedgerFixtures.transaction($0, state: .purchased, secondsAfterBase: Double($0 % 100)) }
    for index in rows.indices { rows[index].revocationDate = LedgerFixtures.baseDate.addingTimeInterval(1_000) }
    try store.commit(rows.map { .putTransaction($0) } + [.putTransaction(LedgerFixtures.transaction(4, state: .purchased))])
    XCTAssertEqual(try store.revokedPage(account: "alice", after: nil, limit: 5).rows.map(\.id.rawValue), [1, 2, large])
    XCTAssertEqual(try store.revokedPage(account: "alice", before: nil, limit: 5).rows.map(\.id.rawValue), [large, 2, 1])
    XCTAssertEqual(try store.revokedPage(account: "bob", after: nil, limit: 5).rows, [], "another account's revocations are not listed")
    rows[0].revocationDate = LedgerFixtures.baseDate.addingTimeInterval(2_000)
    rows[1].revocationDate = nil
    try store.commit([.putTransaction(rows[0]), .putTransaction(rows[1])])
    let first = try store.revokedPage(account: "alice", after: nil, limit: 1)
    XCTAssertEqual(first.rows.map(\.id.rawValue), [large])
    XCTAssertEqual(first.next, RevocationKey(milliseconds: SignedPayloads.milliseconds(LedgerFixtures.baseDate) + 1_000_000, id: .init(large)))
    XCTAssertEqual(try store.revokedPage(account: "alice", after: first.next, limit: 1), RevokedPage(rows: [rows[0]], next: nil))
    try store.commit([.deleteTransaction(rows[0].id)])
    XCTAssertEqual(try store.revokedPage(account: "alice", before: nil, limit: 0).rows.map(\.id.rawValue), [large], "a limit below 1 is 1")
  }

  /// One account's records, by original id, as stored: written, rewritten (its status too),
  /// removed, another account's left out, and with statuses only those.
  func subscriptionsOfOneAccount() throws {
    let store = try harness.makeStore()
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: nil), [])
    var renewed = LedgerFixtures.subscription(30, account: "alice")
    try store.commit([
      .putSubscription(renewed), .putSubscription(LedgerFixtures.subscription(10, account: "alice")),
      .putSubscription(LedgerFixtures.subscription(20, account: "bob")),
      .putSubscription(LedgerFixtures.subscription(40, account: "광고 제거 🎮")),
    ])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: nil).map(\.originalID.rawValue), [10, 30])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: [.subscribed]).map(\.originalID.rawValue), [10, 30])
    renewed.status = .expired
    renewed.renewalCount = 3
    try store.commit([.putSubscription(renewed)])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: [.subscribed]).map(\.originalID.rawValue), [10])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: [.expired, .inGracePeriod]), [renewed])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: []), [])
    try store.commit([.removeSubscription(PaymentTransaction.ID(10))])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: nil), [renewed])
    XCTAssertEqual(try store.subscriptions(account: "alice", statuses: [.subscribed]), [])
    XCTAssertEqual(try store.subscriptions(account: "광고 제거 🎮", statuses: nil).map(\.originalID.rawValue), [40])
    for status in [SubscriptionStatus.subscribed, .expired, .inBillingRetry, .inGracePeriod, .revoked] {
      var record = LedgerFixtures.subscription(50, account: "bob")
      record.status = status
      try store.commit([.putSubscription(record)])
      XCTAssertEqual(try store.subscriptions(account: "bob", statuses: [status]).map(\.originalID.rawValue), [20, 50].filter { $0 == 50 || status == .subscribed }, "\(status)")
    }
    XCTAssertEqual(
      try store.subscriptions(account: "bob", statuses: nil), try store.load().subscriptions.filter { $0.account == "bob" })
  }
}
