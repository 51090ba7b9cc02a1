extension Invocation {
  /// The one FILE-like operand a command takes, or the usage error to throw.
  ///
  /// - Parameters:
  ///   - name: its placeholder in messages (`SCRIPT`, `FILE`).
  ///   - missing: what to say when it is absent.
  func singleOperand(_ name: String, missing: String, for command: CommandDescriptor) -> Result<String, CLIFailure> {
    guard let operand = operands.first else {
      return .failure(usageError("Missing \(name): \(missing)", for: command))
    }
    guard operands.count == 1 else {
      return .failure(usageError("Unexpected argument '\(operands[1])': \(command.name) takes one \(name).", for: command))
    }
    return .success(operand)
  }

  /// The `--environment` option: `Sandbox` (default), `Production` or `Xcode`, or the usage error to throw.
  func signingEnvironment(for command: CommandDescriptor) -> Result<String, CLIFailure> {
    let value = arguments.value("--environment") ?? "Sandbox"
    guard value == "Sandbox" || value == "Production" || value == "Xcode" else {
      return .failure(usageError("Unknown environment '\(value)': use Sandbox, Production or Xcode.", for: command))
    }
    return .success(value)
  }
}
