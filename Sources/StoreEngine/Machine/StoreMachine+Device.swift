extension StoreMachine {
  /// Runs one of the attached processes' mailbox commands: its device values change here and in
  /// the ledger in the same step, and the views hear of it by the step's ``LedgerCommit``.
  mutating func say(_ command: DeviceCommand) {
    for change in command.changes {
      guard case .setDeviceValue(let key, let value) = change else { continue }
      deviceValues[key] = value
      step.changes.append(change)
    }
  }
}
