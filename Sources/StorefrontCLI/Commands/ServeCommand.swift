import Foundation
import SQLiteLedger
import SandboxSigning
import StoreEngine
import StoreServer

/// `storefront serve`: the App Store Server API over HTTP for a backend under test.
enum ServeCommand {
  static let descriptor = CommandDescriptor(
    path: ["serve"],
    arguments:
      "[--listen <addr:port>] [--environment Sandbox|Production] [--tls] [--ready-file <path>] [--json] [--notify <url>] [--app-apple-id <n>] [--retry-in-sandbox]",
    summary: "Serve the App Store Server API from the data directory's ledger.",
    discussion: """
      Answers the App Store Server API at the root of http://ADDR:PORT (default \
      \(ListenAddress.default)) from the data directory's ledger, so purchases another storefront \
      process makes are visible to the next request. Every request needs Apple's bearer token, \
      signed with a key from `storefront keys create` or `keys import`; anything else gets Apple's \
      plain-text 401. Port 0 picks a free port; the address is printed and, with --ready-file, \
      written to a file (in one write; a FIFO works) once the server accepts connections. Listening on an address other \
      machines can reach must be asked for with --listen and is announced. One line per request \
      (time, method, path, status, latency, key id) goes to standard output. SIGTERM or SIGINT \
      stops it (exit 0). With --tls it serves HTTPS at https://ADDR:PORT with a certificate the \
      sandbox CA issues (ca/tls-server.pem) for Apple's API host names, localhost and the loopback \
      addresses; a client trusts ca/root-ca.pem and maps Apple's host name to ADDR (an /etc/hosts entry). \
      Notifications the environment's commits queue are delivered to its notification URL (set with \
      --notify or `storefront notifications url`), one line each.
      """,
    options: [
      OptionSpec("--listen", value: "addr:port", help: "Where to listen (default \(ListenAddress.default); port 0 picks a free one)."),
      OptionSpec("--environment", value: "name", help: "Answer as 'Sandbox' (default) or 'Production'."),
      OptionSpec("--ready-file", value: "path", help: "Write the address (ADDR:PORT) to this file once listening."),
      OptionSpec("--json", help: "Print the start line and each request as one JSON object a line."),
    ] + connectionOptions + ServeDelivery.options,
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': use --listen ADDR:PORT to choose the address.", for: descriptor)
    }
    var address = ListenAddress.default
    if let text = invocation.arguments.value("--listen") {
      guard let parsed = ListenAddress(parsing: text) else {
        throw invocation.usageError("The value '\(text)' is invalid for '--listen <addr:port>': use an IP address and a port, such as 127.0.0.1:8808 or [::1]:0.", for: descriptor)
      }
      address = parsed
    }
    let environment = invocation.arguments.value("--environment") ?? "Sandbox"
    guard environment == "Sandbox" || environment == "Production" else {
      throw invocation.usageError("Unknown environment '\(environment)': use Sandbox or Production.", for: descriptor)
    }
    var configuration: HTTPServerConfiguration
    switch Self.configuration(invocation, address: address) {
    case .success(let value): configuration = value
    case .failure(let failure): throw failure
    }
    let json = invocation.arguments.flag("--json")
    var delivery: ServeDelivery
    switch ServeDelivery.parse(invocation) {
    case .success(let parsed): delivery = parsed
    case .failure(let usage): throw invocation.usageError(usage.text, for: descriptor)
    }
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded):
      loaded.reportWarnings(io: invocation.io)
      catalog = loaded.catalog
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    var identity: TLSServerIdentity?
    if invocation.arguments.flag("--tls") {
      let made = try tlsIdentity(invocation)
      identity = made
      configuration.tls = TLSCredentials(certificatePEM: made.certificatePEM, keyPEM: made.keyPEM)
    }
    let bundleID = invocation.global.bundleID ?? LiveStore.defaultBundleID
    let output = SerializedOutput(invocation.io)
    delivery.log = { report in output.line(ServeDelivery.line(report, json: json)) }
    let stop = SignalWait(signals: [SIGTERM, SIGINT])
    let keys = try invocation.keyStore()
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .scenarioEpoch)
    let server: ServeSession
    do throws(ServeSession.Failure) {
      server = try ServeSession.start(
        catalog: catalog, global: invocation.global, processEnvironment: invocation.environment, keys: keys,
        configuration: configuration, environment: environment, bundleID: bundleID, clock: clock, delivery: delivery,
        ledgerConnection: .log(invocation.io), log: { entry in output.line(json ? entry.jsonLine : entry.line) })
    } catch {
      throw failure(error)
    }
    let bound = server.boundAddress
    if !bound.isLoopback {
      invocation.io.errorLine("Warning: listening on \(bound), which other machines can reach; anyone with a registered key can read this ledger.")
    }
    let keyCount = server.activeKeyCount
    if keyCount == 0 {
      invocation.io.errorLine("No API keys yet: every request gets 401 until `storefront keys create` makes one.")
    }
    if json {
      var start = ["event": "listening", "address": "\(bound)", "url": "\(configuration.scheme)://\(bound)", "environment": environment, "bundleId": bundleID]
      if let identity { start["rootCertificate"] = identity.rootCertificateFile.path }
      if let url = delivery.notifyURL { start["notify"] = url.description }
      let data = (try? JSONSerialization.data(withJSONObject: start, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
      output.line(String(decoding: data, as: UTF8.self))
    } else {
      output.line("Listening on \(configuration.scheme)://\(bound) (\(environment), bundle id \(bundleID), \(keyCount) active key\(keyCount == 1 ? "" : "s")). SIGTERM or Ctrl-C stops.")
      if let identity { output.line(trustLine(identity)) }
      if let url = delivery.notifyURL { output.line("Delivering \(environment) notifications to \(url).") }
    }
    if let readyFile = invocation.arguments.value("--ready-file"), let problem = writeReadyFile(readyFile, "\(bound)\n") {
      server.stop()
      throw CLIFailure("cannot write '\(readyFile)': \(problem).", .cannotCreate)
    }
    stop.wait()
    server.stop()
    output.line(json ? #"{"event":"stopped"}"# : "Stopped.")
    return .success
  }

  /// Why the server did not start, as serve always has said it.
  static func failure(_ failure: ServeSession.Failure) -> CLIFailure {
    switch failure {
    case .store(let error): error
    case .keys(let error): CLIFailure(keys: error)
    case .listen(let error):
      CLIFailure(
        "\(error.description).\(error == .tlsUnsupported ? "" : " Choose another with --listen ADDR:PORT (port 0 picks a free one).")",
        .unavailable)
    case .notifications(let message): CLIFailure(message, .cannotCreate)
    }
  }

  /// Writes `text` in one `write`, so a reader never sees half an address and the file may be a FIFO
  /// a script blocks on; nil on success, else the reason.
  private static func writeReadyFile(_ path: String, _ text: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { close(descriptor) }
    let data = Data(text.utf8)
    let written = data.withUnsafeBytes { raw in raw.baseAddress.map { write(descriptor, $0, raw.count) } ?? -1 }
    return written == data.count ? nil : String(cString: strerror(errno))
  }
}
