import StoreEngine

/// What a scenario's `expect`s read: the run's read model, built as every other view's is (DECISIONS
/// §31, §41): the signed-in account's present, kept by applying the committed changes the bus
/// carries (``LedgerCommit``), and the sheet the events showed. Not the machine's working set.
///
/// Unchecked: the bus calls it on the thread that runs the queue's steps (its immediate executor),
/// which is the runner's; the state is locked all the same, and the ledger is read on that thread only.
final class ScenarioReadModel: @unchecked Sendable {
  private struct State {
    var image: LedgerImage
    var prompt: PurchasePrompt?
    /// The signed-in account changed: the image is read anew from the ledger at the next look.
    var stale = false
  }

  private let state: Locked<State>
  private let ledger: any LedgerStore

  /// The present of `ledger`, as a launch reads it.
  init(ledger: any LedgerStore) throws(LedgerError) {
    self.ledger = ledger
    state = Locked(State(image: try Self.image(of: ledger)))
  }

  private static func image(of ledger: any LedgerStore) throws(LedgerError) -> LedgerImage {
    let snapshot = try ledger.load()
    return LedgerImage(snapshot, scope: snapshot.currentAccount ?? "")
  }

  /// Applies a commit (the queue posts it before the step's events).
  func apply(_ commit: LedgerCommit) {
    state.withLock { state in
      if let present = commit.present {
        state.image = LedgerImage(present, scope: present.currentAccount ?? "")
      } else if state.image.apply(commit.changes).currentAccount {
        // Another account's rows are not in a scoped image: they are read afresh when next looked at.
        state.stale = true
      }
    }
  }

  /// Follows the sheet as the app's process shows it.
  func hear(_ event: StoreEvent) {
    switch event {
    case .promptPresented(let prompt): state.withLock { $0.prompt = prompt }
    case .promptDismissed: state.withLock { $0.prompt = nil }
    default: break
    }
  }

  /// The image, current (read anew after an account switch).
  func present() throws(LedgerError) -> LedgerImage {
    let stale = state.withLock { $0.stale }
    if stale {
      let image = try Self.image(of: ledger)
      state.withLock { state in
        state.image = image
        state.stale = false
      }
    }
    return state.withLock { $0.image }
  }

  /// The sheet showing, if any.
  var prompt: PurchasePrompt? { state.withLock { $0.prompt } }
}
