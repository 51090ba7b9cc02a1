import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Every ```` ```sh runnable ```` block of README.md and Docs/*.md runs against the built binary
/// and prints what its ```` ```text output ```` block shows, so the documentation cannot go stale.
///
/// Each block runs in `bash` with `set -euo pipefail`, standard error merged into standard output,
/// in a fresh temporary directory that holds links to the checkout's `Examples`, `Catalog`, `Docs`,
/// `Tests` and `scripts` (so a block reads as if run from the repository root and writes nothing
/// into it), with `STOREFRONT_DATA_DIR` a fresh directory, the built binary's directory first on
/// `PATH`, `HOME` the temporary directory and `STOREFRONT_REPO` the checkout. Jobs a block leaves
/// running are killed when it ends.
final class RunnableDocsTests: XCTestCase {
  static let root = StorefrontBinary.packageRoot
  /// Seconds one block may take.
  static let timeout: TimeInterval = 60
  /// The checkout's folders a block may read, linked into its directory.
  static let linkedFolders = ["Examples", "Catalog", "Docs", "Tests", "scripts"]

  /// README.md and every Markdown page of Docs/, as repository-relative paths.
  static func documents() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
    return ["README.md"] + docs
  }

  static func allBlocks() throws -> [RunnableDocBlock] {
    try documents().flatMap { file in
      RunnableDocBlock.blocks(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8), file: file)
    }
  }

  func testEveryRunnableBlockRunsAndPrintsItsSampleOutput() throws {
    let blocks = try Self.allBlocks()
    // The recipes the README and the reference promise (scenario, catalog, transactions, verify,
    // receipt, serve, notifications, ...): fewer means the marker or the parser broke.
    XCTAssertGreaterThanOrEqual(blocks.count, 8, "runnable blocks found: \(blocks.map { "\($0.file):\($0.line)" })")
    let binaryDirectory = try StorefrontBinary.locate().deletingLastPathComponent()
    for block in blocks {
      try run(block, binaryDirectory: binaryDirectory)
    }
  }

  private func run(_ block: RunnableDocBlock, binaryDirectory: URL) throws {
    let directory = try TemporaryDirectory(self)
    let data = try TemporaryDirectory(self)
    for folder in Self.linkedFolders {
      try FileManager.default.createSymbolicLink(
        at: directory.url.appendingPathComponent(folder), withDestinationURL: Self.root.appendingPathComponent(folder))
    }
    let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let environment = [
      "PATH": "\(binaryDirectory.path):\(inherited)", "HOME": directory.path, "STOREFRONT_DATA_DIR": data.path,
      "STOREFRONT_REPO": Self.root.path, "NO_COLOR": "1", "LANG": "C.UTF-8", "TERM": "dumb",
      "SWIFT_BACKTRACE": "enable=no",
    ]
    let prologue = "set -euo pipefail\nexec 2>&1\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
    let location = "\(block.file):\(block.line)"
    let result = try ChildProcess.run(
      "/bin/bash", ["--noprofile", "--norc", "-c", prologue + block.script], environment: environment,
      workingDirectory: directory.url, timeout: Self.timeout)
    guard !result.timedOut, !result.signalled, result.status == 0 else {
      XCTFail("\(location): the runnable block \(result.timedOut ? "timed out" : "exited \(result.status)"); it printed:\n\(result.stdout)")
      return
    }
    guard let expected = block.expectedOutput else { return }
    if let mismatch = RunnableDocBlock.firstMismatch(result.lines, expected) {
      XCTFail(
        "\(location): the output differs from the sample output block from its line \(mismatch + 1) "
          + "('\(expected.indices.contains(mismatch) ? expected[mismatch] : "")'); the block printed:\n\(result.stdout)")
    }
  }

  func testTheParserFindsRunnableBlocksAndTheirOutput() {
    let text = """
      # Title
      ```sh
      not runnable
      ```
      ```sh runnable
      echo one
      echo two
      ```

      ```text output
      one
      two
      ```
      ```sh runnable
      true
      ```
      ```text
      a plain text block is no sample output
      ```
      """
    let blocks = RunnableDocBlock.blocks(in: text, file: "x.md")
    XCTAssertEqual(
      blocks,
      [
        RunnableDocBlock(file: "x.md", line: 5, script: "echo one\necho two", expectedOutput: ["one", "two"]),
        RunnableDocBlock(file: "x.md", line: 14, script: "true", expectedOutput: nil),
      ])
  }

  func testTheMatcherTakesPlaceholdersAndRejectsEveryDifference() {
    let output = ["Listening on http://127.0.0.1:38259 (Sandbox)", "a", "b", "Stopped.  "]
    XCTAssertTrue(RunnableDocBlock.output(output, matches: ["Listening on http://127.0.0.1:… (Sandbox)", "a", "b", "Stopped."]))
    XCTAssertTrue(RunnableDocBlock.output(output, matches: ["Listening on …", "⋮", "Stopped."]))
    XCTAssertTrue(RunnableDocBlock.output(output, matches: ["⋮"]))
    XCTAssertTrue(RunnableDocBlock.output([], matches: []))
    XCTAssertEqual(RunnableDocBlock.firstMismatch(output, ["Listening on …", "a", "c", "Stopped."]), 2)
    XCTAssertFalse(RunnableDocBlock.output(output, matches: ["Listening on …", "a", "b"]), "a missing last line")
    XCTAssertFalse(RunnableDocBlock.output(output, matches: ["⋮", "a"]), "a line after the last expected one")
    XCTAssertFalse(RunnableDocBlock.output(["x"], matches: []))
    XCTAssertFalse(RunnableDocBlock.line("abc", matches: "a…bc…d"))
    XCTAssertTrue(RunnableDocBlock.line("abc", matches: "a…c…"))
    XCTAssertTrue(RunnableDocBlock.line("ac", matches: "a…c"))
    XCTAssertFalse(RunnableDocBlock.line("a", matches: "a…a"))
  }
}
