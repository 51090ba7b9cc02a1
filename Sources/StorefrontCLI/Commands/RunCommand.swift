import Foundation
import SandboxSigning
import SimulatedApp
import StoreEngine
import StoreScenario

/// `storefront run SCRIPT|- [--json]`: a headless scenario against the real engine and ledger.
enum RunCommand {
  static let descriptor = CommandDescriptor(
    path: ["run"],
    arguments: "SCRIPT|- [--json] [--api storekit1|storekit2] [--environment Sandbox|Production|Xcode] [--app-finishes MODE] [--regenerate-ca]",
    summary: "Run a headless scenario; --json prints one event per line.",
    discussion: """
      SCRIPT is a scenario file (- reads standard input): one command a line, # comments. Every event \
      (observer callback) is printed as it happens; with --json, one JSON object a line. Virtual time \
      is the ledger's: it continues from the ledger's clock, whichever front end (run, the \
      interactive storefront, serve) moved it last; a fresh ledger starts at 2026-01-01T00:00:00Z, or \
      at --clock-start DATE|now (else $STOREFRONT_CLOCK_START). A product the catalog lacks may be \
      bought (a warning names the line; the store refuses the payment). `expect signed` verifies the JWS against this data directory's sandbox \
      root. With --api storekit2 the events are those a StoreKit 2 app sees (purchaseResult, \
      transactionUpdate for Transaction.updates, appStoreSync, …) instead of StoreKit 1's observer \
      callbacks. Exit codes: 0 passed, 1 an expect line failed, 64 a bad command line (or \
      --clock-start on a ledger that already has a clock), 65 the scenario has errors (all are \
      listed as file:line:column), 66 the file is missing, 69 the shared ledger cannot be reached, \
      73-75 the data directory could not be used, 78 a configuration error (no key-encryption key \
      for a shared ledger, a bad $STOREFRONT_CLOCK_START), 134 a line did what crashes a real app \
      (finishing a purchasing transaction raises NSInternalInconsistencyException; an `expect crash` line right after it makes that the test, \
      and the run goes on after a relaunch). --app-finishes (or an `app finishes` line) makes the \
      simulated app finish by itself; in after-server mode each call to the app's server is an \
      appServerCall event with its status, latency and error.
      """,
    options: [
      OptionSpec("--json", help: "Print one JSON object per event, flushed per line."),
      OptionSpec("--api", value: "name", help: "Print what a 'storekit1' (default) or 'storekit2' app sees."),
      OptionSpec("--environment", value: "name", help: "Sign as 'Sandbox' (default; the local CA chain), 'Production' (the same chain, for a `serve --environment Production`) or 'Xcode' (one self-signed certificate)."),
      AppFinishesOption.spec,
      OptionSpec("--regenerate-ca", help: "Create a new sandbox CA when the old one is damaged (invalidates old signatures)."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let path: String
    switch invocation.singleOperand("SCRIPT", missing: "give a scenario file, or - to read standard input.", for: descriptor) {
    case .success(let operand): path = operand
    case .failure(let failure): throw failure
    }
    let signing: String
    switch invocation.signingEnvironment(for: descriptor) {
    case .success(let value): signing = value
    case .failure(let failure): throw failure
    }
    let apiName = invocation.arguments.value("--api") ?? StoreKitAPI.storeKit1.rawValue
    guard let api = StoreKitAPI(rawValue: apiName) else {
      throw invocation.usageError("Unknown API '\(apiName)': use storekit1 or storekit2.", for: descriptor)
    }
    let finishMode: AppFinishMode
    switch AppFinishesOption.mode(invocation, for: descriptor) {
    case .success(let mode): finishMode = mode
    case .failure(let failure): throw failure
    }
    let text: String
    switch ScriptSource.read(path) {
    case .success(let value): text = value
    case .failure(let problem): throw CLIFailure(problem.message, .noInput)
    }
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded):
      loaded.reportWarnings(io: invocation.io)
      catalog = loaded.catalog
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    let steps: [ScenarioStep]
    let name = path == "-" ? "<stdin>" : path
    var warnings: [ScenarioIssue] = []
    let parsed = ScenarioParser(catalog: catalog).parse(text) { warnings.append($0) }
    // Warnings and problems in file order; a warning says so after its location.
    let located = { (issue: ScenarioIssue, warning: Bool) in
      invocation.io.errorLine("\(name):\(issue.line):\(issue.column): \(warning ? "warning: " : "")\(issue.message)")
    }
    switch parsed {
    case .success(let parsed):
      steps = parsed
      for warning in warnings { located(warning, true) }
    case .failure(let issues):
      let all = warnings.map { ($0, true) } + issues.issues.map { ($0, false) }
      for (issue, warning) in all.sorted(by: { ($0.0.line, $0.0.column) < ($1.0.line, $1.0.column) }) { located(issue, warning) }
      invocation.io.errorLine("\(name): \(issues.issues.count) problem\(issues.issues.count == 1 ? "" : "s"); nothing was run.")
      return .dataError
    }
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .scenarioEpoch)
    let store = try LiveStore.open(
      catalog: catalog, global: invocation.global, environment: invocation.environment, clock: clock,
      signingEnvironment: signing, regenerateCA: invocation.arguments.flag("--regenerate-ca"), ledgerConnection: .log(invocation.io))
    for warning in store.warnings { invocation.io.errorLine("Warning: \(warning)") }
    if let account = invocation.global.account {
      do { try store.queue.signIn(account) } catch {
        throw CLIFailure("cannot sign in as '\(account)': \(error)", CLIFailure.exitCode(for: error, otherwise: .failure))
      }
    }
    let io = invocation.io
    // `expect signed` checks what a backend would: the chain to this data directory's root.
    let verifier = JWSVerifier(
      trustedRoots: [store.authority.root], bundleID: invocation.global.bundleID ?? LiveStore.defaultBundleID,
      environment: signing, now: { Date() })
    let signatures = SignatureVerifier { jws in
      do throws(JWSVerificationFailure) {
        _ = try verifier.verify(jws)
        return nil
      } catch {
        return "\(error.name): \(error)"
      }
    }
    let app = AppIdentity(
      bundleID: invocation.global.bundleID ?? StoreEnvironment.defaultBundleID, environment: signing)
    let runner = ScenarioRunner(
      queue: store.queue, json: invocation.arguments.flag("--json"), verifier: signatures, api: api, app: app
    ) { io.line($0) }
    runner.offerSigner = store.offerKey
    let directory = store.directory
    runner.serverFaults = { fault in ServerFaultControl.apply(fault, in: directory) }
    runner.notificationOutbox = store.ledger
    // The run is headless: the app waits for its server's answer (bounded by the client's time-out).
    let appServer = AppServerClient()
    runner.appServer = { appServer.call($0) }
    runner.receipt = AppReceiptSource.reader(for: store)
    let queue = store.queue
    let retention = RetentionFlowClient(store: try store.retentionMessaging(), signer: store.authority.signer(environment: signing))
    runner.retentionFlow = { retention.run($0, catalog: queue.catalog) }
    runner.appFinisher.mode = finishMode
    let outcome = runner.run(steps)
    switch outcome {
    case .passed:
      return .success
    case .assertionFailed(let line, let message):
      io.errorLine("\(name):\(line): expectation failed: \(message)")
      return .failure
    case .crashed(let line, let crash):
      io.errorLine("\(name):\(line): crashed: \(crash) Add `expect crash` after this line if that is the test.")
      return .appCrashed
    case .aborted(let line, let message):
      io.errorLine("\(name):\(line): stopped: \(message)")
      // A lock held too long is EX_TEMPFAIL (75) as at open, a read-only ledger 73; other failures 74.
      return runner.ledgerFailure.map(CLIFailure.exitCode(for:)) ?? .ioError
    }
  }
}

/// Reads a scenario from a file or standard input, with messages that say what to do.
enum ScriptSource {
  /// Why the script could not be read; the message (no label) says what to do.
  struct Problem: Error {
    var message: String
  }

  /// - Parameter kind: What the input should be, for messages ("scenario file", "file of JWS lines").
  static func read(_ path: String, kind: String = "scenario file") -> Result<String, Problem> {
    if path == "-" {
      let data = FileHandle.standardInput.readDataToEndOfFile()
      guard let text = String(data: data, encoding: .utf8) else {
        return .failure(Problem(message: "standard input is not UTF-8 text; pass a \(kind)."))
      }
      return .success(text)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .failure(Problem(message: "No scenario at '\(path)'. Check the path, or use - to read standard input."))
    }
    if isDirectory.boolValue {
      return .failure(Problem(message: "'\(path)' is a directory; pass a scenario file inside it."))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(Problem(message: "Cannot read '\(path)'. Check its permissions (ls -l '\(path)')."))
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return .failure(Problem(message: "'\(path)' is not UTF-8 text; is it really a \(kind)?"))
    }
    return .success(text)
  }
}
