import Foundation

/// Work the engine does at a moment of virtual time.
enum ScheduledAction: Sendable, Equatable {
  // Ask to Buy answers are not here: they belong to the requests, which the ledger keeps.
  case deliverProducts(request: Int)

  struct Entry: Sendable, Equatable {
    var date: Date
    var sequence: Int
    var action: ScheduledAction
  }
}

extension StoreMachine {
  /// The time rate in force.
  public var timeRate: TimeRate { TimeRate.preset(rawValue: controls.timeRate) ?? .realTime }

  /// When the next thing falls due (a renewal, billing retry, expiry, scheduled answer), nil when
  /// nothing is waiting: a front end that lets the clock follow the wall clock sleeps until then.
  public var nextDueDate: Date? { nextDue(before: .distantFuture)?.date }

  mutating func schedule(_ action: ScheduledAction, at date: Date) {
    nextTimerSequence += 1
    timers.append(.init(date: date, sequence: nextTimerSequence, action: action))
  }

  /// Moves the virtual clock to `target`: Ask to Buy answers, delayed product responses, renewals,
  /// billing retries and expiries happen at their own moments, in time order, all in this one step.
  mutating func advance(to target: Date) throws(EngineError) {
    guard target >= now else { return }
    while let due = nextDue(before: target) {
      if due.date > now {
        // Front ends stamp what follows with this moment: each renewal at its own time.
        now = due.date
        step.emit(.clockAdvanced(now))
      }
      switch due.work {
      case .timer(let entry):
        timers.removeAll { $0.sequence == entry.sequence }
        try run(entry.action)
      case .subscription(let original):
        try renewOrExpire(original)
      case .askToBuy(let request):
        try carryOutScheduledAnswer(request)
      }
    }
    // As the ledger keeps it (seconds since 1970 as a Double): every process, and a fresh launch,
    // then holds the very same clock, not one a rounding apart.
    now = Date(timeIntervalSince1970: target.timeIntervalSince1970)
    step.changes.append(.setClock(now))
    step.emit(.clockAdvanced(now))
  }

  /// About how many renewals (each a new transaction id) an advance to `target` will deliver: for
  /// every subscription that renews, the periods between its expiry and `target`. The shell
  /// reserves that many ids first, so a long advance runs once instead of running out of ids.
  public func estimatedRenewals(until target: Date) -> Int {
    var total = 0
    for record in subscriptionRecords.values where record.autoRenew && (record.status == .subscribed || record.status == .inGracePeriod || record.status == .inBillingRetry) {
      guard record.expiresDate <= target, let period = catalog.product(record.renewalProductID)?.subscription?.period else { continue }
      let length = timeRate.end(of: period, from: record.expiresDate).timeIntervalSince(record.expiresDate)
      guard length > 0 else { continue }
      var count = Int((target.timeIntervalSince(record.expiresDate) / length).rounded(.down)) + 1
      if let cap = timeRate.renewalCap { count = min(count, max(0, cap - record.renewalCount)) }
      // A bundle's renewal makes a component transaction per included subscription too (§47).
      total += count * (1 + componentsPerRenewal(of: record.renewalProductID))
    }
    let answers = askToBuyRequests.values.filter { ($0.scheduledAnswer?.date ?? .distantFuture) <= target }.count
    return total + timers.count + answers
  }

  private enum DueWork {
    case timer(ScheduledAction.Entry)
    case subscription(PaymentTransaction.ID)
    case askToBuy(PaymentTransaction.ID)
  }

  private func nextDue(before target: Date) -> (date: Date, work: DueWork)? {
    var best: (date: Date, work: DueWork)?
    if let timer = timers.min(by: { ($0.date, $0.sequence) < ($1.date, $1.sequence) }), timer.date <= target {
      best = (timer.date, .timer(timer))
    }
    for request in askToBuyRequests.values {
      guard let date = request.scheduledAnswer?.date, date <= target else { continue }
      if date < (best?.date ?? .distantFuture) {
        best = (date, .askToBuy(request.id))
      } else if date == best?.date, case .askToBuy(let other) = best?.work, request.id < other {
        best = (date, .askToBuy(request.id))
      }
    }
    for record in subscriptionRecords.values where record.status != .expired && record.status != .revoked {
      let date = nextEventDate(of: record)
      if date <= target, date < (best?.date ?? .distantFuture) {
        best = (date, .subscription(record.originalID))
      } else if date <= target, date == best?.date, case .subscription(let other) = best?.work, record.originalID < other {
        best = (date, .subscription(record.originalID))
      }
    }
    return best
  }

  private func nextEventDate(of record: SubscriptionRecord) -> Date {
    switch record.status {
    case .inGracePeriod: record.gracePeriodExpiresDate ?? record.expiresDate
    case .inBillingRetry: record.expiresDate.addingTimeInterval(timeRate.billingRetryDuration)
    default: record.expiresDate
    }
  }

  private mutating func run(_ action: ScheduledAction) throws(EngineError) {
    switch action {
    case .deliverProducts(let request): deliverProducts(request)
    }
  }
}
