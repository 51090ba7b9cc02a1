/// `storefront [--catalog PATH] …` with no subcommand: the interactive TUI.
///
/// A stand-in until the TUI is wired in: it says so and points to what works.
enum InteractiveCommand {
  static let descriptor = CommandDescriptor(
    path: [],
    summary: "Start the interactive storefront, the default (not available in this build yet).",
    run: run)

  static func run(_ invocation: Invocation) -> Int32 {
    invocation.io.errorLine("storefront: interactive mode is not available in this build yet; use `storefront catalog show` to list the catalog's products.")
    return ExitCode.unavailable
  }
}
