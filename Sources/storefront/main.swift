import Foundation
import StorefrontCLI

// Composition root: everything lives in StorefrontCLI so tests can run it in-process.
let code = StorefrontCLI.main(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, io: StandardConsole())
exit(code)
