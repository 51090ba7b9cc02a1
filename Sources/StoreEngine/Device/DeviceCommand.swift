/// What a process says to the others attached to the same store through the ledger's device
/// values (its mailbox): who runs, an attached app's sheet and its quote, a storefront's answer and
/// sign-in, an app's callback log. Each runs as a ``StoreCommand/device(_:)`` step through
/// ``StoreMachine/handle(_:)``, so it commits, travels the commit log and reaches every view as any
/// other change does (DECISIONS §41).
public enum DeviceCommand: Sendable, Equatable {
  /// Writes (or rewrites) a process's entry: it started, or its settings or catalog changed.
  case register(AttachedProcess)
  /// Removes a process's entry: it ends. Its callback log stays for the storefront to read.
  case unregister(session: String)
  /// Removes the entries and logs of processes that stopped without saying so (SIGKILLed). Which
  /// ones is for the caller to tell (``DeviceValues/leftBehind(in:isRunning:)``): liveness is I/O.
  case forget(sessions: [String], logs: [String])
  /// An app's callback lines as it heard them.
  case log(DeviceValues.AppLog, session: String)
  /// An attached app's sheet for transaction `id`, quoted by its engine (nil: the sheet closed).
  case quote(PaymentTransaction.ID, DeviceValues.SheetQuote?)
  /// A storefront's answer to the sheet of `id` (nil: the app carried the answer out).
  case answer(PaymentTransaction.ID, SheetAnswer?)
  /// A storefront signed the device in as `account` for the sheet of `id` (nil: the app took it in).
  case signedIn(PaymentTransaction.ID, account: String?)
  /// The offer-code redemption sheet of the app of `session` (`presentCodeRedemptionSheet()`):
  /// opened by the app, answered by a storefront, closed (nil) by the app once it acted on it.
  case codeSheet(session: String, DeviceValues.CodeSheet?)

  /// The device-value changes the command writes.
  var changes: [LedgerChange] {
    switch self {
    case .register(let process): [DeviceValues.register(process)]
    case .unregister(let session): [DeviceValues.unregister(session: session)]
    case .forget(let sessions, let logs):
      sessions.map { DeviceValues.unregister(session: $0) } + logs.map { DeviceValues.forgetLog(session: $0) }
    case .log(let log, let session): [DeviceValues.log(log, session: session)]
    case .quote(let id, let quote): [DeviceValues.quote(id, quote)]
    case .answer(let id, let answer): [DeviceValues.answer(id, answer)]
    case .signedIn(let id, let account): [DeviceValues.signedIn(id, account: account)]
    case .codeSheet(let session, let state): [DeviceValues.codeSheet(session: session, state)]
    }
  }
}
