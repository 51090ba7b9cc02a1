import SimulatedApp

/// `--app-finishes manually|at-once|after-server URL`, shared by the TUI and `storefront run`.
enum AppFinishesOption {
  static let spec: OptionSpec = {
    var spec = OptionSpec(
      "--app-finishes", value: "mode",
      help: "When the simulated app finishes transactions: 'manually' (default; the tester does), 'at-once' (right after purchased/restored/failed), or 'after-server URL' (POST each purchase to the app's server; finish only on a 2xx answer).")
    spec.valuesWithSecondWord = ["after-server": "url"]
    return spec
  }()

  /// The mode given, manually when none was.
  static func mode(_ invocation: Invocation, for descriptor: CommandDescriptor) -> Result<AppFinishMode, CLIFailure> {
    guard let text = invocation.arguments.value(spec.name) else { return .success(.manually) }
    do {
      return .success(try AppFinishMode(parsing: text))
    } catch {
      return .failure(invocation.usageError("The value '\(text)' is invalid for '--app-finishes': \(error.description)", for: descriptor))
    }
  }
}
