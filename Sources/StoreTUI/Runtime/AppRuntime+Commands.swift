import Foundation
import StoreEngine

extension AppRuntime {
  /// Runs one command against the engine and reports how it went as an action.
  func run(_ command: AppCommand) {
    do {
      let message = try execute(command)
      send(.commandSucceeded(command, message: message))
    } catch let error as EngineError {
      send(.commandFailed(command, message: error.description))
    } catch {
      send(.commandFailed(command, message: String(describing: error)))
    }
  }

  private func execute(_ command: AppCommand) throws -> String? {
    switch command {
    case .buy(let product): try queue.add(Payment(productID: product))
    case .restore: try queue.restoreCompletedTransactions()
    case .confirm: try queue.confirm()
    case .cancel: try queue.cancel()
    case .signIn(let name, let password):
      try queue.signIn(name, password: password.isEmpty ? nil : password)
      reload()
    case .signOut:
      try queue.signOut()
      reload()
    case .finish(let id): try queue.finish(id)
    case .approve(let id): try queue.approve(id)
    case .decline(let id): try queue.decline(id)
    case .resolve(let id): try queue.resolve(id)
    case .resolveBillingIssue(let id): try queue.resolveBillingIssue(id)
    case .refund(let id): try queue.refund(id)
    case .setAutoRenew(let id, let on): try queue.setAutoRenew(on, for: id)
    case .expireSubscription(let id): try queue.expireSubscription(id)
    case .renewNow(let id): try queue.forceRenewal(id)
    case .relaunch:
      try queue.relaunch()
      reload()
      return "Relaunched: \(queue.queue.count) unfinished transactions delivered again."
    case .setControl(let change): queue.updateControls { change.apply(to: &$0) }
    case .advance(let seconds): try queue.advance(by: seconds)
    case .clearHistory:
      try queue.clearPurchaseHistory()
      reload()
      return "Cleared the purchase history of '\(queue.currentAccount ?? "")'."
    case .exportJWS(let id, let path):
      return try export(id, to: path)
    case .quit:
      wantsQuit = true
    }
    return nil
  }

  private func reload() {
    send(.accountLoaded(AccountSnapshot(queue: queue)))
  }

  private func export(_ id: PaymentTransaction.ID, to path: String) throws -> String {
    guard let jws = queue.transaction(id)?.signedTransaction else {
      throw ExportError(message: "Transaction \(id) has no signed transaction to export; only purchased, restored and renewed ones are signed.")
    }
    let expanded = (path as NSString).expandingTildeInPath
    let url = expanded.hasPrefix("/")
      ? URL(fileURLWithPath: expanded) : exportDirectory.appendingPathComponent(expanded)
    do {
      try Data((jws + "\n").utf8).write(to: url, options: .atomic)
    } catch {
      throw ExportError(
        message: "Could not write '\(url.path)': \(error.localizedDescription). Choose a writable path.")
    }
    return "Saved the JWS of transaction \(id) to \(url.path)."
  }
}

/// Why a JWS export failed, in words for the status line.
struct ExportError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
