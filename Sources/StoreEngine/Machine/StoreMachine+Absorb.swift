import Foundation

extension StoreMachine {
  /// Takes in a commit another process made (``StoreCommand/absorb(_:)``): every kind of change,
  /// removals, accounts and settings included, as a fresh launch would read it. The step writes
  /// nothing; its events are what the app hears of the commit.
  mutating func absorb(commit changes: [LedgerChange]) {
    var amended: [PaymentTransaction] = []
    var removed: [PaymentTransaction] = []
    var news: [PaymentTransaction] = []
    for change in changes {
      switch change {
      case .putTransaction(let transaction), .finishTransaction(let transaction):
        guard transactions[transaction.id] != transaction else { continue }
        if isNews(transaction, before: transactions[transaction.id]) { news.append(transaction) }
        // As at launch, a finished consumable is announced but not kept in the working set.
        if transaction.productKind == .consumable && transaction.isFinished {
          drop(transaction.id)
        } else {
          absorb([transaction])
        }
        amended.append(transaction)
      case .deleteTransaction(let id):
        if let transaction = transactions[id], !transaction.isFinished { removed.append(transaction) }
        drop(id)
        // A request is keyed by its first transaction: removed with it.
        askToBuyRequests[id] = nil
      case .clearHistory(let account):
        for id in order where transactions[id]?.account == account {
          if let transaction = transactions[id], !transaction.isFinished { removed.append(transaction) }
        }
        for id in order.filter({ transactions[$0]?.account == account }) { drop(id) }
        askToBuyRequests = askToBuyRequests.filter { $0.value.account != account }
      case .putAccount(let account): accounts[account.name] = account
      case .putSubscription(let record):
        guard subscriptionRecords[record.originalID] != record else { continue }
        absorb([record])
        step.emit(.subscriptionChanged(record, reason: "changed by another process"))
      case .removeSubscription(let id): subscriptionRecords[id] = nil
      case .setCurrentAccount(let name):
        guard name != currentAccount else { continue }
        currentAccount = name
        step.emit(.accountChanged(name))
      case .setClock(let date): catchUp(to: date)
      case .putAskToBuyRequest(let request): absorb([request])
      case .setNotificationURL(let environment, let url): notificationURLs[environment] = url
      case .setDeviceValue(let key, let value): deviceValues[key] = value
      case .putMassExtension, .putNotification, .expectOwner, .expectDeviceValue: break
      }
    }
    // The app's queue loses what another process removed, as it does after its own clear.
    if !removed.isEmpty { step.emit(.transactionsRemoved(removed)) }
    if !amended.isEmpty { step.events.insert(.transactionsAmended(amended), at: 0) }
    if !news.isEmpty { step.emit(.transactionsChangedElsewhere(news)) }
  }

  /// Whether another process's version of a transaction is news to this app: it is in this app's
  /// queue, unfinished, past the sheet, and in a state this process did not hold it in (the
  /// process's own steps told the app of every state it held).
  func isNews(_ transaction: PaymentTransaction, before: PaymentTransaction?) -> Bool {
    !transaction.isFinished && transaction.state != .purchasing && isInThisAppsQueue(transaction) && before?.state != transaction.state
  }

  /// Removes a transaction from the working set and from what points at it.
  private mutating func drop(_ id: PaymentTransaction.ID) {
    if let transaction = transactions[id], currentPeriod[transaction.originalID] == id {
      currentPeriod[transaction.originalID] = nil
    }
    forget(id)
    waitingForPrompt.removeAll { $0 == id }
    if lastTransactionID == id { lastTransactionID = nil }
  }
}
