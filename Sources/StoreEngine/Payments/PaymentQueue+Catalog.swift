extension PaymentQueue {
  /// Sells `catalog` from now on (the catalog editor saved the file): the Store pane and the next
  /// sheet show it. Transactions already made keep their products, sold or not.
  ///
  /// - Returns: the sandbox controls the new catalog's `settings` change (only settings that differ
  ///   from the old catalog's, so a switch flipped at run time stays as it is), for the caller to
  ///   perform as ``StoreCommand/setControl(_:)`` steps.
  public func replaceCatalog(_ catalog: Catalog) -> [ControlChange] {
    let old = SandboxControls(settings: machine.catalog.settings)
    let new = SandboxControls(settings: catalog.settings)
    machine.catalog = catalog
    var changes: [ControlChange] = []
    if old.askToBuy != new.askToBuy { changes.append(.askToBuy(new.askToBuy)) }
    if old.dialogsEnabled != new.dialogsEnabled { changes.append(.dialogs(new.dialogsEnabled)) }
    if old.billingRetry != new.billingRetry { changes.append(.billingRetry(new.billingRetry)) }
    if old.gracePeriod != new.gracePeriod { changes.append(.gracePeriod(new.gracePeriod)) }
    if old.storefront != new.storefront { changes.append(.storefront(new.storefront)) }
    if old.locale != new.locale { changes.append(.locale(new.locale)) }
    if old.timeRate != new.timeRate { changes.append(.timeRate(new.timeRate)) }
    for api in StoreAPI.allCases where old.failures[api] != new.failures[api] { changes.append(.failure(api, new.failures[api])) }
    return changes
  }
}
