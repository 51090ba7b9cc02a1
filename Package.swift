// swift-tools-version: 6.0
import PackageDescription

// Layout: see Docs/Architecture.md and DECISIONS.md. Dependency arrows point one way:
// storefront → StorefrontCLI → {StoreTUI, NcursesTerminal, SQLiteLedger, SandboxSigning, StoreServer} → StoreEngine;
// StoreServer (HTTP, keys, tokens) → AppStoreServerAPI (endpoints as functions) → StoreEngine;
// StoreScenario (the scenario language and the event lines) → StoreEngine, used by the CLI and the TUI's log.
let package = Package(
  name: "Storefront",
  products: [
    .executable(name: "storefront", targets: ["storefront"]),
    // Apple's StoreKit and StoreKitTest declarations over the engine (issue 24): `import StoreKit`
    // and `import StoreKitTest` compile unchanged on Linux (Docs/storekit-library.md).
    .library(name: "StoreKit", targets: ["StoreKit"]),
    .library(name: "StoreKitTest", targets: ["StoreKitTest"]),
    // What Apple's platforms give StoreKit code that Linux lacks (DECISIONS §40): `ObservableObject` and
    // `@Published` (StoreKit re-exports them, as Foundation brings them on Apple's platforms), and the
    // `os` module's `Logger` and `OSAllocatedUnfairLock` (`import os` compiles unchanged).
    .library(name: "Combine", targets: ["Combine"]),
    .library(name: "os", targets: ["os"]),
  ],
  targets: [
    // C system libraries: the only code that includes C headers.
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw", providers: [.apt(["libncurses-dev"])]),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

    // Foundation only: the parts of Combine and os that StoreKit code uses on Apple's platforms.
    .target(name: "Combine"),
    .target(name: "os"),
    // Foundation only: catalog, store machine and payment queue, ledger protocol, event bus.
    .target(name: "StoreEngine"),
    // Foundation only: the simulated app's finishing policy (manually, at once, after its server answers)
    // and the shape of its call to its own server; the shells make the call.
    .target(name: "SimulatedApp", dependencies: ["StoreEngine"]),
    // Foundation only: the scenario language (parser, runner) and the event lines (text and JSON).
    .target(name: "StoreScenario", dependencies: ["StoreEngine", "SimulatedApp"]),
    // Adapters implementing the engine's protocols.
    .target(name: "SQLiteLedger", dependencies: ["StoreEngine", "CSQLite", "CZlib"]),
    .target(name: "SandboxSigning", dependencies: ["StoreEngine", "COpenSSL"]),
    // The app receipt (Apple's receipt ASN.1 in a PKCS#7 SignedData signed by the sandbox CA, with
    // OpenSSL's encoder) and `verifyReceipt`'s answers over the ledger.
    .target(name: "AppReceipt", dependencies: ["StoreEngine", "SandboxSigning", "COpenSSL"]),
    // The shared ledger on PostgreSQL (libpq); stores the same JSON as SQLiteLedger.
    .target(name: "PostgreSQLLedger", dependencies: ["StoreEngine", "SQLiteLedger", "CPostgreSQL"]),
    // The sandbox CA's keys in the shared ledger, sealed with the team's key: for the command line
    // and for an app attached to a shared ledger.
    .target(name: "SharedLedgerSecrets", dependencies: ["StoreEngine", "SandboxSigning", "PostgreSQLLedger"]),
    // Foundation only: the App Store Server API's endpoints, models and errors, as request → response
    // functions over the ledger (no HTTP, no sockets).
    .target(name: "AppStoreServerAPI", dependencies: ["StoreEngine"]),
    // The HTTP server (libmicrohttpd), API keys and bearer-token checks in front of AppStoreServerAPI.
    .target(name: "StoreServer", dependencies: ["AppStoreServerAPI", "StoreEngine", "SandboxSigning", "CMicroHTTPD"]),
    // App Store Server Notifications delivered: the signed payload, a libcurl webhook client, and the
    // deliverer thread a serving process runs over the ledger's outbox.
    .target(name: "ServerNotifications", dependencies: ["StoreEngine", "SQLiteLedger", "PostgreSQLLedger", "CCurl"]),
    // Pure TUI: state, actions, reducer, render → ScreenBuffer, display width. No ncurses.
    .target(name: "StoreTUI", dependencies: ["StoreEngine", "StoreScenario", "SimulatedApp"]),
    // The only ncurses user.
    .target(name: "NcursesTerminal", dependencies: ["StoreTUI", "CNcursesw"]),
    // Argument parsing and the subcommands, as a library so tests can call them in-process.
    .target(
      name: "StorefrontCLI",
      dependencies: [
        "StoreEngine", "StoreScenario", "SQLiteLedger", "SandboxSigning", "StoreTUI", "NcursesTerminal", "StoreServer",
        "AppStoreServerAPI", "ServerNotifications", "SimulatedApp", "AppReceipt", "PostgreSQLLedger", "SharedLedgerSecrets",
        "StorefrontLive",
      ]
    ),
    .executableTarget(name: "storefront", dependencies: ["StorefrontCLI"]),
    // What every live process shares: the one watcher that wakes it on another process's commit (DECISIONS §41).
    .target(name: "StorefrontLive", dependencies: ["StoreEngine", "SQLiteLedger", "PostgreSQLLedger"]),
    // A test fixture: an app's purchase code on Apple's StoreKit 1 API, attached to a storefront (issue 25).
    .executableTarget(name: "storekit-attached-app", dependencies: ["StoreKit"]),
    // The third front end of the engine (after the TUI and the scenario runner): StoreKit 1 and 2 as
    // Apple declares them, driving `PaymentQueue` and translating its events into Apple's callbacks.
    .target(
      name: "StoreKit",
      dependencies: ["Combine", "StoreEngine", "StoreScenario", "SandboxSigning", "AppReceipt", "SQLiteLedger", "PostgreSQLLedger", "SharedLedgerSecrets",
        "StorefrontLive",
      ]
    ),
    // `SKTestSession` and friends: the controls of the one test environment of the process.
    .target(name: "StoreKitTest", dependencies: ["StoreKit", "StoreEngine", "StoreScenario"]),
    .target(name: "StorefrontTestSupport", dependencies: ["StoreEngine"]),
    // Foundation only: the real binary (and other programs) as child processes, temporary
    // directories, Apple's Python verifier; for the process-driving tests and the benchmark.
    .target(name: "StorefrontProcessTestSupport"),
    // `swift run -c release storefront-bench [--json] [--quick]`: issue 7's figures and baselines, and the
    // engine rewrite's (launch, advance; they sign with SandboxSigning like the live store).
    .executableTarget(
      name: "storefront-bench",
      dependencies: [
        "StoreEngine", "SQLiteLedger", "SandboxSigning", "StoreTUI", "NcursesTerminal", "CSQLite", "StorefrontTestSupport",
        "StorefrontProcessTestSupport", "CMicroHTTPD", "CCurl", "PostgreSQLLedger", "StoreScenario", "StoreKit", "StoreKitTest",
      ],
      path: "Benchmarks/storefront-bench"
    ),

    .testTarget(name: "StoreEngineTests", dependencies: ["StoreEngine", "StorefrontTestSupport"]),
    // The library against the scenario runner's expectations for the same flows (one engine, two front ends).
    .testTarget(
      name: "StoreKitTests",
      dependencies: [
        "StoreKit", "StoreKitTest", "StoreEngine", "StoreScenario", "SandboxSigning", "SQLiteLedger", "StorefrontTestSupport",
        "StorefrontProcessTestSupport", "AppReceipt", "os",
      ],
      resources: [.copy("Resources/Products.storekit")]
    ),
    // Apple's StoreKit surface, declaration for declaration (issue 34): every in-scope declaration named
    // with Apple's signature, and test doubles that subclass each StoreKit 1 class. The example package
    // compiles the same directory in the Swift 5 language mode; scripts/surface-count counts it.
    .testTarget(
      name: "AppleSurfaceTests",
      dependencies: [.target(name: "StoreKit"), .target(name: "StoreKitTest")],
      exclude: ["declarations"]
    ),
    .testTarget(name: "AppStoreServerAPITests", dependencies: ["AppStoreServerAPI", "StoreEngine", "StorefrontTestSupport"]),
    .testTarget(
      name: "StoreServerTests",
      dependencies: [
        "StoreServer", "AppStoreServerAPI", "StoreEngine", "SandboxSigning", "StorefrontTestSupport", "StorefrontProcessTestSupport",
      ]
    ),
    .testTarget(name: "SimulatedAppTests", dependencies: ["SimulatedApp", "StoreEngine", "StorefrontTestSupport"]),
    .testTarget(name: "StoreScenarioTests", dependencies: ["StoreScenario", "StoreEngine", "StorefrontTestSupport"]),
    .testTarget(
      name: "StoreTUITests",
      dependencies: ["StoreTUI", "StoreEngine", "SQLiteLedger", "PostgreSQLLedger", "StorefrontTestSupport", "StorefrontProcessTestSupport"], exclude: ["__Snapshots__"]
    ),
    .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal", "StoreTUI", "CNcursesw"]),
    .testTarget(
      name: "ServerNotificationsTests",
      dependencies: ["ServerNotifications", "StoreEngine", "SQLiteLedger", "StorefrontTestSupport", "StorefrontProcessTestSupport"]
    ),
    .testTarget(name: "AppReceiptTests", dependencies: ["AppReceipt", "StoreEngine", "SandboxSigning", "StorefrontTestSupport"]),
    // The ledger adapters and their shared conformance suite (PostgreSQL/: against a real server).
    .testTarget(
      name: "SQLiteLedgerTests",
      dependencies: ["SQLiteLedger", "PostgreSQLLedger", "StoreEngine", "StorefrontTestSupport", "StorefrontProcessTestSupport"]
    ),
    .testTarget(
      name: "SandboxSigningTests",
      dependencies: ["SandboxSigning", "StoreEngine", "StorefrontTestSupport", "StorefrontProcessTestSupport"]
    ),
    .testTarget(
      name: "StorefrontCLITests",
      dependencies: [
        "StorefrontCLI", "StorefrontTestSupport", "StoreEngine", "StoreTUI", "SQLiteLedger", "SandboxSigning", "SimulatedApp",
        "StorefrontProcessTestSupport", "ServerNotifications", "SharedLedgerSecrets", "StorefrontLive",
      ]
    ),
    // Runs the real binary (processes, tmux); depending on the executable makes `swift test` build it.
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "storefront", "storekit-attached-app", "StorefrontTestSupport", "StorefrontProcessTestSupport", "StoreEngine", "SandboxSigning", "AppReceipt", "PostgreSQLLedger",
      ]
    ),
    // The real binary in a private tmux server: keys in, screen text and the ledger out.
    .testTarget(
      name: "TerminalEndToEndTests", dependencies: ["storefront", "storekit-attached-app", "SandboxSigning", "StorefrontProcessTestSupport"]),
    // Crash, fault, concurrency, bad-input and security tests of the real binary, plus fuzz regressions.
    .testTarget(
      name: "ReliabilityTests",
      dependencies: [
        "storefront", "storekit-attached-app", "StorefrontTestSupport", "StorefrontProcessTestSupport", "StoreEngine", "StoreScenario",
        "SQLiteLedger", "SandboxSigning",
      ],
      exclude: ["README.md"]
    ),
  ]
)
