import StoreEngine

/// `storefront catalog check PATH...`: validates catalogs and reports every problem, located.
enum CatalogCheckCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "check"],
    arguments: "PATH...",
    summary: "Validate .storekit files; exit 0, or 65 with path:line:col messages.",
    discussion: """
      Every problem in every file is reported as 'path:line:column: message' with a hint. \
      Warnings (a decimal comma in a price, a newer minor format version) are reported the same \
      way, as 'path:line:column: warning: message', and do not change the exit code. Exit codes: 0 when all files are valid, 65 when a file is invalid, 66 when a file is \
      missing, unreadable or a directory (66 wins when both happen).
      """,
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    var paths = invocation.operands
    if paths.isEmpty, let catalog = invocation.global.catalogPath { paths = [catalog] }
    guard !paths.isEmpty else {
      throw invocation.usageError("Missing expected argument 'PATH...': name the .storekit files to check.", for: descriptor)
    }
    var worst = ExitCode.success
    for path in paths {
      switch CatalogSource.load(path) {
      case .success(let loaded):
        loaded.reportWarnings(io: invocation.io)
        let catalog = loaded.catalog
        var parts = ["format \(catalog.formatVersion)", plural(catalog.products.count, "product")]
        for (kind, noun) in [(SubscriptionGroup.Kind.regular, "subscription group"), (.bundle, "bundle group"), (.suite, "suite group")] {
          let count = catalog.subscriptionGroups.filter { $0.kind == kind }.count
          if kind == .regular || count > 0 { parts.append(plural(count, noun)) }
        }
        let planned = catalog.products.filter { ($0.subscription?.billingPlanTypes ?? []).contains(BillingPlan.monthly) }.count
        if planned > 0 { parts.append("\(planned) with monthly billing plans") }
        if !catalog.warnings.isEmpty { parts.append(plural(catalog.warnings.count, "warning")) }
        invocation.io.line("\(path): OK (\(parts.joined(separator: ", ")))")
      case .failure(let error):
        let code = CatalogSource.failure(error, io: invocation.io, pathRequired: true).report(to: invocation.io)
        worst = worst == ExitCode.noInput ? worst : code
      }
    }
    return worst
  }

  private static func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
