extension StoreMachine {
  /// Sells `new` from now on (``StoreCommand/sellCatalog(_:)``): its settings that differ from the
  /// old catalog's become the sandbox's, as ``StoreCommand/setControl(_:)`` steps would, so a switch
  /// flipped at run time stays as it is where the file did not change it. Transactions already made
  /// keep their products, sold or not.
  static func settingChanges(from old: Catalog, to new: Catalog) -> [ControlChange] {
    let old = SandboxControls(settings: old.settings)
    let new = SandboxControls(settings: new.settings)
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
